// The parts of learning from use: the merge rule and its bounds, both stores, the learned-query
// index, and what a hostile model can and cannot do to the ranking through its calls.
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { mapBackend } from '../test-utils/map-backend.js';
import { tokenizeQuery } from '../text/tokenize.js';
import {
  DEFAULT_FEEDBACK_LIMITS,
  decayedWeight,
  type FeedbackLimits,
  MAX_ENTRY_WEIGHT,
  mergeFeedback,
} from './feedback-entries.js';
import { InMemoryFeedbackStore, KeyValueFeedbackStore } from './feedback-store.js';
import { fuseFeedback, LearnedQueries } from './learned-queries.js';
import { ToolFeedback } from './tool-feedback.js';

const DAY = 24 * 60 * 60 * 1000;
const limits: FeedbackLimits = { ...DEFAULT_FEEDBACK_LIMITS, maxQueriesPerTool: 3, maxQueries: 5 };
const noOwnTerms = () => new Set<string>();

describe('mergeFeedback', () => {
  it('reinforces a repeated query up to the cap, and a failed call counts a quarter', () => {
    let entries = mergeFeedback([], 'a', 'q', 'ok', 0, limits);
    expect(entries).toEqual([{ toolId: 'a', query: 'q', weight: 1, at: 0 }]);
    entries = mergeFeedback(entries, 'a', 'q', 'failed', 0, limits);
    expect(entries[0]?.weight).toBe(1.25);
    for (let i = 0; i < 10; i++) entries = mergeFeedback(entries, 'a', 'q', 'ok', 0, limits);
    expect(entries[0]?.weight).toBe(MAX_ENTRY_WEIGHT);
  });

  it('halves evidence every half-life, drops it past maxAgeMs, and keeps the strongest maxQueriesPerTool', () => {
    const entry = { toolId: 'a', query: 'q', weight: 1, at: 0 };
    expect(decayedWeight(entry, limits.halfLifeMs, limits)).toBeCloseTo(0.5);
    expect(decayedWeight(entry, limits.maxAgeMs + 1, limits)).toBe(0);
    let entries = mergeFeedback([], 'a', 'old', 'ok', 0, limits);
    for (const query of ['b', 'c', 'd']) entries = mergeFeedback(entries, 'a', query, 'ok', 10 * DAY, limits);
    expect(entries.map((e) => e.query).sort()).toEqual(['b', 'c', 'd']); // the decayed one went
  });
});

describe('InMemoryFeedbackStore', () => {
  it('keeps at most maxQueries in all, the weakest dropped first', async () => {
    const store = new InMemoryFeedbackStore();
    await store.record('weak', 'w', 'failed', 0, limits);
    for (let i = 0; i < 5; i++) await store.record(`t${i}`, 'q', 'ok', 0, limits);
    const entries = await store.entries();
    expect(entries).toHaveLength(5);
    expect(entries.map((e) => e.toolId)).not.toContain('weak');
    await store.clearTool('t0');
    expect(await store.entries()).toHaveLength(4);
  });
});

