import { afterEach, describe, expect, it, vi } from 'vitest';
import { DuplicateToolError, InvalidArgumentError, InvalidToolError } from '../errors.js';
import { RequestToolPool } from '../index/request-tool-pool.js';
import type { ToolDescriptor } from '../types.js';
import type { PolicyRequest } from './policy.js';
import type { StepRequest, ToolCallOutcome } from './step-types.js';
import { ToolSearchSession } from './tool-search-session.js';

const catalog: ToolDescriptor[] = [
  { id: 'get_weather', description: 'Get the current weather for a city.', execute: () => 'catalog weather' },
  { id: 'send_email', description: 'Send an email to a recipient.', execute: () => 'sent' },
];

/** A request tool whose executor says whose it is. */
function issueTool(owner: string, description = 'Create an issue in the tracker.'): ToolDescriptor {
  return {
    id: 'create_issue',
    description,
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    execute: (input) => ({ owner, input }),
  };
}

function resultNames(outcome: ToolCallOutcome): string[] {
  return outcome.ok ? (outcome.output as { results: { name: string }[] }).results.map((result) => result.name) : [];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('request tools (StepRequest.tools)', () => {
  it('are searchable and loadable in their request, withheld until loaded, and run as given now', async () => {
    const session = new ToolSearchSession({ catalog });
    const request = (owner: string): StepRequest => ({ threadId: 't1', context: {}, tools: [issueTool(owner)] });
    let step = await session.prepareStep(request('first'));
    expect(step.toolNames).toEqual(['search_tools', 'load_tool']);
    expect(resultNames(await step.execute('search_tools', { query: 'create an issue' }))).toEqual(['create_issue']);
    expect(await step.execute('load_tool', { toolName: 'create_issue' })).toMatchObject({ loaded: ['create_issue'] });

    // The next request brings the "same" tool as a new closure: that one runs, never a cached one.
    step = await session.prepareStep(request('second'));
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'create_issue']);
    expect(await step.execute('create_issue', { title: 'Bug' })).toMatchObject({
      ok: true,
      output: { owner: 'second', input: { title: 'Bug' } },
    });
    expect(await step.execute('create_issue', {})).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
  });

  it('are read at every step: a list changed in place counts as changed', async () => {
    const session = new ToolSearchSession({ catalog });
    const tools: ToolDescriptor[] = [];
    const request = { threadId: 't1', tools };
    expect(resultNames(await (await session.prepareStep(request)).execute('search_tools', { query: 'issue' }))).toEqual(
      [],
    );
    tools.push(issueTool('ann'));
    const step = await session.prepareStep(request);
    expect(resultNames(await step.execute('search_tools', { query: 'issue' }))).toEqual(['create_issue']);
  });

  it('never leak into another request', async () => {
    const session = new ToolSearchSession({ catalog });
    const mine = await session.prepareStep({ threadId: 't1', tools: [issueTool('ann')] });
    await mine.execute('load_tool', { toolName: 'create_issue' });
    for (const other of [{ threadId: 't2' }, { threadId: 't2', tools: [] }, {}]) {
      const step = await session.prepareStep(other);
      expect(resultNames(await step.execute('search_tools', { query: 'create an issue' }))).toEqual([]);
      expect(await step.execute('load_tool', { toolName: 'create_issue' })).toMatchObject({
        output: { success: false, toolName: 'create_issue', message: expect.stringContaining('not found') },
      });
      expect(await step.execute('create_issue', { title: 'x' })).toMatchObject({ error: { code: 'unknown-tool' } });
      expect((await session.search('issue', other)).map((hit) => hit.tool.id)).toEqual([]);
    }
    // The same thread without the tool in its request: loaded, but not offered (it is not there).
    expect((await session.prepareStep({ threadId: 't1' })).toolNames).toEqual(['search_tools', 'load_tool']);
  });

  it('replace a catalog tool of the same id for their request only', async () => {
    const session = new ToolSearchSession({ catalog });
    const own: ToolDescriptor = {
      id: 'get_weather',
      description: 'Weather from the user station.',
      execute: () => 'own',
    };
    const request = { threadId: 't1', context: {}, tools: [own] };
    let step = await session.prepareStep(request);
    const found = await step.execute('search_tools', { query: 'weather' });
    expect(found.ok && (found.output as { results: unknown[] }).results).toEqual([
      { name: 'get_weather', description: 'Weather from the user station.', score: expect.any(Number) },
    ]);
    await step.execute('load_tool', { toolName: 'get_weather' });
    step = await session.prepareStep(request);
    expect(step.tools.find((tool) => tool.name === 'get_weather')?.description).toBe('Weather from the user station.');
    expect(await step.execute('get_weather', {})).toMatchObject({ output: 'own' });
    // Without it, the thread's loaded get_weather is the catalog's again.
    step = await session.prepareStep({ threadId: 't1' });
    expect(await step.execute('get_weather', {})).toMatchObject({ output: 'catalog weather' });
  });

  it('are asked of the policy like catalog tools', async () => {
    const asked: PolicyRequest[] = [];
    const session = new ToolSearchSession({
      catalog,
      filter: (ask) => {
        asked.push(ask);
        return !(ask.toolId === 'create_issue' && ask.phase === 'search');
      },
    });
    const request = { threadId: 't1', tools: [issueTool('ann')] };
    const step = await session.prepareStep(request);
    expect(resultNames(await step.execute('search_tools', { query: 'create an issue' }))).toEqual([]);
    expect(asked.some((ask) => ask.toolId === 'create_issue' && ask.phase === 'search')).toBe(true);
    const callRefused = new ToolSearchSession({ catalog, filter: (ask) => ask.phase !== 'call' });
    await (await callRefused.prepareStep(request)).execute('load_tool', { toolName: 'create_issue' });
    const later = await callRefused.prepareStep(request);
    expect(later.toolNames).toContain('create_issue');
    expect(await later.execute('create_issue', { title: 'x' })).toMatchObject({ ok: false });
  });

  it('resolve loads from the conversation and from StepRequest.loaded against the request', async () => {
    const session = new ToolSearchSession({ catalog, state: 'conversation' });
    const tools = [issueTool('ann')];
    const conversation = [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'create_issue' } },
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'load_tool',
        output: { success: true, loaded: ['create_issue'], alreadyLoaded: [], notFound: [] },
      },
    ] as const;
    expect((await session.prepareStep({ conversation, tools })).toolNames).toContain('create_issue');
    expect((await session.prepareStep({ conversation })).toolNames).not.toContain('create_issue');
    expect((await session.prepareStep({ loaded: ['create_issue'], tools })).toolNames).toContain('create_issue');
    expect((await session.prepareStep({ loaded: ['create_issue'] })).toolNames).not.toContain('create_issue');
  });

  it('leave out tools named like a direct tool or a meta-tool, and suggest request tools', async () => {
    const session = new ToolSearchSession({
      catalog,
      tools: [{ id: 'save_note', description: 'Save a note.', execute: () => 'direct' }],
    });
    const tools: ToolDescriptor[] = [
      { id: 'save_note', description: 'A request note tool.', execute: () => 'request' },
      { id: 'search_tools', description: 'An impostor search.' },
      issueTool('ann'),
    ];
    const step = await session.prepareStep({ threadId: 't1', tools });
    expect(await step.execute('save_note', {})).toMatchObject({ output: 'direct' });
    expect(resultNames(await step.execute('search_tools', { query: 'impostor note' }))).toEqual([]);
    const miss = await step.execute('create_isue', {});
    expect(miss).toMatchObject({ ok: false, error: { code: 'unknown-tool', suggestions: ['create_issue'] } });
  });

  it('are checked: an iterable of valid descriptors with distinct ids', async () => {
    const session = new ToolSearchSession({ catalog });
    await expect(session.prepareStep({ tools: 42 as never })).rejects.toThrow(InvalidArgumentError);
    await expect(session.prepareStep({ tools: [{ id: '' }] })).rejects.toThrow(/request\.tools\[0\]/);
    await expect(session.prepareStep({ tools: [{ id: 'a', execute: 1 as never }] })).rejects.toThrow(InvalidToolError);
    await expect(session.prepareStep({ tools: [issueTool('a'), issueTool('b')] })).rejects.toThrow(DuplicateToolError);
  });

  it('are indexed once per fingerprint, never rebuilt per step (1,000 tools)', async () => {
    const admit = vi.spyOn(RequestToolPool.prototype, 'admit');
    const session = new ToolSearchSession({ catalog });
    const make = () =>
      Array.from({ length: 1_000 }, (_, i) => ({
        id: `connector_${i}`,
        description: `Operation ${i} of connector ${i % 37}: ${i % 2 === 0 ? 'reads' : 'writes'} records.`,
        inputSchema: { type: 'object', properties: { [`field_${i}`]: { type: 'string' } } },
        execute: () => i,
      }));
    const pool = () => admit.mock.contexts[0] as RequestToolPool;
    const timeStep = async (tools: ToolDescriptor[]) => {
      const started = performance.now();
      const step = await session.prepareStep({ threadId: 't1', tools });
      await step.execute('search_tools', { query: 'connector 12 writes records' });
      return performance.now() - started;
    };
    const first = await timeStep(make());
    expect(pool().indexedCount).toBe(1_000);
    // New descriptor objects with the same text: fingerprints match, nothing is indexed again.
    const same = make();
    const copies = await timeStep(same);
    const warmCopies = await timeStep(make());
    // The same list again: each descriptor is known, a lookup each.
    const sameList = await timeStep(same);
    expect(pool().indexedCount).toBe(1_000);
    // One changed tool: one entry indexed.
    const changed = make();
    changed[5] = { ...changed[5]!, description: 'Operation five, now with a new description.' };
    await timeStep(changed);
    expect(pool().indexedCount).toBe(1_001);
    console.log(
      `request tools: a step with 1,000 request tools (prepare + search): first (indexes them) ${first.toFixed(1)} ms, ` +
        `new copies ${copies.toFixed(1)} ms then ${warmCopies.toFixed(1)} ms, the same list ${sameList.toFixed(1)} ms`,
    );
  });
});

