import { describe, expect, it } from 'vitest';
import {
  InvalidOptionError,
  StoreDataError,
  StoreUnavailableError,
  ToolLimitError,
  ToolscoutError,
} from '../errors.js';
import {
  KeyValueLoadedToolStore,
  type KeyValueStore,
  type KeyValueTtlOptions,
  parseLoadedToolIds,
} from './key-value-store.js';

/** A Map-backed KeyValueStore with expiry on a hand-driven clock; the atomic methods can be left out. */
class MapKeyValueStore implements KeyValueStore {
  readonly data = new Map<string, { value: string; expiresAt: number | undefined }>();
  now = 0;
  readonly calls: string[] = [];
  appendUnique?: KeyValueStore['appendUnique'];
  removeValues?: KeyValueStore['removeValues'];

  /** `ignoreMaxValues`: a backend written before `maxValues` existed, which appends beyond it. */
  constructor(options: { atomic: boolean; ignoreMaxValues?: boolean }) {
    if (options.atomic) {
      this.appendUnique = async (key, values, ttl) => {
        this.calls.push('appendUnique');
        const raw = this.#read(key);
        const all = raw === undefined ? [] : parseLoadedToolIds(key, raw);
        const added = values.filter((value, i) => !all.includes(value) && values.indexOf(value) === i);
        const max = options.ignoreMaxValues ? undefined : ttl?.maxValues;
        if (max !== undefined && all.length + added.length > max) return { all, added: [] };
        all.push(...added);
        this.#write(key, JSON.stringify(all), ttl);
        return { all, added };
      };
      this.removeValues = async (key, values) => {
        this.calls.push('removeValues');
        const raw = this.#read(key);
        if (raw === undefined) return { all: [] };
        const all = parseLoadedToolIds(key, raw).filter((id) => !values.includes(id));
        if (all.length === 0) this.data.delete(key);
        else this.data.set(key, { value: JSON.stringify(all), expiresAt: this.data.get(key)?.expiresAt });
        return { all };
      };
    }
  }

  async get(key: string, ttl?: KeyValueTtlOptions): Promise<string | undefined> {
    this.calls.push('get');
    const value = this.#read(key);
    if (value !== undefined && ttl?.ttlMs) this.#write(key, value, ttl);
    return value;
  }

  async set(key: string, value: string, ttl?: KeyValueTtlOptions): Promise<void> {
    this.calls.push('set');
    this.#write(key, value, ttl);
  }

  async delete(key: string): Promise<void> {
    this.calls.push('delete');
    this.data.delete(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (const key of [...this.data.keys()]) if (key.startsWith(prefix)) this.data.delete(key);
  }

  #read(key: string): string | undefined {
    const entry = this.data.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.now) {
      this.data.delete(key);
      return undefined;
    }
    return entry?.value;
  }

  #write(key: string, value: string, ttl?: KeyValueTtlOptions): void {
    this.data.set(key, { value, expiresAt: ttl?.ttlMs ? this.now + ttl.ttlMs : undefined });
  }
}

