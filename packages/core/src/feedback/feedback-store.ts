// Where learned queries live: in this process, or in any shared key-value backend (Redis through
// `@toolscout/redis`), with the same bounds and merge rule in both.
import { InvalidOptionError, StoreUnavailableError, ToolscoutError } from '../errors.js';
import { failureReason, type KeyValueStore } from '../stores/key-value-store.js';
import { describeValue } from '../values.js';
import {
  decayedWeight,
  type FeedbackEntry,
  type FeedbackLimits,
  type FeedbackOutcome,
  MAX_STORED_ENTRIES,
  mergeFeedback,
  parseFeedbackEntries,
} from './feedback-entries.js';

/**
 * Where a session's learned queries live. `record` applies `mergeFeedback` under the limits it is
 * given; every method is async so shared stores fit.
 */
export interface FeedbackStore {
  /** Adds one call of `toolId` after a search for `query` (already normalized). */
  record(toolId: string, query: string, outcome: FeedbackOutcome, now: number, limits: FeedbackLimits): Promise<void>;
  /** Every kept entry, for the learned-query index. */
  entries(): Promise<FeedbackEntry[]>;
  /** Forgets what was learned for one tool. */
  clearTool(toolId: string): Promise<void>;
  /** Forgets everything learned. */
  clearAll(): Promise<void>;
}

/** Learned queries in this process: lost on restart, bounded by the limits. */
export class InMemoryFeedbackStore implements FeedbackStore {
  readonly #byTool = new Map<string, FeedbackEntry[]>();
  #count = 0;

