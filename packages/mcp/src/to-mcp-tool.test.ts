import { ToolCatalog } from '@toolscout/core';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { toCallToolResult, toMcpTool } from './to-mcp-tool.js';

describe('toMcpTool', () => {
  it('refuses what is not an offered tool with a typed error naming the argument, not a TypeError', () => {
    for (const value of [null, undefined, 5, {}, { name: 7 }]) {
      expect(() => toMcpTool(value as never)).toThrow(
        expect.objectContaining({ argument: 'offered', message: expect.stringContaining('step.tools[i]') }),
      );
      try {
        toMcpTool(value as never);
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
      }
    }
  });

  it('shows MCP output schemas only when they describe an object', () => {
    const catalog = new ToolCatalog([
      { id: 'ok', outputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
      { id: 'not_object', outputSchema: { type: 'string' } },
    ]);
    const [ok, notObject] = catalog.list();
    const offer = (tool: typeof ok) => ({
      kind: 'loaded' as const,
      name: tool!.toolName,
      description: '',
      inputSchema: tool!.jsonSchema,
      tool,
    });
    expect(toMcpTool(offer(ok)).outputSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
    expect(toMcpTool(offer(notObject))).not.toHaveProperty('outputSchema');
  });

  it('carries a title and annotations over, and gives meta-tools the hints of their role', () => {
    const [tool] = new ToolCatalog([
      { id: 'delete_repo', metadata: { title: 'Delete a repository' }, annotations: { destructiveHint: true } },
    ]).list();
    const offered = toMcpTool({
      kind: 'loaded',
      name: 'delete_repo',
      description: 'd',
      inputSchema: tool!.jsonSchema,
      tool,
    });
    expect(offered).toMatchObject({ title: 'Delete a repository', annotations: { destructiveHint: true } });
    const search = toMcpTool({ kind: 'meta', role: 'search', name: 'search_tools', description: 's', inputSchema: {} });
    expect(search.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  });
});

describe('toCallToolResult', () => {
  it("passes a catalog tool's own MCP result through, and shapes other outputs and the model's mistakes", () => {
    const own = { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 }, isError: false };
    expect(toCallToolResult({ ok: true, output: own, toolId: 'greet' })).toBe(own);
    // A meta-tool's output is never taken for an MCP result.
    expect(toCallToolResult({ ok: true, output: own })).toMatchObject({ structuredContent: own });
    expect(toCallToolResult({ ok: true, output: [1, 2] })).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    const refused = toCallToolResult({
      ok: false,
      error: { toolName: 'x', message: 'Tool "x" is not available.' } as never,
    });
    expect(refused).toEqual({ content: [{ type: 'text', text: 'Tool "x" is not available.' }], isError: true });
  });
});