describe.each([
  { mode: 'with appendUnique/removeValues', atomic: true },
  { mode: 'read-modify-write', atomic: false },
])('KeyValueLoadedToolStore ($mode)', ({ atomic }) => {
  it('keeps ids in load order without duplicates, as a JSON array under prefix + thread key', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend);
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
    expect(backend.data.get('toolscout:loaded:t1')?.value).toBe('["b","a","c","d"]');
    expect(store.keyOf('t1')).toBe('toolscout:loaded:t1');
    expect(await store.get('t2')).toEqual([]);
    expect(backend.calls.includes('appendUnique')).toBe(atomic);
  });

  it('does not write for an empty add', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend);
    expect(await store.add('t', [])).toEqual({ loaded: [], added: [], alreadyLoaded: [] });
    expect(backend.data.size).toBe(0);
  });

  it('removes ids and deletes the key when nothing is left', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend);
    await store.add('t', ['a', 'b', 'c']);
    await store.remove('t', ['b', 'missing']);
    expect(await store.get('t')).toEqual(['a', 'c']);
    await store.remove('never-loaded', ['a']);
    await store.remove('t', ['a', 'c']);
    expect(backend.data.has('toolscout:loaded:t')).toBe(false);
    expect(backend.calls.includes('removeValues')).toBe(atomic);
  });

  it('expires an idle thread after ttlMs, each add and get restarting the clock', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend, { ttlMs: 1000 });
    await store.add('t', ['a']);
    backend.now = 900;
    expect(await store.get('t')).toEqual(['a']); // refreshed: now expires at 1900
    backend.now = 1800;
    await store.add('t', ['b']); // refreshed: now expires at 2800
    backend.now = 2700;
    expect(await store.get('t')).toEqual(['a', 'b']);
    backend.now = 3700;
    expect(await store.get('t')).toEqual([]);
  });

  it('writes without expiry when ttlMs is 0', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend, { ttlMs: 0 });
    await store.add('t', ['a']);
    expect(backend.data.get('toolscout:loaded:t')?.expiresAt).toBeUndefined();
    backend.now = Number.MAX_SAFE_INTEGER;
    expect(await store.get('t')).toEqual(['a']);
  });

  it('lets two instances on one backend see each other’s loads', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const serverA = new KeyValueLoadedToolStore(backend);
    const serverB = new KeyValueLoadedToolStore(backend);
    await serverA.add('t', ['a']);
    expect(await serverB.add('t', ['a', 'b'])).toEqual({ loaded: ['a', 'b'], added: ['b'], alreadyLoaded: ['a'] });
    expect(await serverA.get('t')).toEqual(['a', 'b']);
    await serverA.clear('t');
    expect(await serverB.get('t')).toEqual([]);
  });

  it.each([
    ['not JSON', '{oops', /not valid JSON/],
    ['an object', '{"a":1}', /expected a JSON array of tool ids, got an object/],
    ['a string', '"a"', /got a string/],
    ['numbers in the array', '["a",2]', /item 1 is a number/],
    ['null', 'null', /got null/],
  ])('reports a stored value that is %s, naming the key, and leaves it as it is', async (_, raw, problem) => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend, { prefix: 'app:' });
    backend.data.set('app:t', { value: raw, expiresAt: undefined });
    for (const attempt of [() => store.get('t'), () => store.add('t', ['a']), () => store.remove('t', ['a'])]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(StoreDataError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'store-data', key: 'app:t' });
      expect((error as Error).message).toContain('"app:t"');
      expect((error as Error).message).toMatch(problem);
    }
    expect(backend.data.get('app:t')?.value).toBe(raw);
  });

  it('caps a thread at 256 tools by default, refusing the add beyond it whole, like the in-memory store', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend);
    const ids = Array.from({ length: 256 }, (_, i) => `tool-${i}`);
    await store.add('t', ids.slice(0, 250));
    const error = await store.add('t', ['tool-1', ...ids.slice(250), 'extra']).catch((e: unknown) => e);
    expect(ToolLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ threadKey: 't', limit: 256, loadedCount: 250 });
    expect(await store.get('t')).toEqual(ids.slice(0, 250));
    expect((await store.add('t', ids.slice(250))).loaded).toEqual(ids);
    await expect(store.add('t', ['extra'])).rejects.toThrow(/limit of 256 \(maxToolsPerThread\)/);
  });

  it('refuses a flood of ids in one add without sending it to the backend', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const store = new KeyValueLoadedToolStore(backend, { maxToolsPerThread: 3 });
    await store.add('t', ['a']);
    backend.calls.length = 0;
    const flood = Array.from({ length: 10_000 }, (_, i) => `id-${i}`);
    const error = await store.add('t', flood).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'tool-limit', limit: 3, loadedCount: 1 });
    expect(backend.calls).toEqual(['get']);
    expect(await store.get('t')).toEqual(['a']);
  });

  it('clearAll deletes only its own prefix', async () => {
    const backend = new MapKeyValueStore({ atomic });
    const mine = new KeyValueLoadedToolStore(backend, { prefix: 'app1:' });
    const theirs = new KeyValueLoadedToolStore(backend, { prefix: 'app2:' });
    await mine.add('t1', ['a']);
    await mine.add('t2', ['a']);
    await theirs.add('t1', ['b']);
    await backend.set('unrelated', 'x');
    await mine.clearAll();
    expect(await mine.get('t1')).toEqual([]);
    expect(await mine.get('t2')).toEqual([]);
    expect(await theirs.get('t1')).toEqual(['b']);
    expect(await backend.get('unrelated')).toBe('x');
  });
});

