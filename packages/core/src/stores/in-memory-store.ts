import { InvalidOptionError, ToolLimitError } from '../errors.js';
import { isKeyOfThread } from '../session/thread-key.js';
import {
  type AddLoadedToolsResult,
  assertToolIds,
  countOption,
  DEFAULT_MAX_TOOLS_PER_THREAD,
  durationOption,
  type LoadedToolStore,
  MAX_TIMER_MS,
  mergeLoadedIds,
} from './loaded-tool-store.js';

/** Options of `InMemoryLoadedToolStore`. */
export interface InMemoryLoadedToolStoreOptions {
  /**
   * Idle timeout per thread, in ms: a thread that is neither read (`get`) nor added to (`add`) for
   * this long is forgotten. Every `get` and `add` restarts it. `0` = never expire. Default 1 hour.
   */
  ttlMs?: number;
  /**
   * The most threads kept. Adding a new thread beyond it evicts the least recently used one, so a
   * flood of new threads cannot exhaust memory. Default 10,000.
   */
  maxThreads?: number;
  /**
   * The most tools one thread may have loaded. An `add` that would go beyond it throws
   * `ToolLimitError` and adds nothing (tools are never dropped silently: the model may be using
   * them). Default 256.
   */
  maxToolsPerThread?: number;
  /** The clock, in ms (default `Date.now`). For tests. */
  now?: () => number;
  /**
   * How often expired threads are swept, in ms, by a timer that does not keep the process alive.
   * `0` = no timer (expired threads are still never returned, and are dropped when touched or
   * evicted). Default 60,000 when `ttlMs` is set, else off.
   */
  cleanupIntervalMs?: number;
}

/** A snapshot of `InMemoryLoadedToolStore`, for telemetry. Expired threads are swept first. */
export interface InMemoryLoadedToolStoreStats {
  /** Threads held. */
  threads: number;
  /** Loaded ids held, summed over threads. */
  tools: number;
  /** The most tools held by one thread. */
  maxToolsInThread: number;
  /** How long ago (ms) the least recently used thread was last read or added to; absent when empty. */
  oldestAccessMs?: number;
  /** Threads evicted to stay within `maxThreads`, since creation. */
  evicted: number;
  /** Threads dropped because their TTL ran out, since creation. */
  expired: number;
}

interface ThreadEntry {
  ids: string[];
  lastAccess: number;
}

const DEFAULT_TTL_MS = 60 * 60 * 1000;
const DEFAULT_MAX_THREADS = 10_000;
const DEFAULT_CLEANUP_INTERVAL_MS = 60_000;

/**
 * Loaded tool ids in this process's memory: a least-recently-used map of threads with an idle
 * timeout. Use it for a single server instance; several instances need a shared store
 * (`KeyValueLoadedToolStore`, e.g. `@toolscout/redis`).
 */
export class InMemoryLoadedToolStore implements LoadedToolStore {
  readonly #ttlMs: number;
  readonly #maxThreads: number;
  readonly #maxToolsPerThread: number;
  readonly #now: () => number;
  /** Insertion order = recency order: every touch moves the thread to the end. */
  readonly #threads = new Map<string, ThreadEntry>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #evicted = 0;
  #expired = 0;