  async record(
    toolId: string,
    query: string,
    outcome: FeedbackOutcome,
    now: number,
    limits: FeedbackLimits,
  ): Promise<void> {
    const before = this.#byTool.get(toolId) ?? [];
    const after = mergeFeedback(before, toolId, query, outcome, now, limits);
    this.#byTool.delete(toolId); // (re-inserted last: the least recently reinforced tools come first)
    this.#byTool.set(toolId, after);
    this.#count += after.length - before.length;
    if (this.#count > limits.maxQueries) this.#evict(now, limits);
  }

  /** Drops the weakest entries (decayed) until at most `maxQueries` remain. */
  #evict(now: number, limits: FeedbackLimits): void {
    const all = [...this.#byTool.values()].flat();
    all.sort((a, b) => decayedWeight(a, now, limits) - decayedWeight(b, now, limits));
    const drop = new Set(all.slice(0, all.length - limits.maxQueries));
    for (const [toolId, entries] of this.#byTool) {
      const kept = entries.filter((entry) => !drop.has(entry));
      if (kept.length === 0) this.#byTool.delete(toolId);
      else this.#byTool.set(toolId, kept);
    }
    this.#count = limits.maxQueries;
  }

  async entries(): Promise<FeedbackEntry[]> {
    return [...this.#byTool.values()].flat();
  }

  async clearTool(toolId: string): Promise<void> {
    this.#count -= this.#byTool.get(toolId)?.length ?? 0;
    this.#byTool.delete(toolId);
  }

  async clearAll(): Promise<void> {
    this.#byTool.clear();
    this.#count = 0;
  }
}

/** Options of `KeyValueFeedbackStore`. */
export interface KeyValueFeedbackStoreOptions {
  /** Put before every key of the store; `clearAll` deletes the keys it lists. Default `'toolscout:feedback:'`. */
  prefix?: string;
  /** What error messages call this store. Default `'key-value feedback store'`. */
  name?: string;
}

/**
 * Learned queries in a shared `KeyValueStore`: one key per tool (`prefix + 'tool:' + id`, a JSON
 * array of entries) and one listing the tools (`prefix + 'tools'`), both expiring `maxAgeMs` after
 * their last write. The list of tools is appended to atomically where the backend has
 * `appendUnique` (Redis); two votes for one tool from two processes at once may lose one of them
 * (read, merge, write); at most `maxQueries / maxQueriesPerTool` tools are kept.
 */
export class KeyValueFeedbackStore implements FeedbackStore {
  readonly #store: KeyValueStore;
  readonly #prefix: string;
  readonly #name: string;

  constructor(store: KeyValueStore, options: KeyValueFeedbackStoreOptions = {}) {
    if (typeof store?.get !== 'function' || typeof store.set !== 'function' || typeof store.delete !== 'function') {
      throw new InvalidOptionError(
        'store',
        `A KeyValueFeedbackStore needs a KeyValueStore; got ${describeValue(store)}.`,
      );
    }
    this.#store = store;
    this.#prefix = options.prefix ?? 'toolscout:feedback:';
    this.#name = options.name || 'key-value feedback store';
  }

  async record(
    toolId: string,
    query: string,
    outcome: FeedbackOutcome,
    now: number,
    limits: FeedbackLimits,
  ): Promise<void> {
    await this.#run(`recording feedback for tool ${JSON.stringify(toolId.slice(0, 80))}`, async () => {
      const maxTools = Math.max(1, Math.floor(limits.maxQueries / limits.maxQueriesPerTool));
      // full: what is learned already is kept, new tools wait for expiry
      if (!(await this.#list(toolId, maxTools, limits.maxAgeMs))) return;
      const key = this.#toolKey(toolId);
      const before = parseFeedbackEntries(parseJson(await this.#store.get(key)));
      const after = mergeFeedback(before, toolId, query, outcome, now, limits);
      await this.#store.set(key, JSON.stringify(after), { ttlMs: limits.maxAgeMs });
    });
  }

  /**
   * Lists `toolId` among the tools (refreshing the list's expiry) unless `maxTools` are listed
   * already; whether it is listed. Atomic with a backend's `appendUnique` (Redis), so two processes
   * listing two new tools at once both stay listed; read, add, write otherwise.
   */
  async #list(toolId: string, maxTools: number, ttlMs: number): Promise<boolean> {
    const key = `${this.#prefix}tools`;
    if (this.#store.appendUnique) {
      const { all } = await this.#store.appendUnique(key, [toolId], { ttlMs, maxValues: maxTools });
      return all.includes(toolId);
    }
    const tools = await this.#tools();
    if (!tools.includes(toolId)) {
      if (tools.length >= maxTools) return false;
      tools.push(toolId);
    }
    await this.#store.set(key, JSON.stringify(tools), { ttlMs });
    return true;
  }

  async entries(): Promise<FeedbackEntry[]> {
    return this.#run('reading the learned queries', async () => {
      const tools = await this.#tools();
      const values = await Promise.all(tools.map((id) => this.#store.get(this.#toolKey(id))));
      return values.flatMap((raw, i) =>
        parseFeedbackEntries(parseJson(raw)).filter((entry) => entry.toolId === tools[i]),
      );
    });
  }

  async clearTool(toolId: string): Promise<void> {
    await this.#run(`clearing feedback for tool ${JSON.stringify(toolId.slice(0, 80))}`, async () => {
      await this.#store.delete(this.#toolKey(toolId));
    });
  }

  async clearAll(): Promise<void> {
    await this.#run('clearing every learned query', async () => {
      const tools = await this.#tools();
      await Promise.all(tools.map((id) => this.#store.delete(this.#toolKey(id))));
      await this.#store.delete(`${this.#prefix}tools`);
    });
  }

  #toolKey(toolId: string): string {
    return `${this.#prefix}tool:${toolId}`;
  }

  /** The tool ids listed (strings only, each once, at most {@link MAX_STORED_ENTRIES}). */
  async #tools(): Promise<string[]> {
    const value = parseJson(await this.#store.get(`${this.#prefix}tools`));
    if (!Array.isArray(value)) return [];
    const ids = value.filter((id): id is string => typeof id === 'string' && id.length <= 1024);
    return [...new Set(ids)].slice(0, MAX_STORED_ENTRIES);
  }

  async #run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (ToolscoutError.isInstance(error)) throw error;
      throw new StoreUnavailableError(this.#name, operation, failureReason(error), { cause: error });
    }
  }
}

/** A stored JSON value, or undefined when there is none or it does not parse. */
function parseJson(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
