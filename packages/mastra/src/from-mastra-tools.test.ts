import { createTool } from '@mastra/core/tools';
import { DuplicateToolError, InvalidToolError } from '@toolscout/core/errors';
import { tool as aiTool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requestContextOf } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import { fromMastraTool, fromMastraTools } from './from-mastra-tools.js';
import { ToolSearchProcessor } from './tool-search-processor.js';

describe('fromMastraTool', () => {
  it('converts one Mastra tool: its id, description, MCP server as source, and a run through the original', async () => {
    const { tools, runs } = createMastraTools();
    (tools.getWeather as unknown as { mcpMetadata: object }).mcpMetadata = { serverName: 'weather-server' };
    const descriptor = fromMastraTool(tools.getWeather);
    expect(descriptor).toMatchObject({
      id: 'get_weather',
      description: tools.getWeather.description,
      source: 'weather-server',
      tool: tools.getWeather,
    });
    // Outside an agent call, the tool gets the request context the session was given.
    const output = await descriptor.execute?.(
      { city: 'Oslo' },
      { toolId: 'get_weather', context: requestContextOf({ tenant: 'acme' }) },
    );
    expect(output).toEqual({ city: 'Oslo', temperature: 21 });
    expect(runs).toEqual([{ toolId: 'get_weather', input: { city: 'Oslo' }, tenant: 'acme', toolCallId: undefined }]);
  });

  it('names a tool without an id by its key, and refuses it without one', () => {
    const translate = aiTool({
      description: 'Translate text into another language.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => text,
    });
    expect(fromMastraTool(translate, 'translate').id).toBe('translate');
    expect(() => fromMastraTool(translate)).toThrow(InvalidToolError);
    expect(() => fromMastraTool(translate)).toThrow(/The tool has no id/);
    expect(() => fromMastraTool(42 as never, 'broken')).toThrow(/tools\["broken"\] must be a tool/);
    const computed = { id: 'x', description: () => 'per call' } as never;
    expect(() => fromMastraTool(computed)).toThrow(/description is a function/);
  });

  it('lets a descriptor add tags to a Mastra tool, which search then finds', async () => {
    const { tools } = createMastraTools();
    const processor = new ToolSearchProcessor({
      tools: [{ ...fromMastraTool(tools.sendEmail), tags: ['inbox'] }, fromMastraTool(tools.getWeather)],
    });
    const hits = await processor.session.search('inbox');
    expect(hits.map((hit) => hit.tool.id)).toEqual(['send_email']);
    processor.dispose();
  });
});

describe('fromMastraTools', () => {
  it('takes a record (keys as fallback ids) or a list, and refuses two tools with one id', () => {
    const { tools } = createMastraTools();
    expect(fromMastraTools({ a: tools.getWeather, b: tools.sendEmail }).map((tool) => tool.id)).toEqual([
      'get_weather',
      'send_email',
    ]);
    expect(fromMastraTools([tools.getWeather]).map((tool) => tool.id)).toEqual(['get_weather']);
    expect(() => fromMastraTools({ a: tools.getWeather, b: tools.getWeather })).toThrow(DuplicateToolError);
    expect(() => fromMastraTools('tools' as never)).toThrow(/record of Mastra tools by name or a list/);
    expect(() => fromMastraTools([42 as never])).toThrow(/Tool at index 0 must be a Mastra tool or a tool descriptor/);
  });

  it('runs a descriptor without execute through its Mastra tool', async () => {
    const runs: unknown[] = [];
    const ping = createTool({
      id: 'ping',
      description: 'Check that a host answers.',
      inputSchema: z.object({ host: z.string() }),
      execute: async (input) => {
        runs.push(input);
        return { up: true };
      },
    });
    const [descriptor] = fromMastraTools([{ id: 'ping', description: 'Ping a host.', tool: ping }]);
    await expect(descriptor?.execute?.({ host: 'example.com' }, { toolId: 'ping' })).resolves.toEqual({ up: true });
    expect(runs).toEqual([{ host: 'example.com' }]);
  });
});
