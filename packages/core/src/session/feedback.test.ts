// Learning from use through the real session (issue #19 item 4): search_tools, then a call of the
// tool the model picked, makes later searches of other threads rank that tool higher.
import { describe, expect, it } from 'vitest';
import { KeyValueFeedbackStore } from '../feedback/feedback-store.js';
import type { FeedbackOptions } from '../feedback/tool-feedback.js';
import { mapBackend } from '../test-utils/map-backend.js';
import type { ToolDescriptor } from '../types.js';
import { ToolSearchSession } from './tool-search-session.js';

const catalog: ToolDescriptor[] = [
  { id: 'paris_guide', description: 'A guide to the sights and museums of Paris.', execute: async () => 'Louvre' },
  { id: 'city_events', description: 'Concerts and events in a city this week.', execute: async () => 'none' },
  { id: 'get_forecast', description: 'Weather forecast for a location.', execute: async () => 'sunny' },
  {
    id: 'flaky_forecast',
    description: 'Another weather forecast for a location.',
    execute: async () => {
      throw new Error('upstream down');
    },
  },
];

/** The model's turn in thread `threadId`: search_tools(query), load_tool(name), then the call. */
async function searchLoadCall(session: ToolSearchSession, threadId: string, query: string, toolName: string) {
  const first = await session.prepareStep({ threadId });
  await first.execute('search_tools', { query });
  await first.execute('load_tool', { toolName });
  const second = await session.prepareStep({ threadId });
  return second.execute(toolName, {});
}

const ids = async (session: ToolSearchSession, query: string) =>
  (await session.search(query, {}, 3)).map((hit) => hit.tool.id);

