import {
  InvalidOptionError,
  StoreDataError,
  StoreUnavailableError,
  ToolLimitError,
  ToolscoutError,
  UnsupportedOperationError,
} from '../errors.js';
import { isKeyOfThread, threadKeyWithoutResource } from '../session/thread-key.js';
import { describeValue } from '../values.js';
import {
  type AddLoadedToolsResult,
  assertToolIds,
  countOption,
  DEFAULT_MAX_TOOLS_PER_THREAD,
  durationOption,
  type LoadedToolStore,
  mergeLoadedIds,
  uniqueIds,
} from './loaded-tool-store.js';

/** Expiry for a key-value write (or, for `get`, a refresh of it). */
export interface KeyValueTtlOptions {
  /** Time to live in ms; `undefined` or `0` = no expiry. */
  ttlMs?: number;
}

/** Options of `KeyValueStore.appendUnique`. */
export interface AppendUniqueOptions extends KeyValueTtlOptions {
  /**
   * The most values the array may hold after the append. When the append would go beyond it, the
   * backend appends nothing and returns the array as it is (so some requested values are missing
   * from `all`). A backend without this check is caught after the fact: what it appended is removed
   * again (not atomic).
   */
  maxValues?: number;
}

/**
 * A tiny async key-value interface that any shared backend (Redis, Valkey, a database, an edge KV)
 * can implement, so `KeyValueLoadedToolStore` can keep loaded tools there.
 *
 * Values written by `KeyValueLoadedToolStore` are JSON arrays of strings, e.g. `["a","b"]`;
 * `appendUnique` and `removeValues`, when implemented, read and write that same encoding at the same
 * key, so `get` sees their result.
 */
export interface KeyValueStore {
  /**
   * The value at `key`, or `undefined` when there is none (or it expired). With `ttlMs`, a backend
   * that can should also restart the key's expiry (sliding idle timeout); others may ignore it.
   */
  get(key: string, options?: KeyValueTtlOptions): Promise<string | undefined>;
  /** Writes `value` at `key`, replacing any earlier value and expiry. */
  set(key: string, value: string, options?: KeyValueTtlOptions): Promise<void>;
  /** Deletes `key`; no error when it does not exist. */
  delete(key: string): Promise<void>;
  /** Deletes every key that starts with `prefix`. Needed by `KeyValueLoadedToolStore.clearAll`. */
  deletePrefix?(prefix: string): Promise<void>;
  /**
   * The keys that start with `prefix` and end with `suffix` (both plain text, no patterns), in
   * batches, in any order (a key may come twice). Needed by `KeyValueLoadedToolStore.clearThread`,
   * which forgets a thread under every resource; a backend walks its keys for it (Redis: `SCAN`).
   */
  scanKeys?(prefix: string, suffix: string): AsyncIterable<readonly string[]>;
  /**
   * Atomically (across every client of the backend) appends the `values` that the JSON string array
   * at `key` does not hold yet, in order and each once, creating the key when missing, and sets the
   * expiry. Returns the whole array after the append and the values it added. When the existing
   * value is not a JSON array of strings, throws (preferably `StoreDataError`) and changes nothing;
   * beyond `maxValues`, appends nothing (see {@link AppendUniqueOptions}).
   */
  appendUnique?(
    key: string,
    values: readonly string[],
    options?: AppendUniqueOptions,
  ): Promise<{ all: string[]; added: string[] }>;
  /**
   * Atomically removes `values` from the JSON string array at `key` (deleting the key when it ends up
   * empty, keeping the expiry otherwise). Returns the array after the removal. Throws like
   * `appendUnique` on an unreadable value.
   */
  removeValues?(key: string, values: readonly string[]): Promise<{ all: string[] }>;
}

/** Options of `KeyValueLoadedToolStore`. */
export interface KeyValueLoadedToolStoreOptions {
  /**
   * Put before every thread key to make the backend key (`prefix + threadKey`); `clearAll` deletes
   * every key with this prefix, so give each store its own. Default `'toolscout:loaded:'`.
   */
  prefix?: string;
  /**
   * Idle timeout per thread, in ms: each `add` (and each `get`, when the backend can refresh expiry
   * on read; a `remove` without `removeValues` too) restarts it. `0` = never expire. Default 1 hour.
   */
  ttlMs?: number;
  /**
   * The most tools one thread may have loaded, as in `InMemoryLoadedToolStore`: an `add` that would
   * go beyond it throws `ToolLimitError` and adds nothing. Default 256.
   */
  maxToolsPerThread?: number;
  /**
   * What error messages call this store, e.g. `'Redis loaded-tool store'`. Default
   * `'key-value loaded-tool store'`.
   */
  name?: string;
}

const DEFAULT_PREFIX = 'toolscout:loaded:';
const DEFAULT_NAME = 'key-value loaded-tool store';
const DEFAULT_TTL_MS = 60 * 60 * 1000;

/**
 * Reads a stored loaded-tool list: a JSON array of strings. Anything else throws `StoreDataError`
 * naming the key; the value is never reset silently. Duplicates, if any, are dropped.
 */
