import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError, ToolLimitError } from '../errors.js';
import { InMemoryLoadedToolStore, type InMemoryLoadedToolStoreOptions } from './in-memory-store.js';

/** A store on a hand-driven clock. */
function storeWithClock(options: InMemoryLoadedToolStoreOptions = {}) {
  let now = 1_000_000;
  const store = new InMemoryLoadedToolStore({ cleanupIntervalMs: 0, ...options, now: () => now });
  return {
    store,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('InMemoryLoadedToolStore', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps ids in load order without duplicates and reports what was added', async () => {
    const { store } = storeWithClock();
    expect(await store.get('t1')).toEqual([]);

    expect(await store.add('t1', ['b', 'a', 'b'])).toEqual({
      loaded: ['b', 'a'],
      added: ['b', 'a'],
      alreadyLoaded: [],
    });
    expect(await store.add('t1', ['c', 'a', 'd', 'c'])).toEqual({
      loaded: ['b', 'a', 'c', 'd'],
      added: ['c', 'd'],
      alreadyLoaded: ['a'],
    });
    expect(await store.get('t1')).toEqual(['b', 'a', 'c', 'd']);
    // Threads are independent.
    expect(await store.get('t2')).toEqual([]);
  });

  it('returns copies, so callers cannot change the stored list', async () => {
    const { store } = storeWithClock();
    const { loaded } = await store.add('t', ['a']);
    loaded.push('mutated');
    (await store.get('t')).push('mutated too');
    expect(await store.get('t')).toEqual(['a']);
  });

  it('does not create a thread for reads or empty adds', async () => {
    const { store } = storeWithClock();
    await store.get('reader');
    expect(await store.add('empty', [])).toEqual({ loaded: [], added: [], alreadyLoaded: [] });
    expect(store.stats().threads).toBe(0);
  });

  it('removes ids, keeps the order of the rest, and drops a thread left empty', async () => {
    const { store } = storeWithClock();
    await store.add('t', ['a', 'b', 'c']);
    await store.remove('t', ['b', 'not-loaded']);
    expect(await store.get('t')).toEqual(['a', 'c']);
    await store.remove('unknown-thread', ['a']);
    await store.remove('t', ['a', 'c']);
    expect(await store.get('t')).toEqual([]);
    expect(store.stats().threads).toBe(0);
  });

  it('clears one thread or all threads', async () => {
    const { store } = storeWithClock();
    await store.add('t1', ['a']);
    await store.add('t2', ['b']);
    await store.clear('t1');
    expect(await store.get('t1')).toEqual([]);
    expect(await store.get('t2')).toEqual(['b']);
    await store.clearAll();
    expect(await store.get('t2')).toEqual([]);
    expect(store.stats()).toMatchObject({ threads: 0, tools: 0 });
  });

  it('forgets a thread once it has been idle for ttlMs', async () => {
    const { store, advance } = storeWithClock({ ttlMs: 1000 });
    await store.add('t', ['a']);
    advance(999);
    expect(await store.get('t')).toEqual(['a']);
    advance(1000);
    expect(await store.get('t')).toEqual([]);
    // Loading again starts from scratch.
    expect(await store.add('t', ['b'])).toEqual({ loaded: ['b'], added: ['b'], alreadyLoaded: [] });
    expect(store.stats().expired).toBe(1);
  });

  it('restarts the TTL on every get and add, but not on remove', async () => {
    const { store, advance } = storeWithClock({ ttlMs: 1000 });
    await store.add('t', ['a', 'b']);
    for (let i = 0; i < 5; i++) {
      advance(800);
      expect(await store.get('t')).toEqual(['a', 'b']);
    }
    advance(800);
    await store.add('t', ['a']); // already loaded: still counts as activity
    advance(800);
    await store.remove('t', ['b']);
    advance(300); // 1100 ms since the add
    expect(await store.get('t')).toEqual([]);
  });

  it('never expires with ttlMs 0', async () => {
    const { store, advance } = storeWithClock({ ttlMs: 0 });
    await store.add('t', ['a']);
    advance(365 * 24 * 60 * 60 * 1000);
    expect(store.cleanupNow()).toBe(0);
    expect(await store.get('t')).toEqual(['a']);
  });

  it('evicts the least recently used thread beyond maxThreads', async () => {
    const { store, advance } = storeWithClock({ maxThreads: 3 });
    await store.add('t1', ['a']);
    advance(1);
    await store.add('t2', ['a']);
    advance(1);
    await store.add('t3', ['a']);
    advance(1);
    await store.get('t1'); // t1 is now the most recent; t2 the least
    advance(1);
    await store.add('t4', ['a']);
    expect(await store.get('t2')).toEqual([]);
    expect(await store.get('t1')).toEqual(['a']);
    expect(await store.get('t3')).toEqual(['a']);
    expect(await store.get('t4')).toEqual(['a']);
    expect(store.stats()).toMatchObject({ threads: 3, evicted: 1 });
  });

  it('stays within maxThreads under a flood of new threads', async () => {
    const { store } = storeWithClock({ maxThreads: 100 });
    for (let i = 0; i < 5000; i++) await store.add(`flood-${i}`, ['a', 'b']);
    const stats = store.stats();
    expect(stats.threads).toBe(100);
    expect(stats.tools).toBe(200);
    expect(stats.evicted).toBe(4900);
    expect(await store.get('flood-4999')).toEqual(['a', 'b']);
    expect(await store.get('flood-0')).toEqual([]);
  });

  it('rejects an add beyond maxToolsPerThread and adds nothing', async () => {
    const { store } = storeWithClock({ maxToolsPerThread: 3 });
    await store.add('t', ['a', 'b']);
    const error = await store.add('t', ['b', 'c', 'd']).catch((e: unknown) => e);
    expect(ToolLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'tool-limit', threadKey: 't', limit: 3, loadedCount: 2 });
    expect((error as ToolLimitError).requestedIds).toEqual(['c', 'd']);
    expect((error as Error).message).toContain('maxToolsPerThread');
    expect(await store.get('t')).toEqual(['a', 'b']);
    // Re-adding loaded ids and filling up to the limit exactly still work.
    expect((await store.add('t', ['a', 'c'])).loaded).toEqual(['a', 'b', 'c']);
    await expect(store.add('new', ['1', '2', '3', '4'])).rejects.toThrow(ToolLimitError);
    expect(await store.get('new')).toEqual([]);
  });

  it('reports stats', async () => {
    const { store, advance } = storeWithClock({ ttlMs: 10_000 });
    expect(store.stats()).toEqual({ threads: 0, tools: 0, maxToolsInThread: 0, evicted: 0, expired: 0 });
    await store.add('t1', ['a', 'b', 'c']);
    advance(4000);
    await store.add('t2', ['a']);
    advance(1000);
    expect(store.stats()).toEqual({
      threads: 2,
      tools: 4,
      maxToolsInThread: 3,
      oldestAccessMs: 5000,
      evicted: 0,
      expired: 0,
    });
    advance(5000); // t1 idle for 10 s: expired, swept before counting
    expect(store.stats()).toEqual({
      threads: 1,
      tools: 1,
      maxToolsInThread: 1,
      oldestAccessMs: 6000,
      evicted: 0,
      expired: 1,
    });
  });

  it('cleanupNow drops expired threads and returns how many', async () => {
    const { store, advance } = storeWithClock({ ttlMs: 1000 });
    await store.add('old1', ['a']);
    await store.add('old2', ['a']);
    advance(600);
    await store.add('young', ['a']);
    expect(store.cleanupNow()).toBe(0);
    advance(400);
    expect(store.cleanupNow()).toBe(2);
    expect(store.cleanupNow()).toBe(0);
    expect(store.stats().threads).toBe(1);
    expect(await store.get('young')).toEqual(['a']);
  });

  it('sweeps periodically', async () => {
    vi.useFakeTimers({ now: 0 });
    const store = new InMemoryLoadedToolStore({ ttlMs: 1000, cleanupIntervalMs: 500 });
    const sweep = vi.spyOn(store, 'cleanupNow');

    await store.add('t', ['a']);
    vi.advanceTimersByTime(999);
    expect(sweep).toHaveBeenCalledTimes(1); // at 500 ms: nothing expired yet
    expect(sweep.mock.results[0]?.value).toBe(0);
    vi.advanceTimersByTime(1);
    expect(sweep).toHaveBeenCalledTimes(2); // at 1000 ms: the thread has been idle for ttlMs
    expect(sweep.mock.results[1]?.value).toBe(1);

    store.dispose();
    vi.advanceTimersByTime(5000);
    expect(sweep).toHaveBeenCalledTimes(2);
    expect(store.stats()).toMatchObject({ threads: 0, expired: 1 });
  });

  it("uses an unref'd timer, so the store does not keep the process alive", () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const store = new InMemoryLoadedToolStore({ ttlMs: 1000, cleanupIntervalMs: 100 });
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    store.dispose();
    setIntervalSpy.mockRestore();
  });

  it('starts no timer when cleanup or the TTL is off', () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    new InMemoryLoadedToolStore({ cleanupIntervalMs: 0 });
    new InMemoryLoadedToolStore({ ttlMs: 0 });
    expect(setIntervalSpy).not.toHaveBeenCalled();
    setIntervalSpy.mockRestore();
  });

  it('dispose forgets every thread', async () => {
    const store = new InMemoryLoadedToolStore();
    await store.add('t', ['a']);
    store.dispose();
    expect(await store.get('t')).toEqual([]);
  });

  it.each([
    [{ ttlMs: -1 }, 'ttlMs'],
    [{ ttlMs: Number.NaN }, 'ttlMs'],
    [{ ttlMs: Number.POSITIVE_INFINITY }, 'ttlMs'],
    [{ maxThreads: 0 }, 'maxThreads'],
    [{ maxThreads: 1.5 }, 'maxThreads'],
    [{ maxToolsPerThread: -3 }, 'maxToolsPerThread'],
    [{ maxToolsPerThread: Number.NaN }, 'maxToolsPerThread'],
    [{ cleanupIntervalMs: -10 }, 'cleanupIntervalMs'],
    [{ cleanupIntervalMs: 2 ** 31 }, 'cleanupIntervalMs'],
    [{ now: 5 as unknown as () => number }, 'now'],
  ])('rejects invalid options %o', (options, option) => {
    let error: unknown;
    try {
      new InMemoryLoadedToolStore(options);
    } catch (e) {
      error = e;
    }
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid-option', option });
    expect((error as Error).message).toContain(`"${option}"`);
  });

  it('rejects tool ids that are not strings', async () => {
    const store = new InMemoryLoadedToolStore({ cleanupIntervalMs: 0 });
    await expect(store.add('t', [1 as unknown as string])).rejects.toThrow(InvalidOptionError);
    await expect(store.add('t', 'abc' as unknown as string[])).rejects.toThrow(/array of strings/);
  });
});
