import { randomUUID } from 'node:crypto';
import { StoreDataError, ToolLimitError } from '@toolscout/core/errors';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createRedisLoadedToolStore } from './redis-loaded-tool-store.js';
import { useTwoClients } from './test-utils/two-clients.js';

// Two clients stand for two server instances sharing one Redis (the redis-server of this run).
const clients = useTwoClients();
let prefix: string;

beforeEach(() => {
  prefix = `loaded-test:${randomUUID()}:`;
});

describe('createRedisLoadedToolStore', () => {
  it('keeps ids in load order without duplicates, one JSON string per thread', async () => {
    const store = createRedisLoadedToolStore(clients.a, { prefix });
    expect(await store.get('thread-1')).toEqual([]);
    expect(await store.add('thread-1', ['b', 'a', 'b'])).toEqual({
      loaded: ['b', 'a'],
      added: ['b', 'a'],
      alreadyLoaded: [],
    });
    expect(await store.add('thread-1', ['c', 'a', 'd'])).toEqual({
      loaded: ['b', 'a', 'c', 'd'],
      added: ['c', 'd'],
      alreadyLoaded: ['a'],
    });
    expect(await store.get('thread-1')).toEqual(['b', 'a', 'c', 'd']);
    expect(await clients.a.get(`${prefix}thread-1`)).toBe('["b","a","c","d"]');
    expect(await store.get('thread-2')).toEqual([]);
  });

  it('uses the default prefix toolscout:loaded:', async () => {
    const store = createRedisLoadedToolStore(clients.a);
    const thread = `default-prefix-${randomUUID()}`;
    await store.add(thread, ['a']);
    expect(await clients.a.get(`toolscout:loaded:${thread}`)).toBe('["a"]');
    await store.clear(thread);
    expect(await clients.a.exists(`toolscout:loaded:${thread}`)).toBe(0);
  });

  it('removes ids and deletes the thread when none are left', async () => {
    const store = createRedisLoadedToolStore(clients.a, { prefix });
    await store.add('t', ['a', 'b', 'c']);
    await store.remove('t', ['b']);
    expect(await store.get('t')).toEqual(['a', 'c']);
    await store.remove('t', ['a', 'c']);
    expect(await clients.a.exists(`${prefix}t`)).toBe(0);
  });

  it('sets the idle TTL on add and restarts it on get', async () => {
    const store = createRedisLoadedToolStore(clients.a, { prefix, ttlMs: 60_000 });
    await store.add('t', ['a']);
    expect(await clients.a.pTTL(`${prefix}t`)).toBeGreaterThan(50_000);
    await clients.a.pExpire(`${prefix}t`, 2_000);
    expect(await store.get('t')).toEqual(['a']);
    expect(await clients.a.pTTL(`${prefix}t`)).toBeGreaterThan(50_000);
  });

  it('defaults to a one-hour TTL, and ttlMs 0 means no expiry', async () => {
    const withDefault = createRedisLoadedToolStore(clients.a, { prefix });
    await withDefault.add('t1', ['a']);
    const pttl = await clients.a.pTTL(`${prefix}t1`);
    expect(pttl).toBeGreaterThan(59 * 60_000);
    expect(pttl).toBeLessThanOrEqual(60 * 60_000);

    const forever = createRedisLoadedToolStore(clients.a, { prefix, ttlMs: 0 });
    await forever.add('t2', ['a']);
    expect(await clients.a.pTTL(`${prefix}t2`)).toBe(-1);
  });

  it('forgets a thread once its real TTL has run out', async () => {
    const store = createRedisLoadedToolStore(clients.a, { prefix, ttlMs: 200 });
    await store.add('t', ['a']);
    expect(await store.get('t')).toEqual(['a']);
    // Poll with the raw client: the store's own get would restart the idle timeout each time.
    await vi.waitFor(async () => expect(await clients.a.exists(`${prefix}t`)).toBe(0), { timeout: 5000, interval: 50 });
    expect(await store.get('t')).toEqual([]);
    expect((await store.add('t', ['b'])).loaded).toEqual(['b']);
  });

  it('lets two server instances see each other’s loads', async () => {
    const serverA = createRedisLoadedToolStore(clients.a, { prefix });
    const serverB = createRedisLoadedToolStore(clients.b, { prefix });
    await serverA.add('t', ['search_web']);
    expect(await serverB.get('t')).toEqual(['search_web']);
    expect(await serverB.add('t', ['search_web', 'get_weather'])).toEqual({
      loaded: ['search_web', 'get_weather'],
      added: ['get_weather'],
      alreadyLoaded: ['search_web'],
    });
    expect(await serverA.get('t')).toEqual(['search_web', 'get_weather']);
    await serverB.clear('t');
    expect(await serverA.get('t')).toEqual([]);
  });

  it('keeps one list without duplicates under concurrent adds from two instances', async () => {
    const serverA = createRedisLoadedToolStore(clients.a, { prefix });
    const serverB = createRedisLoadedToolStore(clients.b, { prefix });
    const ids = Array.from({ length: 30 }, (_, i) => `tool_${i}`);
    const results = await Promise.all(
      ids.flatMap((id, i) => [
        serverA.add('t', [id, ids[(i + 7) % ids.length] ?? id]),
        serverB.add('t', [ids[(i + 13) % ids.length] ?? id, id]),
      ]),
    );
    const loaded = await serverA.get('t');
    expect(loaded).toHaveLength(ids.length);
    expect([...loaded].sort()).toEqual([...ids].sort());
    expect(await serverB.get('t')).toEqual(loaded);
    expect(results.flatMap((r) => r.added).sort()).toEqual([...ids].sort());
  });

  it('clearAll deletes its own threads only', async () => {
    const mine = createRedisLoadedToolStore(clients.a, { prefix: `${prefix}mine:` });
    const theirs = createRedisLoadedToolStore(clients.a, { prefix: `${prefix}theirs:` });
    await Promise.all(Array.from({ length: 25 }, (_, i) => mine.add(`t${i}`, ['a'])));
    await theirs.add('t0', ['b']);
    await clients.a.set(`${prefix}unrelated`, 'keep');

    await mine.clearAll();
    expect(await mine.get('t0')).toEqual([]);
    expect(await mine.get('t24')).toEqual([]);
    expect(await theirs.get('t0')).toEqual(['b']);
    expect(await clients.a.get(`${prefix}unrelated`)).toBe('keep');
  });

  it('caps a thread at 256 tools, like the in-memory store: the add beyond it is refused whole', async () => {
    const store = createRedisLoadedToolStore(clients.a, { prefix });
    const ids = Array.from({ length: 256 }, (_, i) => `tool_${i}`);
    expect((await store.add('t', ids.slice(0, 200))).added).toHaveLength(200);
    expect((await store.add('t', ids.slice(200))).loaded).toEqual(ids);

    const error = await store.add('t', ['tool_0', 'one_too_many']).catch((e: unknown) => e);
    expect(ToolLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'tool-limit', threadKey: 't', limit: 256, loadedCount: 256 });
    expect((error as ToolLimitError).requestedIds).toEqual(['one_too_many']);
    expect(await store.get('t')).toEqual(ids);
    // Ids already loaded can still be "loaded" again, and a fresh thread starts from zero.
    expect((await store.add('t', ['tool_7'])).alreadyLoaded).toEqual(['tool_7']);
    await expect(
      store.add(
        'flood',
        Array.from({ length: 5000 }, (_, i) => `f${i}`),
      ),
    ).rejects.toThrow(ToolLimitError);
    expect(await clients.a.exists(`${prefix}flood`)).toBe(0);
  });

  it('holds maxToolsPerThread under concurrent adds from two instances', async () => {
    const serverA = createRedisLoadedToolStore(clients.a, { prefix, maxToolsPerThread: 5 });
    const serverB = createRedisLoadedToolStore(clients.b, { prefix, maxToolsPerThread: 5 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? serverA : serverB).add('t', [`tool_${i}`])),
    );
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(15);
    for (const outcome of refused) expect(ToolLimitError.isInstance(outcome.reason)).toBe(true);
    expect(await serverA.get('t')).toHaveLength(5);
  });

  it('reports a corrupted thread value with its key instead of resetting it', async () => {
    const store = createRedisLoadedToolStore(clients.a, { prefix });
    await clients.a.set(`${prefix}t`, '["a", 42]');
    for (const attempt of [() => store.get('t'), () => store.add('t', ['b']), () => store.remove('t', ['a'])]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(StoreDataError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ key: `${prefix}t` });
      expect((error as Error).message).toMatch(/item 1 is (a number|not a string)/);
    }
    expect(await clients.a.get(`${prefix}t`)).toBe('["a", 42]');
  });
});
