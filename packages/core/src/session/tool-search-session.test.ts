import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { parseToolsJsonl } from '../importers/jsonl.js';
import { ToolIndex } from '../index/tool-index.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import type { SearchHit, SearchOptions, ToolDescriptor } from '../types.js';
import type { PolicyFilter, PolicyPhase } from './policy.js';
import type { ToolCallOutcome } from './step-types.js';
import type { ToolSearchEvent } from './telemetry.js';
import { ToolSearchSession } from './tool-search-session.js';
import type { ToolSearchStep } from './tool-search-step.js';

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

  it('refuses loads past the cap where loads are read back from the conversation, as a store would', async () => {
    const catalog = Array.from({ length: 300 }, (_, i) => ({ id: `tool_${i}`, description: `Tool number ${i}.` }));
    const session = new ToolSearchSession({ catalog, state: 'conversation' });
    const conversation: { type: 'tool-result'; toolName: string; output: unknown }[] = [];
    const outputs: unknown[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const step = await session.prepareStep({ threadId: 't', conversation });
      const toolNames = catalog.slice(batch * 50, batch * 50 + 50).map((tool) => tool.id);
      const result = await step.execute('load_tool', { toolNames });
      outputs.push(result.ok ? result.output : result);
      conversation.push({ type: 'tool-result', toolName: 'load_tool', output: result.ok ? result.output : null });
    }
    // Five batches make 250 tools; the sixth would make 300, over the 256 a thread may hold.
    expect(outputs[4]).toMatchObject({ loaded: expect.arrayContaining(['tool_249']) });
    // Mastra's list form leaves out empty lists: nothing was loaded.
    expect(outputs[5]).toMatchObject({ success: false, loadedCount: 0 });
    expect(outputs[5]).not.toHaveProperty('loaded');
    expect(JSON.stringify(outputs[5])).toContain('Too many tools are loaded in this conversation (limit 256)');
    const offered = (await session.prepareStep({ threadId: 't', conversation })).toolNames;
    expect(offered).toHaveLength(2 + 250);
    expect(offered).not.toContain('tool_250');
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
    expect(outcome).toMatchObject({ ok: true, output: { success: false, loadedCount: 0 } });
    expect(outcome).not.toHaveProperty('output.loaded');
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
    expect(loaded).toMatchObject({
      ok: true,
      loaded: ['get_weather'],
      output: { success: true, toolName: 'get_weather' },
    });
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
    expect(await step.execute('load_tool', { toolName: 7 })).toMatchObject({
      ok: false,
      error: { message: /toolName/ },
    });
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

const toolbench = fileURLToPath(new URL('../../../../../shared/datasets/toolbench/tools.jsonl', import.meta.url));

if (!existsSync(toolbench))
  console.info(
    `tokens on the toolbench catalog skipped: ${toolbench} is absent (shared/ must sit beside the repository)`,
  );
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

/** A ToolIndex that records the length of every query it is asked, to count the work a name causes. */
class CountingIndex<TTool> extends ToolIndex<TTool> {
  readonly queryLengths: number[] = [];
  override search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    this.queryLengths.push(query.length);
    return super.search(query, options);
  }
}

/** Made-up words (a vocabulary of thousands, as a real catalog has), deterministic. */
function word(n: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pe', 'dra', 'gen', 'tor'];
  let text = '';
  let rest = n;
  do {
    text += syllables[rest % syllables.length];
    rest = Math.floor(rest / syllables.length);
  } while (rest > 0);
  return text;
}

function largeCatalog(size: number): ToolDescriptor[] {
  return Array.from({ length: size }, (_, i) => ({
    id: `${word(i)}_${word(i * 7 + 3)}`,
    description: Array.from({ length: 10 }, (_, k) => word((i * 31 + k * 131) % 6000)).join(' '),
  }));
}

/** About 1 MB of six-letter lower-case words no tool has. */
function hugeName(length = 1_048_576): string {
  let seed = 7;
  let text = '';
  while (text.length < length) {
    for (let k = 0; k < 6; k++) {
      seed = (seed * 16_807) % 2_147_483_647;
      text += String.fromCharCode(97 + (seed % 26));
    }
    text += ' ';
  }
  return text.slice(0, length);
}

function messageOf(outcome: ToolCallOutcome): string {
  return outcome.ok ? JSON.stringify(outcome.output) : outcome.error.message;
}

describe('names the model sends are bounded', () => {
  it('answers a 1 MB unknown tool name on 10,000 tools quickly, searching and echoing only its start', async () => {
    const catalog = new ToolCatalog(largeCatalog(10_000));
    const index = new CountingIndex(catalog);
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({ catalog, index, onEvent: (event) => events.push(event) });
    const step = await session.prepareStep({ threadId: 't' });
    const name = hugeName();
    const started = performance.now();
    const direct = await step.execute(name, {});
    const loaded = await step.execute('load_tool', { toolName: name });
    // A generous guard against the blow-up (seconds before); the work is counted below.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(index.queryLengths.every((length) => length <= 200)).toBe(true);
    for (const outcome of [direct, loaded]) {
      const message = messageOf(outcome);
      expect(message.length).toBeLessThan(1_000);
      expect(message).toContain(`${name.slice(0, 50)}`);
      expect(message).toContain('… (1048576 characters)');
      expect(message).toMatch(/at most 1000 characters/);
    }
    expect(direct).toMatchObject({ ok: false, error: { code: 'unknown-tool' } });
    expect(!direct.ok && direct.error.toolName.length).toBeLessThan(300);
    expect(loaded).toMatchObject({ ok: false, error: { code: 'invalid-arguments', issues: [{ path: 'toolName' }] } });
    expect(JSON.stringify(events).length).toBeLessThan(10_000);
  });

  it('cuts what it echoes of a long unknown name, and suggests from its start', async () => {
    const catalog = new ToolCatalog(tools());
    const index = new CountingIndex(catalog);
    const step = await new ToolSearchSession({ catalog, index }).prepareStep({ threadId: 't' });
    const name = `get_weather ${'x'.repeat(500)}`;
    const outcome = await step.execute(name, {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown-tool', suggestions: ['get_weather'] } });
    expect(messageOf(outcome)).toContain(`${name.slice(0, 200)}… (512 characters)`);
    expect(messageOf(outcome)).not.toContain(name.slice(0, 201));
    expect(index.queryLengths).toEqual([200]);
  });

  it('rejects a huge name or too many names in every meta-tool that takes names, saying what to do', async () => {
    const name = hugeName(100_000);
    const proxy = await new ToolSearchSession({ catalog: tools(), mode: 'proxy' }).prepareStep({ threadId: 't' });
    const catalogMode = await new ToolSearchSession({ catalog: tools(), mode: 'catalog' }).prepareStep({});
    const searchLoad = await new ToolSearchSession({ catalog: tools() }).prepareStep({ threadId: 't' });
    const cases: [ToolSearchStep, string, unknown, string][] = [
      [proxy, 'describe_tool', { toolName: name }, 'toolName'],
      [proxy, 'call_tool', { toolName: name, arguments: {} }, 'toolName'],
      [catalogMode, 'discover_tools', { toolNames: ['get_weather', name] }, 'toolNames[1]'],
      [searchLoad, 'load_tool', { toolNames: ['get_weather', name] }, 'toolNames[1]'],
    ];
    for (const [step, meta, input, path] of cases) {
      const outcome = await step.execute(meta, input);
      expect(outcome, meta).toMatchObject({ ok: false, error: { code: 'invalid-arguments', issues: [{ path }] } });
      expect(messageOf(outcome), meta).toMatch(/at most 1000 characters.*\(100000 characters\)/);
      expect(messageOf(outcome).length, meta).toBeLessThan(1_000);
    }
    const many = Array.from({ length: 1_000_000 }, (_, i) => `tool_${i}`);
    const outcome = await searchLoad.execute('load_tool', { toolNames: many });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid-arguments', issues: [{ path: 'toolNames' }] } });
    expect(messageOf(outcome)).toMatch(/At most 50 tool names per call; got 1000000\./);
  });

  it('quotes at most ten argument issues, each path cut, however many and however long the arguments', async () => {
    const step = await new ToolSearchSession({
      catalog: [
        {
          id: 'get_weather',
          inputSchema: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
          execute: () => 'sunny',
        },
      ],
      mode: 'proxy',
    }).prepareStep({});
    const manyKeys = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key_${i}`, i]));
    for (const args of [{ city: 'Oslo', ['k'.repeat(1_000_000)]: 1 }, manyKeys]) {
      const outcome = await step.execute('call_tool', { toolName: 'get_weather', arguments: args });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
      const error = !outcome.ok ? outcome.error : undefined;
      expect(JSON.stringify(error).length).toBeLessThan(5_000);
      expect(error?.issues?.length).toBeLessThanOrEqual(10);
    }
    const outcome = await step.execute('call_tool', { toolName: 'get_weather', arguments: manyKeys });
    expect(messageOf(outcome)).toMatch(/and \d+ more issue\(s\)\. Fix these fields/);
    // A validator's message that ends a sentence itself does not make two full stops.
    const wrongType = await step.execute('call_tool', { toolName: 'get_weather', arguments: { city: 5 } });
    expect(messageOf(wrongType)).toMatch(/Expected "string"\. Fix these fields/);
    expect(messageOf(wrongType)).not.toMatch(/\.\./);
  });

  it('searches and echoes at most 2,000 characters of a query, from any caller', async () => {
    const catalog = new ToolCatalog(tools());
    const index = new CountingIndex(catalog);
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({ catalog, index, onEvent: (event) => events.push(event) });
    const query = hugeName(50_000);
    await session.search(query);
    const outcome = await (await session.prepareStep({})).execute('search_tools', { query });
    expect(index.queryLengths).toEqual([2_000, 2_000]);
    expect(events.filter((event) => event.type === 'search').map((event) => event.query.length)).toEqual([
      2_000, 2_000,
    ]);
    expect(messageOf(outcome).length).toBeLessThan(500);
  });
});

/** Resolves to `'hung'` when `promise` is still pending after `ms`: a guard that turns a hang into a failure. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<'hung'>((resolve) => {
    timer = setTimeout(resolve, ms, 'hung');
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

describe('the policy in every phase and mode', () => {
  const hangIn =
    (phase: PolicyPhase, toolId = 'get_weather'): PolicyFilter =>
    (request) =>
      request.phase === phase && request.toolId === toolId ? new Promise<boolean>(() => {}) : true;

  it('fails closed, promptly, when the filter never answers, in each phase', async () => {
    const cases: [PolicyPhase, (session: ToolSearchSession) => Promise<unknown>][] = [
      ['search', async (session) => (await session.search('weather city')).map((hit) => hit.tool.id)],
      [
        'load',
        async (session) =>
          (await session.prepareStep({ threadId: 't' })).execute('load_tool', { toolName: 'get_weather' }),
      ],
      ['active', async (session) => (await session.prepareStep({ threadId: 't', loaded: ['get_weather'] })).toolNames],
      [
        'call',
        async (session) =>
          (await session.prepareStep({ threadId: 't', loaded: ['get_weather'] })).execute('get_weather', {
            city: 'Oslo',
          }),
      ],
    ];
    const expected = {
      search: [],
      load: { ok: true, output: { success: false, toolName: 'get_weather' } },
      active: ['search_tools', 'load_tool'],
      call: { ok: false, error: { code: 'unknown-tool', message: /^Tool "get_weather" is not available\./ } },
    };
    for (const [phase, run] of cases) {
      const events: ToolSearchEvent[] = [];
      const session = new ToolSearchSession({
        catalog: tools(),
        filter: hangIn(phase),
        filterTimeoutMs: 50,
        onEvent: (event) => events.push(event),
      });
      const result = await within(run(session), 2_000);
      expect(result, phase).toMatchObject(expected[phase]);
      expect(
        events.find((event) => event.type === 'blocked'),
        phase,
      ).toMatchObject({ toolId: 'get_weather', phase, reason: 'filter-timeout' });
    }
  });

  it('waits for a filter that never answers once per operation, not once per tool', async () => {
    let asked = 0;
    const session = new ToolSearchSession({
      catalog: largeCatalog(2_000),
      search: { limit: 3 },
      filterTimeoutMs: 50,
      filter: () => {
        asked++;
        return new Promise<boolean>(() => {});
      },
    });
    const query = Array.from({ length: 40 }, (_, i) => word(i)).join(' ');
    // (a guard against a hang, far above the quarter second it takes: a loaded machine once took 2 s)
    expect(await within(session.search(query), 10_000)).toEqual([]);
    expect(asked).toBe(3); // the first batch; every later candidate is refused without asking
  });

  it('in proxy mode, describe_tool and call_tool ask load, active and call; a refusal reads like no tool', async () => {
    const asked: string[] = [];
    const ran: unknown[] = [];
    const catalog = [{ ...tools()[0]!, execute: (input: unknown) => ran.push(input) }];
    for (const denied of ['load', 'active', 'call'] as const) {
      asked.length = 0;
      const session = new ToolSearchSession({
        catalog,
        mode: 'proxy',
        filter: ({ phase }) => {
          asked.push(phase);
          return phase !== denied;
        },
      });
      const step = await session.prepareStep({ threadId: 't' });
      const described = await step.execute('describe_tool', { toolName: 'get_weather' });
      const called = await step.execute('call_tool', { toolName: 'get_weather', arguments: { city: 'Oslo' } });
      expect(asked, denied).toContain(denied);
      expect(called, denied).toMatchObject({ ok: false, error: { code: 'unknown-tool' } });
      expect(messageOf(called), denied).toBe(
        'Tool "get_weather" is not available. Use search_tools to find available tools.',
      );
      expect(described.ok, denied).toBe(denied === 'call');
    }
    expect(ran).toEqual([]);
  });

  it('never suggests a refused tool for its own name, nor sends the model to load a tool it may not be offered', async () => {
    const step = await new ToolSearchSession({
      catalog: tools(),
      filter: ({ toolId, phase }) => !(toolId === 'get_weather' && phase === 'active'),
    }).prepareStep({ threadId: 't' });
    const outcome = await step.execute('get_weather', { city: 'Oslo' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown-tool', suggestions: [] } });
    expect(messageOf(outcome)).toBe('Tool "get_weather" is not available. Use search_tools to find available tools.');
  });

  it('rejects a filter timeout that is not a number of milliseconds a timer can wait', () => {
    for (const filterTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5000' as never]) {
      expect(() => new ToolSearchSession({ catalog: tools(), filterTimeoutMs }), String(filterTimeoutMs)).toThrow(
        expect.objectContaining({ code: 'invalid-option', option: 'filterTimeoutMs' }),
      );
    }
  });
});