describe('KeyValueLoadedToolStore', () => {
  it('uses appendUnique when the backend has it, and reads nothing first', async () => {
    const backend = new MapKeyValueStore({ atomic: true });
    const store = new KeyValueLoadedToolStore(backend);
    await store.add('t', ['a']);
    expect(backend.calls).toEqual(['appendUnique']);
  });

  it('keeps concurrent adds from one instance when the backend appends atomically', async () => {
    const backend = new MapKeyValueStore({ atomic: true });
    const store = new KeyValueLoadedToolStore(backend);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.add('t', [`tool-${i % 10}`, 'shared'])));
    const loaded = await store.get('t');
    expect(new Set(loaded)).toEqual(new Set(['shared', ...Array.from({ length: 10 }, (_, i) => `tool-${i}`)]));
    expect(loaded).toHaveLength(11);
  });

  it('rejects a backend whose appendUnique returns something other than strings', async () => {
    const backend: KeyValueStore = {
      get: async () => undefined,
      set: async () => {},
      delete: async () => {},
      appendUnique: async () => ({ all: [1, 2] as unknown as string[], added: [] }),
    };
    await expect(new KeyValueLoadedToolStore(backend).add('t', ['a'])).rejects.toThrow(StoreDataError);
  });

  it('clearAll needs deletePrefix and a non-empty prefix', async () => {
    const backend = new MapKeyValueStore({ atomic: false });
    const withoutDeletePrefix: KeyValueStore = {
      get: (key) => backend.get(key),
      set: (key, value) => backend.set(key, value),
      delete: (key) => backend.delete(key),
    };
    const error = await new KeyValueLoadedToolStore(withoutDeletePrefix).clearAll().catch((e: unknown) => e);
    expect(ToolscoutError.isInstance(error) && error.code).toBe('unsupported');
    expect((error as Error).message).toContain('deletePrefix');

    await backend.set('other', 'x');
    await expect(new KeyValueLoadedToolStore(backend, { prefix: '' }).clearAll()).rejects.toThrow(/empty prefix/);
    expect(await backend.get('other')).toBe('x');
  });

  it('takes back what a backend that ignores maxValues appended beyond the limit', async () => {
    const backend = new MapKeyValueStore({ atomic: true, ignoreMaxValues: true });
    const store = new KeyValueLoadedToolStore(backend, { maxToolsPerThread: 2 });
    await store.add('t', ['a']);
    const error = await store.add('t', ['b', 'c']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'tool-limit', limit: 2, loadedCount: 1, requestedIds: ['b', 'c'] });
    expect(await store.get('t')).toEqual(['a']);
  });

  it('turns a failing backend into StoreUnavailableError naming the store, the operation and the reason', async () => {
    const timeout = Object.assign(new Error(''), { name: 'TimeoutError' });
    const down: KeyValueStore = {
      get: () => Promise.reject(timeout),
      set: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
      delete: () => Promise.reject(new Error('READONLY You can not write against a read only replica.')),
      deletePrefix: () => Promise.reject('a string'),
    };
    const store = new KeyValueLoadedToolStore(down, { name: 'Valkey loaded-tool store' });
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => store.get('T'), 'reading the loaded tools of thread "T"', 'TimeoutError (without a message)'],
      [() => store.add('T', ['a', 'b', 'a']), 'adding 2 tool(s) to thread "T"', 'TimeoutError (without a message)'],
      [() => store.remove('T', ['a']), 'removing 1 tool(s) from thread "T"', 'TimeoutError (without a message)'],
      [() => store.clear('T'), 'clearing thread "T"', 'READONLY You can not write against a read only replica.'],
      [() => store.clearAll(), 'clearing every thread under "toolscout:loaded:"', 'a string'],
    ];
    for (const [attempt, operation, reason] of cases) {
      const error = await attempt().catch((e: unknown) => e);
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'store-unavailable', store: 'Valkey loaded-tool store', operation, reason });
      expect((error as Error).message).toBe(
        `The Valkey loaded-tool store failed while ${operation}: ${reason}. Check that the store is running and reachable; the call can be retried once it answers.`,
      );
      expect((error as Error).cause).toBeDefined();
    }
    // A long thread key (it can come from a request) is cut in the message.
    const error = await store.get('x'.repeat(10_000)).catch((e: unknown) => e);
    expect((error as Error).message.length).toBeLessThan(400);
  });

  it('keeps its own errors as they are: bad data stays StoreDataError', async () => {
    const backend = new MapKeyValueStore({ atomic: false });
    await backend.set('toolscout:loaded:t', 'nope');
    const error = await new KeyValueLoadedToolStore(backend).get('t').catch((e: unknown) => e);
    expect(StoreDataError.isInstance(error)).toBe(true);
  });

  it('validates options', () => {
    const backend = new MapKeyValueStore({ atomic: false });
    for (const maxToolsPerThread of [0, -1, 1.5, Number.NaN]) {
      expect(() => new KeyValueLoadedToolStore(backend, { maxToolsPerThread })).toThrow(/"maxToolsPerThread"/);
    }
    expect(() => new KeyValueLoadedToolStore(backend, { name: 5 as unknown as string })).toThrow(/"name"/);
    for (const ttlMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new KeyValueLoadedToolStore(backend, { ttlMs })).toThrow(InvalidOptionError);
    }
    expect(() => new KeyValueLoadedToolStore(backend, { prefix: 3 as unknown as string })).toThrow(/"prefix"/);
  });

  it('parseLoadedToolIds drops duplicates', () => {
    expect(parseLoadedToolIds('k', '["a","b","a"]')).toEqual(['a', 'b']);
    expect(parseLoadedToolIds('k', '[]')).toEqual([]);
  });
});