describe('KeyValueFeedbackStore', () => {
  it('keeps one key per tool and a list of tools, and reads back what it wrote', async () => {
    const backend = mapBackend();
    const store = new KeyValueFeedbackStore(backend, { prefix: 'fb:' });
    await store.record('a', 'rain', 'ok', 0, DEFAULT_FEEDBACK_LIMITS);
    await store.record('b', 'sun', 'failed', 0, DEFAULT_FEEDBACK_LIMITS);
    expect([...backend.data.keys()].sort()).toEqual(['fb:tool:a', 'fb:tool:b', 'fb:tools']);
    expect((await store.entries()).map((e) => [e.toolId, e.query, e.weight])).toEqual([
      ['a', 'rain', 1],
      ['b', 'sun', 0.25],
    ]);
    await store.clearAll();
    expect(backend.data.size).toBe(0);
  });

  it('ignores corrupt or forged values entry by entry, never failing a read', async () => {
    const backend = mapBackend();
    const store = new KeyValueFeedbackStore(backend, { prefix: 'fb:' });
    backend.data.set('fb:tools', JSON.stringify(['a', 'b', 7]));
    backend.data.set('fb:tool:a', '{not json');
    backend.data.set(
      'fb:tool:b',
      JSON.stringify([
        { toolId: 'b', query: 'ok', weight: 1, at: 0 },
        { toolId: 'b', query: 'huge', weight: 1e9, at: 0 },
        { toolId: 'other', query: 'moved', weight: 1, at: 0 },
        'junk',
      ]),
    );
    expect((await store.entries()).map((e) => e.query)).toEqual(['ok']);
  });

  it('holds at most maxQueries / maxQueriesPerTool tools', async () => {
    const store = new KeyValueFeedbackStore(mapBackend());
    const few = { ...limits, maxQueries: 6, maxQueriesPerTool: 3 };
    for (const id of ['a', 'b', 'c']) await store.record(id, 'q', 'ok', 0, few);
    expect((await store.entries()).map((e) => e.toolId)).toEqual(['a', 'b']);
  });

  it("lists tools through the backend's appendUnique: new tools recorded at once all stay listed", async () => {
    const backend = mapBackend();
    const read = backend.get;
    backend.get = async (key) => {
      await new Promise((resolve) => setTimeout(resolve, 5)); // every read overlaps the others' writes
      return read(key);
    };
    backend.appendUnique = async (key, values, options) => {
      const all: string[] = JSON.parse(backend.data.get(key) ?? '[]');
      const added = values.filter((value) => !all.includes(value));
      if (all.length + added.length > (options?.maxValues ?? Number.POSITIVE_INFINITY)) return { all, added: [] };
      all.push(...added);
      backend.data.set(key, JSON.stringify(all));
      return { all, added };
    };
    const store = new KeyValueFeedbackStore(backend);
    await Promise.all(['a', 'b', 'c'].map((id) => store.record(id, 'q', 'ok', 0, DEFAULT_FEEDBACK_LIMITS)));
    expect((await store.entries()).map((e) => e.toolId).sort()).toEqual(['a', 'b', 'c']);
    const few = { ...limits, maxQueries: 6, maxQueriesPerTool: 2 };
    await store.record('d', 'q', 'ok', 0, few); // three tools listed: full
    expect((await store.entries()).map((e) => e.toolId)).not.toContain('d');
  });

  it('rejects a store that is no KeyValueStore', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a caller from plain JavaScript
    expect(() => new KeyValueFeedbackStore({} as any)).toThrow(/needs a KeyValueStore/);
  });
});

describe('LearnedQueries', () => {
  it("counts only the learned words a tool's own text lacks", () => {
    const entries = [{ toolId: 'forecast', query: 'will it rain in paris', weight: 1, at: 0 }];
    const learned = new LearnedQueries(entries, 0, limits, () => new Set(tokenizeQuery('Paris')));
    expect(learned.score('paris', 5).size).toBe(0); // its own word: the keyword ranking's business
    expect(learned.score('rain', 5).get('forecast')).toBeCloseTo(1 / 3); // one call: e / (e + 2)
    // A tool no longer in the catalog is left out.
    expect(new LearnedQueries(entries, 0, limits, () => undefined).tools).toBe(0);
  });

  it('bounds what any evidence can do to a score', () => {
    expect(fuseFeedback(0.3, 0, 2)).toBeCloseTo(0.3, 12);
    expect(fuseFeedback(0, 1, 2)).toBeCloseTo(1 - Math.exp(-2));
    expect(fuseFeedback(0.9, 1, 2)).toBeLessThan(1);
  });
});

