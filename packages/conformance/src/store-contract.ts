import type { LoadedToolStore } from '@toolscout/core';
import { InvalidOptionError, StoreDataError, ToolLimitError, UnsupportedOperationError } from '@toolscout/core/errors';
import { threadKey } from '@toolscout/core/internal';
import { describe, expect, it } from 'vitest';

/** Every check of the store contract, by name. */
export const STORE_CHECKS = [
  'get of an unknown thread is []',
  'add appends new ids in load order, each once',
  'add reports the full list, what it added and what was already loaded',
  'an empty add changes nothing',
  'results are copies',
  'remove unloads ids and keeps the order of the rest',
  'remove of ids or threads that are not loaded does nothing',
  'clear forgets one thread only',
  'clearAll forgets every thread',
  'clearAll is refused with UnsupportedOperationError',
  'clearThread forgets a thread under every resource, and no other',
  'clearThread, when unsupported, is absent or refused with UnsupportedOperationError',
  'threads are isolated, whatever their keys',
  'ids are kept as given',
  'an add past maxToolsPerThread throws ToolLimitError and adds nothing',
  'the default limit is 256 tools per thread',
  'a flood of ids in one add is refused whole',
  'tool ids that are not strings are refused with InvalidOptionError',
  'concurrent adds are all kept',
  'concurrent adds hold the limit',
  'two instances share a thread',
  'concurrent adds from two instances are all kept, within the limit',
  'an idle thread expires after ttlMs',
  'get and add restart the idle timeout',
  'unreadable stored data is StoreDataError, left as it is',
] as const;

/** A check's name; a misspelled one does not compile. */
export type StoreCheckName = (typeof STORE_CHECKS)[number];

/** The options the suite creates a store with, in the terms of the contract (map them to your store's). */
export interface StoreContractStoreOptions {
  /** The most tools one thread may have loaded; unset: the store's default, which must be 256. */
  maxToolsPerThread?: number;
  /** The idle timeout of a thread, in ms; only given when the store has the `ttl` capability. */
  ttlMs?: number;
}

/** What a store supports; checks that need more are skipped, and the skip says why. */
export interface StoreContractCapabilities {
  /** Idle threads expire after `ttlMs`, and each `get` and `add` restarts the timeout. Default false. */
  ttl?: boolean;
  /** `clearAll` works; when false, it must reject with `UnsupportedOperationError`. Default true. */
  clearAll?: boolean;
  /**
   * `clearThread(threadId)` forgets the thread under every resource (every key `threadKey` makes for
   * it); when false, the store has no `clearThread` or it rejects with `UnsupportedOperationError`.
   * Default true.
   */
  clearThread?: boolean;
  /** Concurrent adds to one thread all land and the limit holds (atomic adds). Default true. */
  atomicAdds?: boolean;
}

export interface StoreContractOptions {
  /** The store's name: checks run inside `describe("store contract: <name>")`. */
  name: string;
  /** A new, empty store that shares no thread with any store made before, with these options. */
  create(options: StoreContractStoreOptions): LoadedToolStore | Promise<LoadedToolStore>;
  /**
   * Another store on the same backend as `store`, with these options, as a second server instance
   * would make it (for shared stores, e.g. Redis): the instances must see each other's loads.
   */
  peer?(store: LoadedToolStore, options: StoreContractStoreOptions): LoadedToolStore | Promise<LoadedToolStore>;
  /**
   * Writes `raw` where `store` keeps the ids of `threadKey` (for stores that keep them serialised),
   * so the suite can check that an unreadable value is reported and left as it is.
   */
  corrupt?(store: LoadedToolStore, threadKey: string, raw: string): Promise<void>;
  capabilities?: StoreContractCapabilities;
  /** Checks to skip, with the reason. */
  skip?: Partial<Record<StoreCheckName, string>>;
}

