// The meta-tools' results in Mastra's shapes and words (issue #15 items 5 and 6): what a Mastra user's
// prompts, evaluations and `if (result.notFound)` checks rely on.
import { describe, expect, it } from 'vitest';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import type { ToolDescriptor } from '../types.js';
import type { ToolSearchSessionOptions } from './session-options.js';
import { ToolSearchSession } from './tool-search-session.js';

function tools(): ToolDescriptor[] {
  return [
    { id: 'get_weather', description: 'Get the current weather for a city.', execute: () => 'sunny' },
    { id: 'get_forecast', description: 'Get a multi-day weather forecast for a city.' },
    { id: 'send_email', description: 'Send an email to a recipient.' },
    { id: 'get_time', description: 'Get the current time in a time zone.', pinned: true },
  ];
}

async function stepOf(options: Partial<ToolSearchSessionOptions> = {}) {
  const session = new ToolSearchSession({ catalog: tools(), ...options });
  return { session, step: await session.prepareStep({ threadId: 't' }) };
}

describe('search_tools results', () => {
  it('lists hits as { results: [{ name, description, score }], message } with Mastra’s message', async () => {
    const { step } = await stepOf();
    const outcome = await step.execute('search_tools', { query: 'weather forecast' });
    expect(outcome.ok).toBe(true);
    const output = (outcome as { output: { results: Record<string, unknown>[]; message: string } }).output;
    expect(Object.keys(output)).toEqual(['results', 'message']);
    expect(Object.keys(output.results[0]!)).toEqual(['name', 'description', 'score']);
    expect(output.message).toBe(
      `Found ${output.results.length} tool(s). Use load_tool with an exact toolName or a toolNames array to make them available.`,
    );
  });

  it('names the configured load tool in its message', async () => {
    const { step } = await stepOf({ metaTools: { load: { name: 'enable_tool' } } });
    const outcome = await step.execute('search_tools', { query: 'weather' });
    expect(outcome).toMatchObject({ ok: true, output: { message: expect.stringContaining('Use enable_tool with') } });
  });

  it('answers an empty or blank query with no hits and Mastra’s message, as a result', async () => {
    const { step } = await stepOf();
    for (const query of ['', '   ']) {
      expect(await step.execute('search_tools', { query })).toEqual({
        ok: true,
        output: { results: [], message: 'No tools found matching "". Try different keywords.' },
      });
    }
  });

  it('still refuses a missing or non-string query, as Mastra’s input schema does', async () => {
    const { step } = await stepOf();
    expect(await step.execute('search_tools', {})).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(await step.execute('search_tools', { query: 3 })).toMatchObject({
      ok: false,
      error: { issues: [{ path: 'query' }] },
    });
  });

  it('cuts descriptions at 150 characters by default, at a word boundary', async () => {
    const description = `Get the weather. ${'A very detailed account of what the tool returns and when. '.repeat(8)}`;
    const session = new ToolSearchSession({ catalog: [{ id: 'get_weather', description }] });
    const step = await session.prepareStep({ threadId: 't' });
    const outcome = await step.execute('search_tools', { query: 'weather' });
    const text = (outcome as { output: { results: { description: string }[] } }).output.results[0]!.description;
    expect(text.length).toBeLessThanOrEqual(150);
    expect(text.length).toBeGreaterThan(120);
    expect(text.endsWith('…')).toBe(true);
    expect(description.startsWith(text.slice(0, -1))).toBe(true);
  });

  it('auto-load: Mastra’s message, and no `loaded` field when every hit was loaded', async () => {
    const { session, step } = await stepOf({ mode: 'auto-load', search: { limit: 2 } });
    const outcome = await step.execute('search_tools', { query: 'weather forecast' });
    expect(outcome).toMatchObject({ ok: true, loaded: ['get_forecast', 'get_weather'] });
    const output = (outcome as { output: Record<string, unknown> }).output;
    expect(Object.keys(output)).toEqual(['results', 'message']);
    expect(output.message).toBe(
      'Found and loaded 2 tool(s): get_forecast, get_weather. They are available on your next turn — call them directly.',
    );
    // Searched again at the next step: all of them were loaded before.
    const next = await session.prepareStep({ threadId: 't' });
    const again = await next.execute('search_tools', { query: 'weather forecast' });
    expect(again).toMatchObject({
      output: { message: expect.stringMatching(/call them directly\. Some were already loaded\.$/) },
    });
    expect(again).not.toHaveProperty('output.loaded');
  });

  it('auto-load: a `loaded` field lists the hits that were loaded when some were refused', async () => {
    const { step } = await stepOf({
      mode: 'auto-load',
      search: { limit: 2 },
      filter: ({ toolId, phase }) => !(toolId === 'get_forecast' && phase === 'load'),
    });
    const outcome = await step.execute('search_tools', { query: 'weather forecast' });
    const output = (outcome as { output: { results: { name: string }[]; loaded: string[]; message: string } }).output;
    expect(output.results.map((result) => result.name)).toEqual(['get_forecast', 'get_weather']);
    expect(output.loaded).toEqual(['get_weather']);
    expect(output.message).toContain('Found and loaded 1 tool(s): get_weather.');
  });

  it('auto-load: an empty `loaded` field when the thread’s limit refused every hit', async () => {
    const store = new InMemoryLoadedToolStore({ maxToolsPerThread: 1 });
    const { step } = await stepOf({ mode: 'auto-load', search: { limit: 2 }, state: store });
    const outcome = await step.execute('search_tools', { query: 'weather forecast' });
    expect(outcome).toMatchObject({ ok: true, output: { loaded: [] } });
    expect(outcome).toMatchObject({ output: { message: expect.stringContaining('Too many tools are loaded') } });
  });
});