export function parseLoadedToolIds(key: string, raw: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new StoreDataError(key, `not valid JSON (${preview(raw)})`, { cause: error });
  }
  if (!Array.isArray(value)) {
    throw new StoreDataError(key, `expected a JSON array of tool ids, got ${describeValue(value)} (${preview(raw)})`);
  }
  const badIndex = value.findIndex((item) => typeof item !== 'string');
  if (badIndex !== -1) {
    throw new StoreDataError(
      key,
      `expected a JSON array of tool ids (strings), but item ${badIndex} is ${describeValue(value[badIndex])} (${preview(raw)})`,
    );
  }
  return uniqueIds(value as string[]);
}

function preview(raw: string): string {
  return raw.length > 80 ? `${JSON.stringify(raw.slice(0, 80))}...` : JSON.stringify(raw);
}

/** A thread key or prefix for a message: quoted, and cut when long (keys can come from requests). */
export function quoteKey(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}...` : text);
}

/** Why a backend call failed, in words: its message, or its name when it has none (node-redis timeouts). */
export function failureReason(error: unknown): string {
  if (StoreUnavailableError.isInstance(error)) return error.reason;
  if (error instanceof Error) return error.message.trim() || `${error.name} (without a message)`;
  return String(error);
}

/** Checks what a backend's `appendUnique`/`removeValues` returned. */
function checkIds(key: string, ids: unknown, what: string): string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    throw new StoreDataError(key, `the backend's ${what} did not return an array of strings`);
  }
  return ids as string[];
}

/**
 * A `LoadedToolStore` over any `KeyValueStore`: one key per thread (`prefix + threadKey`) holding a
 * JSON array of tool ids. Several server instances on one backend share their threads' loads.
 *
 * Concurrency: when the backend implements `appendUnique` (and `removeValues`), adds (and removes)
 * are atomic across instances. Otherwise they read, modify and write the value: two instances
 * changing one thread at the same moment can lose one of the changes (the later write wins). One
 * conversation thread rarely loads tools from two instances at once, but prefer a backend with
 * `appendUnique` (e.g. `@toolscout/redis`) when it can.
 *
 * Errors: a backend that fails or does not answer gives `StoreUnavailableError` naming the store,
 * the operation and the backend's reason (its error as `cause`); an unreadable value gives
 * `StoreDataError`, and an add beyond `maxToolsPerThread` gives `ToolLimitError`.
 */
export class KeyValueLoadedToolStore implements LoadedToolStore {
  readonly #store: KeyValueStore;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #maxToolsPerThread: number;
  readonly #name: string;

  constructor(store: KeyValueStore, options: KeyValueLoadedToolStoreOptions = {}) {
    for (const option of ['prefix', 'name'] as const) {
      if (options[option] !== undefined && typeof options[option] !== 'string') {
        throw new InvalidOptionError(option, `Option "${option}" must be a string, got ${typeof options[option]}.`);
      }
    }
    this.#store = store;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#ttlMs = durationOption('ttlMs', options.ttlMs, DEFAULT_TTL_MS);
    this.#maxToolsPerThread = countOption('maxToolsPerThread', options.maxToolsPerThread, DEFAULT_MAX_TOOLS_PER_THREAD);
    this.#name = options.name || DEFAULT_NAME;
  }

  /** The backend key of a thread. */
  keyOf(threadKey: string): string {
    return this.#prefix + threadKey;
  }

  async get(threadKey: string): Promise<string[]> {
    return this.#run(`reading the loaded tools of thread ${quoteKey(threadKey)}`, () => this.#read(threadKey));
  }

  async add(threadKey: string, toolIds: readonly string[]): Promise<AddLoadedToolsResult> {
    assertToolIds(toolIds);
    const requested = uniqueIds(toolIds);
    if (requested.length === 0) return { loaded: await this.get(threadKey), added: [], alreadyLoaded: [] };
    const operation = `adding ${requested.length} tool(s) to thread ${quoteKey(threadKey)}`;
    return this.#run(operation, () => this.#add(threadKey, requested));
  }

