import { chat, maxIterations, toolDefinition } from '@tanstack/ai';
import { answer, call, load, type ScriptAction, search } from '@toolscout/conformance';
import { countToolDefinitionTokens, type JsonSchema, type ToolSearchMode } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import type { TanStackTool } from './tanstack-tool.js';
import { ScriptedAdapter } from './testing.js';
import { type ToolSearchMiddlewareOptions, toolSearchMiddleware } from './tool-search-middleware.js';

const DOMAINS = [
  'crm',
  'billing',
  'calendar',
  'storage',
  'tickets',
  'hr',
  'inventory',
  'shipping',
  'chat',
  'analytics',
];
const OBJECTS = ['contact', 'invoice', 'event', 'file', 'issue', 'employee', 'product', 'parcel', 'channel', 'report'];
const ACTIONS = ['create', 'get', 'update', 'delete', 'list'];

/** 500 TanStack AI tools (10 domains x 10 objects x 5 actions), each with a two-field JSON Schema. */
function fiveHundredTools(): TanStackTool[] {
  return DOMAINS.flatMap((domain) =>
    OBJECTS.flatMap((object) =>
      ACTIONS.map((action) =>
        toolDefinition({
          name: `${domain}_${action}_${object}`,
          description: `${action[0]!.toUpperCase()}${action.slice(1)} a ${object} in the ${domain} system.`,
          inputSchema: {
            type: 'object',
            properties: {
              id: { type: 'string', description: `The ${object} id.` },
              note: { type: 'string', description: 'Free text.' },
            },
            required: ['id'],
          },
        }).server(async (input) => ({ done: `${domain} ${action} ${object} ${(input as { id: string }).id}` })),
      ),
    ),
  );
}

/** The o200k tokens of the tool definitions the model received at each call of a `chat()` run. */
async function tokensPerCall(scripted: ScriptedAdapter): Promise<number[]> {
  const sizes = scripted.calls.map((c) =>
    countToolDefinitionTokens(
      c.tools.map(({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema: (inputSchema ?? {}) as JsonSchema,
      })),
    ),
  );
  return (await Promise.all(sizes)).map((size) => size.tokens);
}

/** One `chat()` run over the 500 tools: with the middleware in `mode`, or with TanStack AI's `lazy: true` alone. */
async function run(
  script: ScriptAction[],
  mode: ToolSearchMode | 'lazy',
  options: Partial<ToolSearchMiddlewareOptions> = {},
) {
  const tools = fiveHundredTools();
  const scripted = new ScriptedAdapter();
  scripted.play(script);
  await chat({
    adapter: scripted.adapter,
    messages: [{ role: 'user', content: 'Create an invoice in billing for customer 42.' }],
    tools: mode === 'lazy' ? tools.map((tool) => ({ ...tool, lazy: true })) : [],
    middleware: mode === 'lazy' ? [] : [toolSearchMiddleware({ catalog: tools, mode, ...options })],
    agentLoopStrategy: maxIterations(script.length + 1),
    stream: false,
  });
  const offered = scripted.calls.map((c) => c.tools.map((tool) => tool.name));
  return { offered, tokens: await tokensPerCall(scripted), scripted };
}

const TARGET = 'billing_create_invoice';

describe('a 500-tool catalog', () => {
  it('search-load offers the meta-tools and the loaded tool only, at a small fraction of lazy discovery’s tokens', async () => {
    const toolscout = await run(
      [search('create invoice billing'), load(TARGET), call(TARGET, { id: '42' }), answer()],
      'search-load',
    );
    const lazy = await run(
      [call('__lazy__tool__discovery__', { toolNames: [TARGET] }), call(TARGET, { id: '42' }), answer()],
      'lazy',
    );
    const discover = [call('discover_tools', { toolNames: [TARGET] }), call(TARGET, { id: '42' }), answer()];
    const catalog = await run(discover, 'catalog', { catalogListing: 'names' });
    const catalogWithSummaries = await run(discover, 'catalog');

    expect(toolscout.offered).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool', TARGET],
      ['search_tools', 'load_tool', TARGET],
    ]);
    // TanStack AI's discovery tool names every lazy tool in its description, at every call until all are found.
    expect(lazy.offered).toEqual([
      ['__lazy__tool__discovery__'],
      [TARGET, '__lazy__tool__discovery__'],
      [TARGET, '__lazy__tool__discovery__'],
    ]);
    expect(lazy.scripted.calls[0]!.tools[0]!.description).toContain('analytics_list_report');
    // catalog mode is the drop-in: the same name list and discovery, toolscout's policy and state behind it.
    expect(catalog.offered).toEqual([['discover_tools'], ['discover_tools', TARGET], ['discover_tools', TARGET]]);

    // Figures for the README (o200k tokens of the tool definitions at each model call).
    const figures = {
      searchLoad: toolscout.tokens,
      lazy: lazy.tokens,
      catalogNames: catalog.tokens,
      catalogSummaries: catalogWithSummaries.tokens,
    };
    console.info(`tokens per model call, 500 tools: ${JSON.stringify(figures)}`);
    expect(figures.searchLoad.every((tokens) => tokens < 400)).toBe(true);
    expect(figures.lazy[0]).toBeGreaterThan(10 * figures.searchLoad[0]!);
    expect(figures.searchLoad.at(-1)! * 5).toBeLessThan(figures.lazy.at(-1)!);
    // With names only, catalog mode's listing costs about what TanStack AI's does (within a quarter).
    expect(Math.abs(figures.catalogNames[0]! - figures.lazy[0]!)).toBeLessThan(figures.lazy[0]! / 4);
  });
});