describe('feedback', () => {
  const stores: [string, () => FeedbackOptions][] = [
    ['in memory', () => ({})],
    ['key-value store', () => ({ store: new KeyValueFeedbackStore(mapBackend()) })],
  ];
  for (const [name, options] of stores) {
    it(`a tool called after a search ranks higher for later searches of other threads (${name})`, async () => {
      const session = new ToolSearchSession({ catalog, feedback: options() });
      const query = 'will it rain in paris tomorrow';
      expect(await ids(session, query)).toEqual(['paris_guide']); // the keyword ranking misses the forecast
      expect((await searchLoadCall(session, 't1', query, 'get_forecast')).ok).toBe(true);
      // Another query around the same need finds it now, below the keyword hit: one vote counts little.
      expect(await ids(session, 'rain tomorrow in paris?')).toEqual(['paris_guide', 'get_forecast']);
      // A second thread that calls it after such a search puts it first.
      await searchLoadCall(session, 't2', 'rain in paris today', 'get_forecast');
      expect((await ids(session, 'rain tomorrow in paris?'))[0]).toBe('get_forecast');
      // search_tools (what the model reads) ranks it too.
      const step = await session.prepareStep({ threadId: 't3' });
      const found = await step.execute('search_tools', { query: 'rain in paris tomorrow' });
      expect(found.ok && (found.output as { results: { name: string }[] }).results[0]?.name).toBe('get_forecast');
    });
  }

  it('never moves a tool above the one a query names exactly', async () => {
    const session = new ToolSearchSession({
      catalog: [...catalog, { id: 'x1', description: 'The legacy endpoint.' }],
      feedback: true,
    });
    // Many votes for another tool, in the named tool's own words.
    for (let i = 0; i < 40; i++) await session.feedback?.record(`x1 ${i}`, 'get_forecast');
    expect((await ids(session, 'x1'))[0]).toBe('x1');
  });

  it('is off by default: calls teach nothing', async () => {
    const session = new ToolSearchSession({ catalog });
    await searchLoadCall(session, 't1', 'will it rain in paris tomorrow', 'get_forecast');
    expect(session.feedback).toBeUndefined();
    expect(await ids(session, 'rain tomorrow in paris')).toEqual(['paris_guide']);
  });

  it('counts a call that failed less than one that worked', async () => {
    const session = new ToolSearchSession({ catalog, feedback: true });
    await searchLoadCall(session, 't1', 'rain in paris', 'flaky_forecast');
    await searchLoadCall(session, 't2', 'rain in paris', 'get_forecast');
    const hits = await session.search('rain in paris', {}, 5);
    const score = (id: string) => hits.find((hit) => hit.tool.id === id)?.score ?? 0;
    expect(score('get_forecast')).toBeGreaterThan(score('flaky_forecast'));
    expect(score('flaky_forecast')).toBeGreaterThan(0);
  });

  it('bounds what one thread can record: each tool once, at most maxCallsPerThread tools', async () => {
    const store = new KeyValueFeedbackStore(mapBackend());
    const session = new ToolSearchSession({ catalog, feedback: { store, maxCallsPerThread: 2 } });
    for (let i = 0; i < 5; i++) await searchLoadCall(session, 't1', `rain in paris ${i}`, 'get_forecast');
    await searchLoadCall(session, 't1', 'what is on', 'city_events');
    await searchLoadCall(session, 't1', 'museums', 'paris_guide');
    const entries = await store.entries();
    expect(entries.map((entry) => [entry.toolId, entry.query])).toEqual([
      ['get_forecast', 'rain in paris 0'],
      ['city_events', 'what is on'],
    ]);
    for (const entry of entries) expect(entry.weight).toBeCloseTo(1, 6);
  });

  it('learns nothing from a call without a search before it, nor from a request without a thread', async () => {
    const session = new ToolSearchSession({ catalog, feedback: true, mode: 'proxy' });
    const step = await session.prepareStep({ threadId: 't1' });
    await step.execute('call_tool', { toolName: 'get_forecast', arguments: {} });
    const anonymous = await session.prepareStep({});
    await anonymous.execute('search_tools', { query: 'rain in paris' });
    await anonymous.execute('call_tool', { toolName: 'get_forecast', arguments: {} });
    expect(await session.feedback?.store.entries()).toEqual([]);
  });

  it('clears what was learned, for one tool or all', async () => {
    const session = new ToolSearchSession({ catalog, feedback: true });
    await searchLoadCall(session, 't1', 'rain in paris', 'get_forecast');
    await session.feedback?.clearTool('get_forecast');
    expect(await ids(session, 'rain in paris')).toEqual(['paris_guide']);
    for (let i = 0; i < 3; i++) await session.feedback?.record('rain in paris', 'get_forecast');
    expect((await ids(session, 'rain in paris'))[0]).toBe('get_forecast');
    await session.feedback?.clear();
    expect(await ids(session, 'rain in paris')).toEqual(['paris_guide']);
  });

  it('never lets a search or a call fail when the store does', async () => {
    const errors: unknown[] = [];
    const broken = mapBackend();
    broken.get = async () => {
      throw new Error('connection refused');
    };
    const store = new KeyValueFeedbackStore(broken);
    const session = new ToolSearchSession({ catalog, feedback: { store, onError: (e) => errors.push(e) } });
    expect((await searchLoadCall(session, 't1', 'rain in paris', 'get_forecast')).ok).toBe(true);
    expect(await ids(session, 'rain in paris')).toEqual(['paris_guide']);
    expect(errors.length).toBeGreaterThan(0);
    expect(String(errors[0])).toMatch(/key-value feedback store failed while .*connection refused/);
  });

  it('rejects bad options with a specific error', () => {
    expect(() => new ToolSearchSession({ catalog, feedback: { weight: -1 } })).toThrow(/feedback.weight must be/);
    expect(() => new ToolSearchSession({ catalog, feedback: { maxQueries: 1.5 } })).toThrow(/feedback.maxQueries/);
    // biome-ignore lint/suspicious/noExplicitAny: a caller from plain JavaScript
    expect(() => new ToolSearchSession({ catalog, feedback: 'yes' as any })).toThrow(
      /feedback must be true or an object/,
    );
  });
});
