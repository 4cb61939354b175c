import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from './catalog.js';
import { parseToolsJsonl } from './importers/jsonl.js';
import { InMemoryLoadedToolStore } from './stores/in-memory-store.js';
import type { ToolSearchEvent } from './telemetry.js';
import { ToolSearchSession } from './tool-search-session.js';
import type { ToolDescriptor } from './types.js';

function tools(): ToolDescriptor[] {
  return [
    {
      id: 'get_weather',
      description: 'Get the current weather for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (input) => ({ forecast: 'sunny', input }),
    },
    {
      id: 'send_email',
      description: 'Send an email to a recipient.',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      execute: () => {
        throw new Error('SMTP unreachable');
      },
    },
    { id: 'github.create issue', description: 'Create a GitHub issue.', source: 'github' },
  ];
}

describe('ToolSearchSession', () => {
  it('emits typed telemetry for search, load, call, blocked and self-correction', async () => {
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({
      catalog: tools(),
      filter: ({ toolId, phase }) => !(toolId === 'send_email' && phase === 'call'),
      onEvent: (event) => events.push(event),
    });
    const request = { threadId: 't1' };
    let step = await session.prepareStep(request);
    await step.execute('search_tools', { query: 'weather' });
    await step.execute('load_tool', { toolNames: ['get_weather', 'send_email'] });
    await step.execute('get_weather', { city: 'Oslo' });
    step = await session.prepareStep(request);
    await step.execute('get_weather', { city: 'Oslo' });
    await step.execute('send_email', { to: 'a@b.c' });
    const types = events.map((event) => event.type);
    expect(types).toEqual(['step', 'search', 'load', 'self-correction', 'step', 'call', 'blocked', 'self-correction']);
    const search = events.find((event) => event.type === 'search');
    expect(search).toMatchObject({ query: 'weather', threadId: 't1', hits: [{ id: 'get_weather' }] });
    expect(search?.type === 'search' && search.latencyMs >= 0).toBe(true);
    expect(events.find((event) => event.type === 'blocked')).toMatchObject({
      toolId: 'send_email',
      phase: 'call',
      reason: 'denied',
    });
    expect(events[3]).toMatchObject({ kind: 'not-loaded', toolName: 'get_weather' });
  });

  it('reports a tool that throws as a tool error, never out of the loop', async () => {
    const session = new ToolSearchSession({ catalog: tools() });
    await (await session.prepareStep({ threadId: 't' })).execute('load_tool', { toolName: 'send_email' });
    const outcome = await (await session.prepareStep({ threadId: 't' })).execute('send_email', { to: 'x' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'execution-failed' } });
    expect(!outcome.ok && outcome.error.message).toContain('SMTP unreachable');
  });

  it('offers provider-safe names for ids that are not, and loads by them', async () => {
    const session = new ToolSearchSession({ catalog: tools() });
    const step = await session.prepareStep({ threadId: 't' });
    const found = await step.execute('search_tools', { query: 'create issue' });
    const name = (found.ok && (found.output as { results: { name: string }[] }).results[0]?.name) || '';
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(session.catalog.getByToolName(name)?.id).toBe('github.create issue');
    await step.execute('load_tool', { toolName: name });
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toEqual(['search_tools', 'load_tool', name]);
  });

  it('without a thread id, derives loaded tools from the request conversation only', async () => {
    const session = new ToolSearchSession({ catalog: tools() });
    const step = await session.prepareStep({});
    const loaded = await step.execute('load_tool', { toolName: 'get_weather' });
    expect((await session.prepareStep({})).toolNames).toEqual(['search_tools', 'load_tool']);
    const conversation = [
      { type: 'tool-result' as const, toolName: 'load_tool', output: loaded.ok ? loaded.output : null },
    ];
    expect((await session.prepareStep({ conversation })).toolNames).toEqual([
      'search_tools',
      'load_tool',
      'get_weather',
    ]);
    expect(session.memoryStore?.stats().threads).toBe(0);
  });

  it('shares loads between sessions through a shared store, and forgets them on clearState', async () => {
    const store = new InMemoryLoadedToolStore();
    const first = new ToolSearchSession({ catalog: tools(), state: store });
    const second = new ToolSearchSession({ catalog: tools(), state: store });
    await (await first.prepareStep({ threadId: 't', resourceId: 'u' })).execute('load_tool', {
      toolName: 'get_weather',
    });
    expect((await second.prepareStep({ threadId: 't', resourceId: 'u' })).toolNames).toContain('get_weather');
    expect((await second.prepareStep({ threadId: 't', resourceId: 'other' })).toolNames).not.toContain('get_weather');
    await second.clearState('t', 'u');
    expect((await first.prepareStep({ threadId: 't', resourceId: 'u' })).toolNames).not.toContain('get_weather');
  });

  it('follows the catalog: a removed tool is no longer offered, a replaced one is offered anew', async () => {
    const catalog = new ToolCatalog(tools());
    const session = new ToolSearchSession({ catalog });
    await (await session.prepareStep({ threadId: 't' })).execute('load_tool', {
      toolNames: ['get_weather', 'send_email'],
    });
    catalog.replace({ id: 'get_weather', description: 'Weather v2.' });
    catalog.remove('send_email');
    const step = await session.prepareStep({ threadId: 't' });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'get_weather']);
    expect(step.tools[2]?.description).toBe('Weather v2.');
    catalog.add({ id: 'pinned_tool', description: 'Always there.', pinned: true });
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toEqual([
      'search_tools',
      'load_tool',
      'pinned_tool',
      'get_weather',
    ]);
  });

  it('tells the model when the per-thread limit of loaded tools is reached, and loads nothing', async () => {
    const session = new ToolSearchSession({ catalog: tools(), memory: { maxToolsPerThread: 1 } });
    const step = await session.prepareStep({ threadId: 't' });
    const outcome = await step.execute('load_tool', { toolNames: ['get_weather', 'send_email'] });
    expect(outcome).toMatchObject({ ok: true, output: { success: false, loaded: [] } });
    expect(outcome.ok && (outcome.output as { message: string }).message).toMatch(/limit 1/);
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toEqual(['search_tools', 'load_tool']);
  });

  it('passes host data to tools, takes host-kept loaded tools, and can prepare a step quietly', async () => {
    const seen: unknown[] = [];
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({
      catalog: [{ id: 'get_weather', execute: (_input, context) => seen.push(context.host) }],
      onEvent: (event) => events.push(event),
    });
    const step = await session.prepareStep({ loaded: ['get_weather', 'no_longer_there'] }, { quiet: true });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'get_weather']);
    expect(events).toEqual([]);
    await step.execute('get_weather', {}, { host: { toolCallId: 'c1' } });
    expect(seen).toEqual([{ toolCallId: 'c1' }]);
  });

  it('never offers or finds a catalog tool added later under a meta-tool name', async () => {
    const catalog = new ToolCatalog(tools());
    const session = new ToolSearchSession({ catalog });
    catalog.add({ id: 'load_tool', description: 'Load the weather tool into the truck.', pinned: true });
    const step = await session.prepareStep({ threadId: 't' });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool']);
    const found = await step.execute('search_tools', { query: 'load truck' });
    expect(found.ok && (found.output as { results: unknown[] }).results).toEqual([]);
    const loaded = await step.execute('load_tool', { toolName: 'get_weather' });
    expect(loaded).toMatchObject({ ok: true, output: { loaded: ['get_weather'] } });
  });

  it('rejects bad options with specific errors', () => {
    expect(() => new ToolSearchSession({ catalog: tools(), mode: 'lazy' as never })).toThrow(/Unknown mode "lazy"/);
    expect(() => new ToolSearchSession({ catalog: tools(), search: { limit: 0 } })).toThrow(/search.limit/);
    expect(() => new ToolSearchSession({ catalog: tools(), state: 'redis' as never })).toThrow(/state must be/);
    expect(() => new ToolSearchSession({ catalog: [{ id: 'search_tools' }] })).toThrow(/like a meta-tool/);
    expect(() => new ToolSearchSession({ catalog: tools(), tools: [{ id: 'get_weather' }] })).toThrow(
      /both a direct tool/,
    );
  });

  it('answers malformed meta-tool calls with a tool error that names the field', async () => {
    const step = await new ToolSearchSession({ catalog: tools() }).prepareStep({ threadId: 't' });
    expect(await step.execute('search_tools', {})).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(await step.execute('search_tools', 'weather')).toMatchObject({ ok: false });
    expect(await step.execute('load_tool', {})).toMatchObject({ ok: false, error: { message: /toolName/ } });
    expect(await step.execute('load_tool', { toolNames: [1, 2] })).toMatchObject({
      ok: false,
      error: { issues: [{ path: 'toolNames' }] },
    });
  });

  it('cuts long descriptions in search results at a word boundary', async () => {
    const long = `Get the weather. ${'Very detailed explanation of the weather tool output. '.repeat(20)}`;
    const session = new ToolSearchSession({
      catalog: [{ id: 'get_weather', description: long }],
      descriptionBudget: 60,
    });
    const step = await session.prepareStep({ threadId: 't' });
    const outcome = await step.execute('search_tools', { query: 'weather' });
    const description =
      (outcome.ok && (outcome.output as { results: { description: string }[] }).results[0]?.description) || '';
    expect(description.length).toBeLessThanOrEqual(60);
    expect(description.endsWith('…')).toBe(true);
  });
});

const toolbench = fileURLToPath(new URL('../../../../shared/datasets/toolbench/tools.jsonl', import.meta.url));

describe.skipIf(!existsSync(toolbench))('tokens on the toolbench catalog', () => {
  it("offers under 1% of the whole catalog's tokens per step in search-load mode", async () => {
    const catalog = new ToolCatalog(parseToolsJsonl(readFileSync(toolbench, 'utf8'), { file: toolbench }));
    const session = new ToolSearchSession({ catalog });
    const request = { threadId: 'tokens' };
    let step = await session.prepareStep(request);
    const search = await step.execute('search_tools', { query: 'song lyrics by artist' });
    const names = search.ok ? (search.output as { results: { name: string }[] }).results.map((r) => r.name) : [];
    expect(names.length).toBeGreaterThan(0);
    await step.execute('load_tool', { toolNames: names.slice(0, 3) });
    step = await session.prepareStep(request);
    const report = await session.measureStep(step);
    expect(report.catalog.tools).toBe(2479);
    expect(report.offered.tools).toBe(2 + Math.min(3, names.length));
    expect(report.ratio).toBeLessThan(0.01);
    expect(report.savedTokens).toBeGreaterThan(100_000);
  });
});