  async #read(threadKey: string): Promise<string[]> {
    const key = this.keyOf(threadKey);
    const raw = await this.#store.get(key, this.#ttl());
    return raw === undefined ? [] : parseLoadedToolIds(key, raw);
  }

  async #add(threadKey: string, requested: string[]): Promise<AddLoadedToolsResult> {
    const key = this.keyOf(threadKey);
    const max = this.#maxToolsPerThread;
    if (requested.length > max) {
      // Over the limit whatever is loaded: refused without sending thousands of ids to the backend.
      const loaded = await this.#read(threadKey);
      throw new ToolLimitError(threadKey, max, loaded.length, mergeLoadedIds(loaded, requested).added);
    }

    if (this.#store.appendUnique) {
      const result = await this.#store.appendUnique(key, requested, { ...this.#ttl(), maxValues: max });
      const loaded = uniqueIds(checkIds(key, result.all, 'appendUnique'));
      const added = checkIds(key, result.added, 'appendUnique');
      if (loaded.length > max) {
        // The backend ignored maxValues: take back what it appended.
        await this.#store.removeValues?.(key, added);
        throw new ToolLimitError(threadKey, max, loaded.length - added.length, added);
      }
      const loadedSet = new Set(loaded);
      const refused = requested.filter((id) => !loadedSet.has(id));
      if (refused.length > 0) throw new ToolLimitError(threadKey, max, loaded.length, refused);
      const addedSet = new Set(added);
      return { loaded, added, alreadyLoaded: requested.filter((id) => !addedSet.has(id)) };
    }

    // Read-modify-write: see the class comment for the race.
    const raw = await this.#store.get(key);
    const current = raw === undefined ? [] : parseLoadedToolIds(key, raw);
    const result = mergeLoadedIds(current, requested);
    if (result.loaded.length > max) throw new ToolLimitError(threadKey, max, current.length, result.added);
    await this.#store.set(key, JSON.stringify(result.loaded), this.#ttl());
    return result;
  }

  async remove(threadKey: string, toolIds: readonly string[]): Promise<void> {
    assertToolIds(toolIds);
    if (toolIds.length === 0) return;
    const ids = uniqueIds(toolIds);
    await this.#run(`removing ${ids.length} tool(s) from thread ${quoteKey(threadKey)}`, () =>
      this.#remove(threadKey, ids),
    );
  }

  async #remove(threadKey: string, toolIds: readonly string[]): Promise<void> {
    const key = this.keyOf(threadKey);
    if (this.#store.removeValues) {
      const result = await this.#store.removeValues(key, toolIds);
      checkIds(key, result.all, 'removeValues');
      return;
    }
    // Read-modify-write: see the class comment for the race.
    const raw = await this.#store.get(key);
    if (raw === undefined) return;
    const current = parseLoadedToolIds(key, raw);
    const removed = new Set(toolIds);
    const kept = current.filter((id) => !removed.has(id));
    if (kept.length === current.length) return;
    if (kept.length === 0) await this.#store.delete(key);
    else await this.#store.set(key, JSON.stringify(kept), this.#ttl());
  }

  async clear(threadKey: string): Promise<void> {
    await this.#run(`clearing thread ${quoteKey(threadKey)}`, () => this.#store.delete(this.keyOf(threadKey)));
  }

  /**
   * Forgets the thread `threadId` under every resource: its key without a resource, and every key
   * under this store's prefix that ends in `/threadId` and is that thread's (see `isKeyOfThread`).
   * Needs a backend with `scanKeys` (it walks the backend's keys: a rare, administrative call), else
   * throws {@link UnsupportedOperationError} and clears nothing: pass the resource id to clear one key.
   */
  async clearThread(threadId: string): Promise<void> {
    const scanKeys = this.#store.scanKeys?.bind(this.#store);
    if (!scanKeys) {
      throw new UnsupportedOperationError(
        'clearThread',
        'Clearing a thread under every resource needs a KeyValueStore with scanKeys(prefix, suffix); this one has none. Clear it with its resource id (clearState(threadId, resourceId)), or add scanKeys to the store.',
      );
    }
    await this.#run(`clearing thread ${quoteKey(threadId)} under every resource`, async () => {
      await this.#store.delete(this.keyOf(threadKeyWithoutResource(threadId)));
      for await (const keys of scanKeys(this.#prefix, `/${threadId}`)) {
        for (const key of keys) {
          if (key.startsWith(this.#prefix) && isKeyOfThread(key.slice(this.#prefix.length), threadId)) {
            await this.#store.delete(key);
          }
        }
      }
    });
  }

  /** Deletes every key under this store's prefix. Needs a backend with `deletePrefix`, and a non-empty prefix. */
  async clearAll(): Promise<void> {
    if (!this.#store.deletePrefix) {
      throw new UnsupportedOperationError(
        'clearAll',
        'clearAll needs a KeyValueStore with deletePrefix(prefix); this one has none. Clear threads one by one with clear(threadKey), or add deletePrefix to the store.',
      );
    }
    if (this.#prefix === '') {
      throw new UnsupportedOperationError(
        'clearAll',
        'clearAll refuses to run with an empty prefix: it would delete every key of the backend. Give the store a prefix.',
      );
    }
    const deletePrefix = this.#store.deletePrefix.bind(this.#store);
    await this.#run(`clearing every thread under ${quoteKey(this.#prefix)}`, () => deletePrefix(this.#prefix));
  }

  /**
   * Runs one operation on the backend. Its own errors (bad data, the tool limit, bad options) pass
   * through; anything else (unreachable, timed out, refused) becomes `StoreUnavailableError`.
   */
  async #run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (ToolscoutError.isInstance(error) && !StoreUnavailableError.isInstance(error)) throw error;
      throw new StoreUnavailableError(this.#name, operation, failureReason(error), { cause: error });
    }
  }

  #ttl(): KeyValueTtlOptions | undefined {
    return this.#ttlMs > 0 ? { ttlMs: this.#ttlMs } : undefined;
  }
}