describe('RequestToolPool', () => {
  const entry = (id: string, description: string) => {
    const session = new ToolSearchSession({ catalog: [{ id, description }] });
    return session.catalog.get(id)!;
  };

  it('keeps at most max keys, never those of the batch being admitted; evicted keys leave the index', async () => {
    const pool = new RequestToolPool(2);
    const a = entry('alpha', 'Alpha weather station.');
    const b = entry('bravo', 'Bravo weather station.');
    const c = entry('charlie', 'Charlie weather station.');
    pool.admit(new Map([['a', a]]));
    pool.admit(new Map([['b', b]]));
    pool.admit(new Map([['c', c]]));
    expect(pool.size).toBe(2);
    const all = { limit: 10, filter: () => true };
    expect((await pool.search('weather station', all)).map((hit) => hit.key).sort()).toEqual(['b', 'c']);
    // A batch larger than the cap stays whole until the next batch.
    pool.admit(
      new Map([
        ['a', a],
        ['b', b],
        ['c', c],
      ]),
    );
    expect(pool.size).toBe(3);
    pool.admit(new Map([['a', a]]));
    expect(pool.size).toBe(2);
    expect(pool.indexedCount).toBe(4);
  });

  it('rejects a cap that is not a positive integer', () => {
    expect(() => new RequestToolPool(0)).toThrow(/requestTools\.maxIndexed/);
  });
});