  constructor(options: InMemoryLoadedToolStoreOptions = {}) {
    this.#ttlMs = durationOption('ttlMs', options.ttlMs, DEFAULT_TTL_MS);
    this.#maxThreads = countOption('maxThreads', options.maxThreads, DEFAULT_MAX_THREADS);
    this.#maxToolsPerThread = countOption('maxToolsPerThread', options.maxToolsPerThread, DEFAULT_MAX_TOOLS_PER_THREAD);
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw new InvalidOptionError('now', 'Option "now" must be a function returning milliseconds.');
    }
    this.#now = options.now ?? Date.now;
    const cleanupIntervalMs = durationOption(
      'cleanupIntervalMs',
      options.cleanupIntervalMs,
      this.#ttlMs > 0 ? DEFAULT_CLEANUP_INTERVAL_MS : 0,
      MAX_TIMER_MS,
    );
    if (cleanupIntervalMs > 0 && this.#ttlMs > 0) {
      this.#timer = setInterval(() => this.cleanupNow(), cleanupIntervalMs);
      this.#timer.unref?.();
    }
  }

  /** The most threads kept (the `maxThreads` option): one more new thread evicts the least recently used. */
  get maxThreads(): number {
    return this.#maxThreads;
  }

  async get(threadKey: string): Promise<string[]> {
    const entry = this.#touch(threadKey);
    return entry ? [...entry.ids] : [];
  }

  async add(threadKey: string, toolIds: readonly string[]): Promise<AddLoadedToolsResult> {
    assertToolIds(toolIds);
    const entry = this.#touch(threadKey);
    const result = mergeLoadedIds(entry?.ids ?? [], toolIds);
    if (result.loaded.length > this.#maxToolsPerThread) {
      throw new ToolLimitError(threadKey, this.#maxToolsPerThread, entry?.ids.length ?? 0, result.added);
    }
    if (result.added.length === 0) return result;
    if (entry) {
      entry.ids = [...result.loaded];
    } else {
      this.#threads.set(threadKey, { ids: [...result.loaded], lastAccess: this.#now() });
      this.#evictOverflow();
    }
    return result;
  }

  /** Unloads ids without counting as activity (the idle timeout keeps running). */
  async remove(threadKey: string, toolIds: readonly string[]): Promise<void> {
    assertToolIds(toolIds);
    const entry = this.#live(threadKey);
    if (!entry) return;
    const removed = new Set(toolIds);
    entry.ids = entry.ids.filter((id) => !removed.has(id));
    if (entry.ids.length === 0) this.#threads.delete(threadKey);
  }

  async clear(threadKey: string): Promise<void> {
    this.#threads.delete(threadKey);
  }

  /** Forgets the thread under every resource, by a scan of the threads held (at most `maxThreads`). */
  async clearThread(threadId: string): Promise<void> {
    for (const threadKey of [...this.#threads.keys()]) {
      if (isKeyOfThread(threadKey, threadId)) this.#threads.delete(threadKey);
    }
  }

  async clearAll(): Promise<void> {
    this.#threads.clear();
  }

  /** Drops every expired thread now; returns how many were dropped. */
  cleanupNow(): number {
    if (this.#ttlMs === 0) return 0;
    const now = this.#now();
    let dropped = 0;
    for (const [threadKey, entry] of this.#threads) {
      if (this.#isExpired(entry, now)) {
        this.#threads.delete(threadKey);
        dropped += 1;
      }
    }
    this.#expired += dropped;
    return dropped;
  }

  /** Counts after sweeping expired threads. */
  stats(): InMemoryLoadedToolStoreStats {
    this.cleanupNow();
    let tools = 0;
    let maxToolsInThread = 0;
    let oldestAccess: number | undefined;
    for (const entry of this.#threads.values()) {
      tools += entry.ids.length;
      maxToolsInThread = Math.max(maxToolsInThread, entry.ids.length);
      if (oldestAccess === undefined || entry.lastAccess < oldestAccess) oldestAccess = entry.lastAccess;
    }
    const stats: InMemoryLoadedToolStoreStats = {
      threads: this.#threads.size,
      tools,
      maxToolsInThread,
      evicted: this.#evicted,
      expired: this.#expired,
    };
    if (oldestAccess !== undefined) stats.oldestAccessMs = Math.max(0, this.#now() - oldestAccess);
    return stats;
  }

  /** Stops the cleanup timer and forgets every thread. The store stays usable, without the timer. */
  dispose(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#threads.clear();
  }

  #isExpired(entry: ThreadEntry, now: number): boolean {
    return this.#ttlMs > 0 && now - entry.lastAccess >= this.#ttlMs;
  }

  /** The thread's entry unless missing or expired (an expired one is dropped). Does not touch it. */
  #live(threadKey: string): ThreadEntry | undefined {
    const entry = this.#threads.get(threadKey);
    if (!entry) return undefined;
    if (this.#isExpired(entry, this.#now())) {
      this.#threads.delete(threadKey);
      this.#expired += 1;
      return undefined;
    }
    return entry;
  }

  /** Like `#live`, and marks the thread as just used (restarts its TTL, makes it most recent). */
  #touch(threadKey: string): ThreadEntry | undefined {
    const entry = this.#live(threadKey);
    if (!entry) return undefined;
    entry.lastAccess = this.#now();
    this.#threads.delete(threadKey);
    this.#threads.set(threadKey, entry);
    return entry;
  }

  #evictOverflow(): void {
    for (const threadKey of this.#threads.keys()) {
      if (this.#threads.size <= this.#maxThreads) return;
      this.#threads.delete(threadKey);
      this.#evicted += 1;
    }
  }
}