/** The default of `maxToolsPerThread` in every store of toolscout. */
const DEFAULT_LIMIT = 256;
/** The idle timeout of the TTL checks: a thread touched every `STEP_MS` stays, one idle `IDLE_MS` is gone. */
const TTL_MS = 1_000;
const STEP_MS = TTL_MS * 0.6;
const IDLE_MS = TTL_MS * 2.5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error a promise rejects with (undefined when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

/** `count` tool ids: `<prefix>0`, `<prefix>1`, ... */
function ids(count: number, prefix = 'tool_'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

/**
 * Registers the contract of `LoadedToolStore` as vitest tests, inside
 * `describe("store contract: <name>")`: ids per thread in load order without duplicates, what `add`
 * reports, `remove`/`clear`/`clearAll`, isolated threads, the per-thread limit (`ToolLimitError`),
 * typed errors for bad ids and unreadable data, and, by capability, atomic adds, shared instances
 * and the idle timeout.
 *
 * @example
 * ```ts
 * runStoreContract({
 *   name: 'my store',
 *   create: (options) => new MyLoadedToolStore({ namespace: randomUUID(), ...options }),
 *   capabilities: { ttl: true },
 * });
 * ```
 */
export function runStoreContract(options: StoreContractOptions): void {
  const capabilities = { clearAll: true, clearThread: true, atomicAdds: true, ttl: false, ...options.capabilities };
  const create = async (storeOptions: StoreContractStoreOptions = {}) => options.create(storeOptions);
  const check = (name: StoreCheckName, needs: string | undefined, body: () => Promise<void>) => {
    const reason = options.skip?.[name] ?? needs;
    if (reason !== undefined) it.skip(`${name} (skipped: ${reason})`, body);
    else it(name, body);
  };
  const unless = (supported: boolean, why: string) => (supported ? undefined : why);

  // Concurrent: every check makes its own stores, and the TTL checks mostly wait.
  describe.concurrent(`store contract: ${options.name}`, () => {
    check('get of an unknown thread is []', undefined, async () => {
      const store = await create();
      expect(await store.get('never-used')).toEqual([]);
    });

    check('add appends new ids in load order, each once', undefined, async () => {
      const store = await create();
      await store.add('t', ['b', 'a', 'b']);
      await store.add('t', ['c', 'a', 'd', 'c']);
      expect(await store.get('t')).toEqual(['b', 'a', 'c', 'd']);
    });

    check('add reports the full list, what it added and what was already loaded', undefined, async () => {
      const store = await create();
      expect(await store.add('t', ['b', 'a', 'b'])).toEqual({
        loaded: ['b', 'a'],
        added: ['b', 'a'],
        alreadyLoaded: [],
      });
      expect(await store.add('t', ['c', 'a', 'd', 'c', 'a'])).toEqual({
        loaded: ['b', 'a', 'c', 'd'],
        added: ['c', 'd'],
        alreadyLoaded: ['a'],
      });
      expect(await store.add('t', ['d', 'b'])).toEqual({
        loaded: ['b', 'a', 'c', 'd'],
        added: [],
        alreadyLoaded: ['d', 'b'],
      });
    });

    check('an empty add changes nothing', undefined, async () => {
      const store = await create();
      expect(await store.add('empty', [])).toEqual({ loaded: [], added: [], alreadyLoaded: [] });
      expect(await store.get('empty')).toEqual([]);
      await store.add('t', ['a']);
      expect(await store.add('t', [])).toEqual({ loaded: ['a'], added: [], alreadyLoaded: [] });
    });

    check('results are copies', undefined, async () => {
      const store = await create();
      const result = await store.add('t', ['a']);
      result.loaded.push('changed');
      result.added.push('changed');
      (await store.get('t')).push('changed');
      expect(await store.get('t')).toEqual(['a']);
    });

    check('remove unloads ids and keeps the order of the rest', undefined, async () => {
      const store = await create();
      await store.add('t', ['a', 'b', 'c', 'd']);
      await store.remove('t', ['c', 'a']);
      expect(await store.get('t')).toEqual(['b', 'd']);
      await store.remove('t', ['b', 'd']);
      expect(await store.get('t')).toEqual([]);
      // A thread emptied by remove starts again from nothing.
      expect(await store.add('t', ['a'])).toEqual({ loaded: ['a'], added: ['a'], alreadyLoaded: [] });
    });

    check('remove of ids or threads that are not loaded does nothing', undefined, async () => {
      const store = await create();
      await store.add('t', ['a', 'b']);
      await store.remove('t', ['missing', 'b', 'b']);
      await store.remove('t', []);
      await store.remove('never-used', ['a']);
      expect(await store.get('t')).toEqual(['a']);
      expect(await store.get('never-used')).toEqual([]);
    });

    check('clear forgets one thread only', undefined, async () => {
      const store = await create();
      await store.add('t1', ['a']);
      await store.add('t2', ['b']);
      await store.clear('t1');
      await store.clear('never-used');
      expect(await store.get('t1')).toEqual([]);
      expect(await store.get('t2')).toEqual(['b']);
    });

    check('clearAll forgets every thread', unless(capabilities.clearAll, 'the store has no clearAll'), async () => {
      const store = await create();
      await Promise.all(ids(25, 't').map((thread) => store.add(thread, ['a', 'b'])));
      await store.clearAll();
      for (const thread of ids(25, 't')) expect(await store.get(thread)).toEqual([]);
      expect((await store.add('t0', ['c'])).loaded).toEqual(['c']);
    });

    check(
      'clearAll is refused with UnsupportedOperationError',
      unless(!capabilities.clearAll, 'the store supports clearAll'),
      async () => {
        const store = await create();
        await store.add('t', ['a']);
        const error = await rejection(store.clearAll());
        expect(UnsupportedOperationError.isInstance(error), String(error)).toBe(true);
        expect(await store.get('t')).toEqual(['a']);
      },
    );

    check(
      'clearThread forgets a thread under every resource, and no other',
      unless(capabilities.clearThread, 'the store has no clearThread'),
      async () => {
        const store = await create();
        const key = (threadId: string, resourceId?: string) => threadKey({ threadId, resourceId })!;
        const cleared = [key('t/1'), key('t/1', 'u1'), key('t/1', 'u/2'), key('t/1', 'u%2F2')];
        const kept = [key('t'), key('1'), key('x/t/1', 'u1'), key('t/1x', 'u1'), key('t', '1'), key('u1/t/1')];
        await Promise.all([...cleared, ...kept].map((thread) => store.add(thread, ['a'])));
        expect(store.clearThread, 'clearThread').toBeTypeOf('function');
        await store.clearThread!('t/1');
        await store.clearThread!('never-used');
        for (const thread of cleared) expect(await store.get(thread), thread).toEqual([]);
        for (const thread of kept) expect(await store.get(thread), thread).toEqual(['a']);
      },
    );

    check(
      'clearThread, when unsupported, is absent or refused with UnsupportedOperationError',
      unless(!capabilities.clearThread, 'the store supports clearThread'),
      async () => {
        const store = await create();
        await store.add(threadKey({ threadId: 't', resourceId: 'u' })!, ['a']);
        if (store.clearThread === undefined) return;
        const error = await rejection(store.clearThread('t'));
        expect(UnsupportedOperationError.isInstance(error), String(error)).toBe(true);
        expect(await store.get(threadKey({ threadId: 't', resourceId: 'u' })!)).toEqual(['a']);
      },
    );

    check('threads are isolated, whatever their keys', undefined, async () => {
      const store = await create();
      const keys = ['t', 'T', 't ', 't2', 'a/b', 'a:b', 'a%2Fb', 'résumé', '线程', `long-${'x'.repeat(1000)}`];
      await Promise.all(keys.map((key, i) => store.add(key, [`tool_${i}`])));
      for (const [i, key] of keys.entries()) expect(await store.get(key), key).toEqual([`tool_${i}`]);
      await store.remove('t', ['tool_1']);
      await store.clear('a/b');
      expect(await store.get('T')).toEqual(['tool_1']);
      expect(await store.get('a:b')).toEqual(['tool_5']);
    });

    check('ids are kept as given', undefined, async () => {
      const store = await create();
      const odd = [
        'with space',
        'Tool.Name',
        'ünïcödé',
        '天气',
        'quote"d',
        'back\\slash',
        '["json"]',
        'x'.repeat(2000),
      ];
      expect((await store.add('t', odd)).loaded).toEqual(odd);
      expect(await store.get('t')).toEqual(odd);
      await store.remove('t', ['quote"d']);
      expect(await store.get('t')).toEqual(odd.filter((id) => id !== 'quote"d'));
    });

    check('an add past maxToolsPerThread throws ToolLimitError and adds nothing', undefined, async () => {
      const store = await create({ maxToolsPerThread: 3 });
      await store.add('t', ['a', 'b']);
      const error = await rejection(store.add('t', ['b', 'c', 'd']));
      expect(ToolLimitError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ code: 'tool-limit', threadKey: 't', limit: 3, loadedCount: 2 });
      expect((error as ToolLimitError).requestedIds).toEqual(['c', 'd']);
      expect(await store.get('t')).toEqual(['a', 'b']);
      // Loaded ids can be added again, and the limit itself can be reached.
      expect(await store.add('t', ['a', 'c'])).toEqual({ loaded: ['a', 'b', 'c'], added: ['c'], alreadyLoaded: ['a'] });
      expect((await store.add('t', ['c'])).alreadyLoaded).toEqual(['c']);
      expect(ToolLimitError.isInstance(await rejection(store.add('t', ['d'])))).toBe(true);
    });

    check('the default limit is 256 tools per thread', undefined, async () => {
      const store = await create();
      const all = ids(DEFAULT_LIMIT);
      await store.add('t', all.slice(0, 200));
      expect((await store.add('t', all.slice(200))).loaded).toEqual(all);
      const error = await rejection(store.add('t', ['tool_0', 'one_too_many']));
      expect(error).toMatchObject({ code: 'tool-limit', limit: DEFAULT_LIMIT, loadedCount: DEFAULT_LIMIT });
      expect((error as ToolLimitError).requestedIds).toEqual(['one_too_many']);
      expect(await store.get('t')).toEqual(all);
    });

    check('a flood of ids in one add is refused whole', undefined, async () => {
      const store = await create({ maxToolsPerThread: 10 });
      await store.add('t', ['a']);
      const error = await rejection(store.add('t', ids(5_000)));
      expect(error).toMatchObject({ code: 'tool-limit', limit: 10, loadedCount: 1 });
      expect(await store.get('t')).toEqual(['a']);
      expect(ToolLimitError.isInstance(await rejection(store.add('fresh', ids(5_000))))).toBe(true);
      expect(await store.get('fresh')).toEqual([]);
    });

    check('tool ids that are not strings are refused with InvalidOptionError', undefined, async () => {
      const store = await create();
      await store.add('t', ['a']);
      for (const bad of [[1], ['b', null], 'abc', { 0: 'a' }] as unknown as string[][]) {
        for (const attempt of [store.add('t', bad), store.remove('t', bad)]) {
          const error = await rejection(attempt);
          expect(InvalidOptionError.isInstance(error), `${JSON.stringify(bad)}: ${String(error)}`).toBe(true);
          expect(error).toMatchObject({ option: 'toolIds' });
        }
      }
      expect(await store.get('t')).toEqual(['a']);
    });

    const atomic = unless(capabilities.atomicAdds, 'adds are not atomic (read-modify-write)');
    check('concurrent adds are all kept', atomic, async () => {
      const store = await create();
      const all = ids(30);
      const results = await Promise.all(all.map((id, i) => store.add('t', [id, all[(i + 7) % all.length]!, 'shared'])));
      const loaded = await store.get('t');
      expect([...loaded].sort()).toEqual([...all, 'shared'].sort());
      // Each id was reported added by exactly one of the adds.
      expect(results.flatMap((result) => result.added).sort()).toEqual([...all, 'shared'].sort());
    });

    check('concurrent adds hold the limit', atomic, async () => {
      const store = await create({ maxToolsPerThread: 5 });
      const outcomes = await Promise.allSettled(ids(20).map((id) => store.add('t', [id])));
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      expect(refused).toHaveLength(15);
      for (const reason of refused) expect(ToolLimitError.isInstance(reason), String(reason)).toBe(true);
      expect(await store.get('t')).toHaveLength(5);
    });

    const peer = options.peer?.bind(options);
    const shared = unless(peer !== undefined, 'no peer(): the store is not shared between instances');
    check('two instances share a thread', shared, async () => {
      const a = await create();
      const b = await peer!(a, {});
      await a.add('t', ['search_web']);
      expect(await b.get('t')).toEqual(['search_web']);
      expect(await b.add('t', ['search_web', 'get_weather'])).toEqual({
        loaded: ['search_web', 'get_weather'],
        added: ['get_weather'],
        alreadyLoaded: ['search_web'],
      });
      await b.remove('t', ['search_web']);
      expect(await a.get('t')).toEqual(['get_weather']);
      await a.clear('t');
      expect(await b.get('t')).toEqual([]);
    });

    check('concurrent adds from two instances are all kept, within the limit', shared ?? atomic, async () => {
      const a = await create();
      const b = await peer!(a, {});
      const all = ids(30);
      await Promise.all(all.map((id, i) => (i % 2 === 0 ? a : b).add('t', [id, all[(i + 13) % all.length]!])));
      expect([...(await a.get('t'))].sort()).toEqual([...all].sort());
      expect(await b.get('t')).toEqual(await a.get('t'));

      const limitedA = await create({ maxToolsPerThread: 5 });
      const limitedB = await peer!(limitedA, { maxToolsPerThread: 5 });
      const outcomes = await Promise.allSettled(
        ids(20).map((id, i) => (i % 2 === 0 ? limitedA : limitedB).add('t', [id])),
      );
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      expect(refused).toHaveLength(15);
      for (const reason of refused) expect(ToolLimitError.isInstance(reason), String(reason)).toBe(true);
      expect(await limitedA.get('t')).toHaveLength(5);
    });

    const ttl = unless(capabilities.ttl, 'the store has no idle timeout');
    check('an idle thread expires after ttlMs', ttl, async () => {
      const store = await create({ ttlMs: TTL_MS });
      await store.add('t', ['a']);
      await store.add('other', ['b']);
      await sleep(IDLE_MS);
      expect(await store.get('t')).toEqual([]);
      expect(await store.add('other', ['c'])).toEqual({ loaded: ['c'], added: ['c'], alreadyLoaded: [] });
    });

    check('get and add restart the idle timeout', ttl, async () => {
      const store = await create({ ttlMs: TTL_MS });
      await store.add('t', ['a']);
      await sleep(STEP_MS);
      expect(await store.get('t')).toEqual(['a']);
      await sleep(STEP_MS);
      expect(await store.get('t'), 'kept by the last get, though older than ttlMs').toEqual(['a']);
      await sleep(STEP_MS);
      await store.add('t', ['b']);
      await sleep(STEP_MS);
      expect(await store.get('t'), 'kept by the last add, though the last get is older than ttlMs').toEqual(['a', 'b']);
    });

    check(
      'unreadable stored data is StoreDataError, left as it is',
      unless(options.corrupt !== undefined, 'no corrupt(): the store keeps no serialised data'),
      async () => {
        const store = await create();
        for (const [thread, raw] of [
          ['not-json', '{oops'],
          ['object', '{"a":1}'],
          ['number-item', '["a",42]'],
          ['null', 'null'],
        ] as const) {
          await options.corrupt!(store, thread, raw);
          for (const attempt of [
            () => store.get(thread),
            () => store.add(thread, ['b']),
            () => store.remove(thread, ['a']),
          ]) {
            const error = await rejection(attempt());
            expect(StoreDataError.isInstance(error), `${thread}: ${String(error)}`).toBe(true);
          }
          // Still there: never reset silently.
          expect(StoreDataError.isInstance(await rejection(store.get(thread))), thread).toBe(true);
        }
      },
    );
  });
}
