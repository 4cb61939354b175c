import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import { rejection } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import type { ToolSearchMode } from './meta-tools.js';
import { RecentByThread } from './recent-by-thread.js';
import { stepRequestProblem } from './step-request.js';
import type { ToolSearchEvent } from './telemetry.js';
import { threadKey } from './thread-key.js';
import { ToolSearchSession } from './tool-search-session.js';

function catalog(): ToolDescriptor[] {
  return [
    { id: 'get_weather', description: 'Get the current weather for a city.', execute: () => 'sunny' },
    { id: 'send_email', description: 'Send an email to a recipient.', execute: () => 'sent' },
    { id: 'create_issue', description: 'Create a GitHub issue.', execute: () => 'created' },
  ];
}

describe('the state a host hands to core', () => {
  it('a meta-tool call reports the tools it newly loaded; a repeat load reports none', async () => {
    const session = new ToolSearchSession({ catalog: catalog(), state: 'conversation' });
    const step = await session.prepareStep({ threadId: 't' });
    const first = await step.execute('load_tool', { toolNames: ['get_weather', 'send_email', 'nope'] });
    expect(first).toMatchObject({ ok: true, loaded: ['get_weather', 'send_email'] });
    const again = await step.execute('load_tool', { toolName: 'get_weather' });
    expect(again.ok && again.loaded).toBeUndefined();
    const search = await step.execute('search_tools', { query: 'weather' });
    expect(search.ok && search.loaded).toBeUndefined();
    const call = await (await session.prepareStep({ loaded: ['get_weather'] })).execute('get_weather', {});
    expect(call).toMatchObject({ ok: true, output: 'sunny', toolId: 'get_weather' });
    expect(call.ok && call.loaded).toBeUndefined();
  });

  it('auto-load search and discovery report their loads too', async () => {
    const auto = new ToolSearchSession({ catalog: catalog(), mode: 'auto-load' });
    const found = await (await auto.prepareStep()).execute('search_tools', { query: 'weather city' });
    expect(found).toMatchObject({ ok: true, loaded: ['get_weather'] });
    const lazy = new ToolSearchSession({ catalog: catalog(), mode: 'catalog' });
    const step = await lazy.prepareStep();
    const discover = step.tools.find((tool) => tool.role === 'discover')?.name ?? '';
    expect(await step.execute(discover, { toolNames: ['create_issue'] })).toMatchObject({
      ok: true,
      loaded: ['create_issue'],
    });
  });

  it('a host that keeps loaded tools itself gets them offered, and adds what outcomes report', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    let kept: string[] = [];
    const step = await session.prepareStep({ threadId: 't', loaded: kept });
    const outcome = await step.execute('load_tool', { toolName: 'send_email' });
    if (outcome.ok && outcome.loaded) kept = [...kept, ...outcome.loaded];
    const next = await session.prepareStep({ threadId: 't', loaded: kept });
    expect(next.toolNames).toEqual(['search_tools', 'load_tool', 'send_email']);
  });

  it('a host reads the direct tools as the session checked and named them', () => {
    const session = new ToolSearchSession({
      catalog: catalog(),
      tools: [{ id: 'my.notes', description: 'Read my notes.', inputSchema: { type: 'object' } }],
    });
    expect(session.directTools.map((tool) => [tool.id, tool.toolName])).toEqual([
      ['my.notes', expect.stringMatching(/^my_notes/)],
    ]);
    expect(session.directTools[0]?.jsonSchema).toMatchObject({ type: 'object' });
    expect(Object.isFrozen(session.directTools)).toBe(true);
    expect(Object.isFrozen(session.directTools[0])).toBe(true);
    expect(new ToolSearchSession({ catalog: catalog() }).directTools).toEqual([]);
  });

  it('a call the host could not route is refused as authorize would, or sent back to the tools given', async () => {
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({
      catalog: catalog(),
      filter: ({ tool }) => tool.id !== 'create_issue',
      onEvent: (event) => events.push(event),
    });
    const step = await session.prepareStep({ threadId: 't' });
    expect(await step.refuseUnrouted('get_weather')).toMatchObject({
      code: 'not-loaded',
      toolName: 'get_weather',
      suggestions: ['get_weather'],
    });
    expect(await step.refuseUnrouted('get_weathr')).toMatchObject({
      code: 'unknown-tool',
      suggestions: ['get_weather'],
    });
    // A tool the policy hides reads like one that does not exist.
    const hidden = await step.refuseUnrouted('create_issue');
    const missing = await step.refuseUnrouted('no_such_tool');
    expect(hidden.code).toBe('unknown-tool');
    expect(hidden.message.replace('create_issue', 'X')).toBe(missing.message.replace('no_such_tool', 'X'));
    // Offered at this step, but the host left it out of the model's tools.
    expect(await step.refuseUnrouted('load_tool')).toEqual({
      code: 'unknown-tool',
      toolName: 'load_tool',
      suggestions: [],
      message: 'Tool "load_tool" is not available at this step. Call one of the tools you were given.',
    });
    const corrections = events.filter((event) => event.type === 'self-correction');
    expect(corrections.map((event) => event.kind)).toEqual([
      'not-loaded',
      'unknown-tool',
      'unknown-tool',
      'unknown-tool',
      'unknown-tool',
    ]);
  });

  it('parallel calls of one model step are each judged against that step, not a later one', async () => {
    const session = new ToolSearchSession({ catalog: catalog(), state: 'conversation' });
    const request = { threadId: 't', conversation: [] };
    const step = await session.prepareStep(request);
    step.expectCalls(['c1', 'c2']);
    // A sibling call loads get_weather; the other call of the same step is still judged by the step.
    const byFirst = await session.stepForCall(request, 'c1');
    expect(byFirst).toBe(step);
    expect(await session.stepForCall(request, 'c2')).toBe(step);
    // Each call id is handed its step once; an unknown call gets a new step.
    const fresh = await session.stepForCall(request, 'c1');
    expect(fresh).not.toBe(step);
    expect(await session.stepForCall({ threadId: 'other', conversation: [] }, 'c2')).not.toBe(step);
    // Without a thread id nothing is kept.
    const loose = await session.prepareStep({ conversation: [] });
    loose.expectCalls(['c3']);
    expect(await session.stepForCall({ conversation: [] }, 'c3')).not.toBe(loose);
  });

  it('a step kept under objects of the host is the step of every call handed one of them', async () => {
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({ catalog: catalog(), onEvent: (event) => events.push(event) });
    const request = { threadId: 't' };
    const [messages, ownMessages, other] = [[], [], []];
    // Kept as soon as prepareStep is called: a call may ask before the step is ready.
    const preparing = session.prepareStep(request, { keys: [messages, ownMessages] });
    const early = session.stepFor(messages, request);
    const step = await preparing;
    expect(await early).toBe(step);
    expect(await session.stepFor(ownMessages, request)).toBe(step);
    // Two generations of one thread at once stay apart.
    const concurrent = await session.prepareStep(request, { keys: [other] });
    expect(await session.stepFor(messages, request)).toBe(step);
    expect(await session.stepFor(other, request)).toBe(concurrent);
    // An object no step was kept under gets a step prepared quietly, kept for its next calls.
    const stepEvents = events.filter((event) => event.type === 'step').length;
    const unknown: object[] = [];
    const fresh = await session.stepFor(unknown, { loaded: ['send_email'] });
    expect(fresh.toolNames).toContain('send_email');
    expect(await session.stepFor(unknown, {})).toBe(fresh);
    expect(events.filter((event) => event.type === 'step')).toHaveLength(stepEvents);
    // No object: a new step every time.
    expect(await session.stepFor(undefined, request)).not.toBe(await session.stepFor(undefined, request));
    await session.clearAllState();
    expect(await session.stepFor(messages, request)).not.toBe(step);
  });

  it('a host key that is not an object is an InvalidArgumentError naming it', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const cases: [() => Promise<unknown>, string][] = [
      [() => session.prepareStep({}, { keys: 'messages' as never }), 'options.keys'],
      [() => session.prepareStep({}, { keys: [[], 5] as never }), 'options.keys[1]'],
      [() => session.stepFor('messages' as never, {}), 'key'],
      [() => session.stepFor(null as never, {}), 'key'],
    ];
    for (const [call, argument] of cases) {
      const error = await rejection(call);
      expect(InvalidArgumentError.isInstance(error), argument).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe(argument);
      expect((error as Error).message).toMatch(/must be (an array of objects|an object)/);
    }
  });

  it('knows which catalog changes can change what a thread is offered', async () => {
    const changes = (mode: ToolSearchMode) => {
      const session = new ToolSearchSession({ catalog: catalog(), mode });
      const seen: boolean[] = [];
      session.catalog.subscribe((change) => seen.push(session.changesOffers(change)));
      session.catalog.add({ id: 'plain', description: 'A tool offered once loaded.' });
      session.catalog.add({ id: 'pinned', description: 'Always offered.', pinned: true });
      session.catalog.add({ id: 'search_tools', description: 'Shadowed by a meta-tool.', pinned: true });
      session.catalog.upsert({ id: 'get_weather', description: 'Weather, changed.' });
      session.catalog.remove('send_email');
      return seen;
    };
    expect(changes('search-load')).toEqual([false, true, false, true, true]);
    expect(changes('proxy')).toEqual([false, true, false, true, true]);
    expect(changes('catalog')).toEqual([true, true, true, true, true]);
    // What the rule says of an addition, a step shows: the plain tool is not offered, the pinned one is.
    const session = new ToolSearchSession({ catalog: catalog() });
    const before = (await session.prepareStep({ threadId: 't' })).toolNames;
    session.catalog.add({ id: 'plain', description: 'A tool offered once loaded.' });
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toEqual(before);
    session.catalog.add({ id: 'pinned', description: 'Always offered.', pinned: true });
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toEqual([...before, 'pinned']);
  });

  it('a request with ids that are not strings or loaded tools that are not names is an InvalidArgumentError', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const cases: [unknown, string][] = [
      ['t', 'request'],
      [{ threadId: 5 }, 'request.threadId'],
      [{ threadId: 't', resourceId: 5 }, 'request.resourceId'],
      [{ threadId: {} }, 'request.threadId'],
      [{ loaded: 'get_weather' }, 'request.loaded'],
      [{ loaded: ['get_weather', 7] }, 'request.loaded[1]'],
    ];
    for (const [request, argument] of cases) {
      for (const call of [
        () => session.prepareStep(request as never),
        () => session.loadedTools(request as never),
        () => session.search('weather', request as never),
        () => session.stepForCall(request as never, 'c1'),
        () => session.stepFor([], request as never),
      ]) {
        const error = await rejection(call);
        expect(InvalidArgumentError.isInstance(error), argument).toBe(true);
        expect((error as InvalidArgumentError).argument).toBe(argument);
        expect((error as Error).message).toMatch(new RegExp(`^${argument.replace(/[.[\]]/g, '\\$&')} must be`));
      }
    }
    expect(stepRequestProblem({ threadId: 't', resourceId: 'u', loaded: ['a'], context: 5 })).toBeUndefined();
    expect(stepRequestProblem(undefined)).toBeUndefined();
    expect(stepRequestProblem({ resourceId: null })).toEqual({
      path: 'resourceId',
      problem: 'must be a string; got null',
    });
  });

  it('a thread keeps only its last step; clearState forgets it', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const first = await session.prepareStep({ threadId: 't' });
    first.expectCalls(['a']);
    const second = await session.prepareStep({ threadId: 't' });
    second.expectCalls(['b']);
    expect(await session.stepForCall({ threadId: 't' }, 'a')).not.toBe(first);
    await session.clearState('t');
    expect(await session.stepForCall({ threadId: 't' }, 'b')).not.toBe(second);
  });

  it('under the conversation strategy, a thread resumed without messages gets its last step’s loads', async () => {
    const session = new ToolSearchSession({ catalog: catalog(), state: 'conversation' });
    const conversation = [{ type: 'tool-result' as const, toolName: 'load_tool', output: { loaded: ['send_email'] } }];
    await session.prepareStep({ threadId: 't', resourceId: 'u', conversation });
    const resumed = await session.loadedTools({ threadId: 't', resourceId: 'u' });
    expect(resumed.map((tool) => tool.id)).toEqual(['send_email']);
    // Another resource's thread of the same id, and a request without a thread, get nothing.
    expect(await session.loadedTools({ threadId: 't', resourceId: 'v' })).toEqual([]);
    expect(await session.loadedTools({})).toEqual([]);
    // A conversation given, even empty, is the state.
    expect(await session.loadedTools({ threadId: 't', resourceId: 'u', conversation: [] })).toEqual([]);
    await session.clearState('t', 'u');
    expect(await session.loadedTools({ threadId: 't', resourceId: 'u' })).toEqual([]);
  });

  it('stores are not shadowed by the memory of last steps', async () => {
    const store = new InMemoryLoadedToolStore();
    const session = new ToolSearchSession({ catalog: catalog(), state: store });
    const step = await session.prepareStep({ threadId: 't', conversation: [] });
    await step.execute('load_tool', { toolName: 'create_issue' });
    expect((await session.loadedTools({ threadId: 't' })).map((tool) => tool.id)).toEqual(['create_issue']);
    store.dispose();
  });

  it('thread keys of different (resource, thread) pairs differ', () => {
    expect(threadKey({ threadId: 'b/c', resourceId: 'a' })).not.toBe(threadKey({ threadId: 'c', resourceId: 'a/b' }));
    expect(threadKey({ threadId: 'x', resourceId: 'a%2Fb' })).not.toBe(threadKey({ threadId: 'x', resourceId: 'a/b' }));
    expect(threadKey({ threadId: 't' })).toBe('t');
    expect(threadKey({ threadId: 't', resourceId: 'u' })).toBe('u/t');
    expect(threadKey({ threadId: '' })).toBeUndefined();
  });

  it('remembers at most its limit of threads, the least recently set dropped first', () => {
    const recent = new RecentByThread<number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    recent.set('a', 3);
    recent.set('c', 4);
    expect([recent.get('a'), recent.get('b'), recent.get('c'), recent.size]).toEqual([3, undefined, 4, 2]);
  });
});