describe('load_tool results', () => {
  it('single form { success, message, toolName } with Mastra’s three sentences', async () => {
    const { step } = await stepOf();
    expect(await step.execute('load_tool', { toolName: 'get_weather' })).toEqual({
      ok: true,
      loaded: ['get_weather'],
      output: {
        success: true,
        message: 'Tool "get_weather" loaded successfully. It will be available on your next turn.',
        toolName: 'get_weather',
      },
    });
    expect(await step.execute('load_tool', { toolName: 'get_weather' })).toEqual({
      ok: true,
      output: {
        success: true,
        message: 'Tool "get_weather" is already loaded and available.',
        toolName: 'get_weather',
      },
    });
    // Pinned tools are always available.
    expect(await step.execute('load_tool', { toolName: 'get_time' })).toMatchObject({
      output: { success: true, toolName: 'get_time' },
    });
    expect(await step.execute('load_tool', { toolName: 'get_wether' })).toEqual({
      ok: true,
      output: {
        success: false,
        message: expect.stringMatching(/^Tool "get_wether" not found\. Did you mean: .*get_weather.*\?$/),
        toolName: 'get_wether',
      },
    });
    expect(await step.execute('load_tool', { toolName: 'zzzz' })).toEqual({
      ok: true,
      output: {
        success: false,
        message: 'Tool "zzzz" not found. Use search_tools to find available tools.',
        toolName: 'zzzz',
      },
    });
  });

  it('list form: empty lists left out, Mastra’s parts joined by " | "', async () => {
    const { step } = await stepOf();
    expect(await step.execute('load_tool', { toolNames: ['get_weather'] })).toEqual({
      ok: true,
      loaded: ['get_weather'],
      output: {
        success: true,
        message: 'Loaded: get_weather — available on your next turn',
        loadedCount: 1,
        loaded: ['get_weather'],
      },
    });
    const outcome = await step.execute('load_tool', { toolNames: ['send_email', 'get_weather', 'zzzz', 'yyyy'] });
    expect(outcome).toEqual({
      ok: true,
      loaded: ['send_email'],
      output: {
        success: false,
        message:
          'Loaded: send_email — available on your next turn | Already loaded: get_weather | Not found: zzzz, yyyy',
        loadedCount: 1,
        loaded: ['send_email'],
        notFound: ['zzzz', 'yyyy'],
        alreadyLoaded: ['get_weather'],
      },
    });
    const none = await step.execute('load_tool', { toolNames: ['get_weather'] });
    expect(none).toEqual({
      ok: true,
      output: { success: true, message: 'Already loaded: get_weather', loadedCount: 0, alreadyLoaded: ['get_weather'] },
    });
    // `if (result.notFound)` means some were not found.
    expect((none as { output: Record<string, unknown> }).output.notFound).toBeUndefined();
  });

  it('answers the model’s empty calls with { success: false, message }, never an error', async () => {
    const { step } = await stepOf();
    expect(await step.execute('load_tool', { toolNames: [] })).toEqual({
      ok: true,
      output: { success: false, message: 'toolNames array must not be empty.' },
    });
    for (const input of [{}, undefined, { toolName: '  ' }]) {
      expect(await step.execute('load_tool', input)).toEqual({
        ok: true,
        output: {
          success: false,
          message: 'You must provide either toolName (string) or toolNames (array) to load.',
        },
      });
    }
    // An empty list with a toolName loads that name, in the list form.
    expect(await step.execute('load_tool', { toolNames: [], toolName: 'get_weather' })).toMatchObject({
      ok: true,
      output: { success: true, loadedCount: 1, loaded: ['get_weather'] },
    });
  });

  it('still refuses arguments of the wrong type or size, as Mastra does', async () => {
    const { step } = await stepOf();
    for (const input of [
      { toolNames: 'get_weather' },
      { toolNames: [1] },
      { toolName: 7 },
      { toolName: 'x'.repeat(2_000) },
      { toolNames: Array.from({ length: 500 }, (_, at) => `t${at}`) },
    ]) {
      expect(await step.execute('load_tool', input), JSON.stringify(input).slice(0, 40)).toMatchObject({
        ok: false,
        error: { code: 'invalid-arguments' },
      });
    }
  });
});

describe('catalog mode results', () => {
  it('leaves empty lists out of discovery results too', async () => {
    const { step } = await stepOf({ mode: 'catalog' });
    const outcome = await step.execute('discover_tools', { toolNames: ['get_weather'] });
    const output = (outcome as { output: Record<string, unknown> }).output;
    expect(output).toMatchObject({
      loaded: ['get_weather'],
      message: 'Discovered 1 tool(s) — available on your next turn',
    });
    expect(Object.keys(output)).toEqual(['tools', 'message', 'loaded']);
    const missing = await step.execute('discover_tools', { toolNames: ['zzzz'] });
    expect((missing as { output: Record<string, unknown> }).output).toEqual({
      tools: [],
      message: 'Discovered 0 tool(s) — available on your next turn | Not found: zzzz',
      notFound: ['zzzz'],
    });
  });
});