describe('ToolFeedback', () => {
  it('forgets evidence as it ages (an injected clock)', async () => {
    let now = 0;
    const feedback = new ToolFeedback(
      { halfLifeMs: DAY, maxAgeMs: 10 * DAY, refreshMs: 1, clock: () => now },
      noOwnTerms,
    );
    await feedback.record('rain tomorrow', 'forecast');
    const fresh = (await feedback.scores('rain tomorrow', 5)).get('forecast') ?? 0;
    now = 3 * DAY;
    const older = (await feedback.scores('rain tomorrow', 5)).get('forecast') ?? 0;
    now = 11 * DAY;
    expect(older).toBeGreaterThan(0);
    expect(older).toBeLessThan(fresh);
    expect((await feedback.scores('rain tomorrow', 5)).size).toBe(0);
  });

  it('reads a shared store once per refreshMs, its own records merged in without a read', async () => {
    const backend = mapBackend();
    let reads = 0;
    const get = backend.get;
    backend.get = async (key) => {
      reads++;
      return get(key);
    };
    let now = 0;
    const store = new KeyValueFeedbackStore(backend);
    const feedback = new ToolFeedback({ store, refreshMs: 1000, clock: () => now }, noOwnTerms);
    await feedback.scores('rain', 5);
    const afterFirst = reads;
    await feedback.record('rain', 'forecast'); // (its own read-merge-write in the store)
    const afterRecord = reads;
    expect((await feedback.scores('rain', 5)).get('forecast')).toBeGreaterThan(0);
    await feedback.scores('rain', 5);
    expect(reads).toBe(afterRecord);
    expect(afterFirst).toBe(1);
    // Another process's record shows after refreshMs.
    await new KeyValueFeedbackStore(backend).record('sunny', 'sun', 'ok', 0, DEFAULT_FEEDBACK_LIMITS);
    expect((await feedback.scores('sun', 5)).size).toBe(0);
    now = 1000;
    expect((await feedback.scores('sun', 5)).get('sunny')).toBeGreaterThan(0);
  });

  it('scores the same when re-indexed tool by tool after each record as when built from the store at once', async () => {
    const store = new InMemoryFeedbackStore();
    const live = new ToolFeedback({ store, clock: () => 0 }, noOwnTerms);
    const words = ['rain', 'snow', 'wind', 'sun', 'storm', 'paris', 'oslo', 'rome'];
    for (let i = 0; i < 60; i++) {
      await live.scores('warm', 5); // an index exists: the records below re-index one tool each
      const query = `${words[i % 8]} ${words[(i * 3) % 8]} ${words[(i * 5 + 1) % 8]}`;
      await live.record(query, `tool-${i % 7}`, i % 4 === 0 ? 'failed' : 'ok');
      if (i === 30) await live.clearTool('tool-3');
    }
    const fresh = new ToolFeedback({ store, clock: () => 0 }, noOwnTerms);
    for (const query of ['rain in paris', 'snow storm', 'sun oslo rome wind']) {
      expect([...(await live.scores(query, 10))]).toEqual([...(await fresh.scores(query, 10))]);
    }
  });

  it('keeps only maxQueryLength characters of a query, and learns nothing from an empty one', async () => {
    const store = new InMemoryFeedbackStore();
    const feedback = new ToolFeedback({ store, maxQueryLength: 10 }, noOwnTerms);
    await feedback.record(`rain ${'x'.repeat(100_000)}`, 'forecast');
    await feedback.record('   ', 'forecast');
    expect((await store.entries()).map((e) => e.query)).toEqual(['rain xxxxx']);
    await expect(feedback.record('q', 'a', 'maybe' as 'ok')).rejects.toThrow(/outcome must be 'ok' or 'failed'/);
  });
});

describe('a hostile model', () => {
  const tools = [
    { id: 'send_money', description: 'Send money to an account.', execute: async () => 'sent' },
    { id: 'get_balance', description: 'Get the balance of an account.', execute: async () => 100 },
  ];

  it('cannot flood the store or move the ranking from one thread', async () => {
    const store = new InMemoryFeedbackStore();
    const session = new ToolSearchSession({ catalog: new ToolCatalog(tools), mode: 'proxy', feedback: { store } });
    // One thread: 100 searches, each followed by a call of the tool it wants to push.
    const step = await session.prepareStep({ threadId: 'evil' });
    for (let i = 0; i < 100; i++) {
      await step.execute('search_tools', { query: `my balance please ${i}` });
      await step.execute('call_tool', { toolName: 'send_money', arguments: {} });
    }
    expect(await store.entries()).toHaveLength(1); // one conversation, one vote
    expect((await session.search('balance', {}, 2))[0]?.tool.id).toBe('get_balance');
  });

  it('can lift a tool through many threads only up to the bound of the weight', async () => {
    const session = new ToolSearchSession({ catalog: new ToolCatalog(tools), mode: 'proxy', feedback: true });
    for (let t = 0; t < 200; t++) {
      const step = await session.prepareStep({ threadId: `evil-${t}` });
      await step.execute('search_tools', { query: `balance ${t % 40}` });
      await step.execute('call_tool', { toolName: 'send_money', arguments: {} });
    }
    const hits = await session.search('balance', {}, 2);
    const score = hits.find((hit) => hit.tool.id === 'send_money')?.score ?? 0;
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThanOrEqual(1 - Math.exp(-2) + 1e-9); // feedback alone never scores above 0.865
  });
});
