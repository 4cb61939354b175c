// Learning from use (opt-in, the session's `feedback` option): which tool the model called after a
// search, per thread, recorded as evidence for that tool, bounded per thread, per tool and in all.
import { InvalidOptionError } from '../errors.js';
import { RecentByThread } from '../session/recent-by-thread.js';
import { describeValue, isRecord } from '../values.js';
import {
  DEFAULT_FEEDBACK_LIMITS,
  type FeedbackEntry,
  type FeedbackLimits,
  type FeedbackOutcome,
  feedbackBound,
  mergeFeedback,
  normalizeFeedbackQuery,
} from './feedback-entries.js';
import { type FeedbackStore, InMemoryFeedbackStore } from './feedback-store.js';
import { LearnedQueries } from './learned-queries.js';

/** Options of the session's `feedback` option; every bound has a default (see the README). */
export interface FeedbackOptions {
  /** Where learned queries live (e.g. a `KeyValueFeedbackStore` on Redis). Default: in this process. */
  store?: FeedbackStore;
  /** How far learned evidence can move a score: `1 − (1 − keyword) × e^(−weight × learned)`. Default 2. */
  weight?: number;
  /** Characters of a query kept. Default 256. */
  maxQueryLength?: number;
  /** Learned queries kept per tool (the strongest). Default 32. */
  maxQueriesPerTool?: number;
  /** Learned queries kept in all (the strongest). Default 10,000. */
  maxQueries?: number;
  /** Tools one thread may record a call of (each once, for the search before its first call). Default 16. */
  maxCallsPerThread?: number;
  /** Time in ms after which a learned query's evidence counts half. Default 30 days. */
  halfLifeMs?: number;
  /** Time in ms after its last reinforcement at which a learned query is dropped. Default 180 days. */
  maxAgeMs?: number;
  /** How often in ms the learned queries are re-read from the store (other processes' writes, decay). Default 60,000. */
  refreshMs?: number;
  /** The time in ms since the epoch that records are stamped with and evidence decays by. Default `Date.now`. */
  clock?: () => number;
  /** Receives the store's errors (feedback never fails a search or a call). */
  onError?: (error: unknown) => void;
}

/** The threads whose last search and recorded calls are remembered. */
const MAX_THREADS = 1000;
const DEFAULTS = { weight: 2, maxCallsPerThread: 16, refreshMs: 60_000 };

/** What one thread has done: its last search and the tools it has recorded a call of. */
interface ThreadFeedback {
  query: string | undefined;
  recorded: Set<string>;
}

/**
 * A session's learning from use: remembers each thread's last search, records a catalog tool the
 * model then calls (query -> tool id, with the call's outcome) in a {@link FeedbackStore}, and scores
 * a query against what was learned for the session's search to fuse with the keyword ranking.
 */
export class ToolFeedback {
  readonly store: FeedbackStore;
  /** How far learned evidence can move a score (see `fuseFeedback`). */
  readonly weight: number;
  readonly limits: FeedbackLimits;
  readonly #maxCallsPerThread: number;
  readonly #refreshMs: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #clock: () => number;
  readonly #threads = new RecentByThread<ThreadFeedback>(MAX_THREADS);
  /** The entries last read from the store, by tool, with this process's records since merged in. */
  #entries: Map<string, FeedbackEntry[]> | undefined;
  #readAt = 0;
  #reading: Promise<void> | undefined;
  /** Bumped by every local change, so a read that raced one is read again at the next search. */
  #generation = 0;
  /** The index of `#entries` (undefined: to rebuild), and when it was built (decay moves on). */
  #learned: LearnedQueries | undefined;
  #builtAt = 0;
  /** The terms of learned queries, kept between rebuilds. */
  readonly #terms = new Map<string, readonly string[]>();

  /**
   * `ownTerms` gives a catalog tool's own indexed terms (undefined for a tool not in the catalog),
   * which its learned queries do not count again (see {@link LearnedQueries}).
   */
  constructor(
    options: true | FeedbackOptions,
    readonly ownTerms: (toolId: string) => ReadonlySet<string> | undefined,
  ) {
    const given: FeedbackOptions = options === true ? {} : options;
    if (!isRecord(options === true ? {} : options)) {
      throw new InvalidOptionError('feedback', `feedback must be true or an object; got ${describeValue(options)}.`);
    }
    if (given.store !== undefined && typeof given.store?.record !== 'function') {
      throw new InvalidOptionError(
        'feedback.store',
        `feedback.store must be a FeedbackStore; got ${describeValue(given.store)}.`,
      );
    }
    if (given.clock !== undefined && typeof given.clock !== 'function') {
      throw new InvalidOptionError(
        'feedback.clock',
        `feedback.clock must be a function; got ${describeValue(given.clock)}.`,
      );
    }
    if (given.onError !== undefined && typeof given.onError !== 'function') {
      throw new InvalidOptionError(
        'feedback.onError',
        `feedback.onError must be a function; got ${describeValue(given.onError)}.`,
      );
    }
    this.store = given.store ?? new InMemoryFeedbackStore();
    this.weight = feedbackBound('weight', given.weight, DEFAULTS.weight, true);
    const d = DEFAULT_FEEDBACK_LIMITS;
    this.limits = Object.freeze({
      maxQueryLength: feedbackBound('maxQueryLength', given.maxQueryLength, d.maxQueryLength),
      maxQueriesPerTool: feedbackBound('maxQueriesPerTool', given.maxQueriesPerTool, d.maxQueriesPerTool),
      maxQueries: feedbackBound('maxQueries', given.maxQueries, d.maxQueries),
      halfLifeMs: feedbackBound('halfLifeMs', given.halfLifeMs, d.halfLifeMs, true),
      maxAgeMs: feedbackBound('maxAgeMs', given.maxAgeMs, d.maxAgeMs, true),
    });
    this.#maxCallsPerThread = feedbackBound('maxCallsPerThread', given.maxCallsPerThread, DEFAULTS.maxCallsPerThread);
    this.#refreshMs = feedbackBound('refreshMs', given.refreshMs, DEFAULTS.refreshMs, true);
    this.#onError = given.onError;
    this.#clock = given.clock ?? Date.now;
  }

  /** Remembers a thread's search (`search_tools`) as the query its next calls answer. */
  searched(threadKey: string, query: string): void {
    const thread = this.#threads.get(threadKey) ?? { query: undefined, recorded: new Set<string>() };
    thread.query = normalizeFeedbackQuery(query, this.limits.maxQueryLength) || undefined;
    this.#threads.set(threadKey, thread);
  }

  /**
   * Records a catalog tool the model called in a thread, for the thread's last search: each tool
   * once per thread (one conversation is one vote, however often it searches and calls), at most
   * `maxCallsPerThread` tools per thread. Never throws (store errors go to `onError`).
   */
  async called(threadKey: string, toolId: string, outcome: FeedbackOutcome): Promise<void> {
    const thread = this.#threads.get(threadKey);
    if (thread?.query === undefined || thread.recorded.size >= this.#maxCallsPerThread) return;
    if (thread.recorded.has(toolId)) return;
    thread.recorded.add(toolId);
    try {
      await this.record(thread.query, toolId, outcome);
    } catch (error) {
      this.#onError?.(error);
    }
  }

  /** Records that a search for `query` was answered by calling `toolId` (for hosts that run calls themselves, or import logs). */
  async record(query: string, toolId: string, outcome: FeedbackOutcome = 'ok'): Promise<void> {
    if (typeof query !== 'string' || typeof toolId !== 'string' || toolId === '') {
      throw new InvalidOptionError('feedback', 'feedback.record needs a query and a tool id, both strings.');
    }
    if (outcome !== 'ok' && outcome !== 'failed') {
      throw new InvalidOptionError('outcome', `outcome must be 'ok' or 'failed'; got ${describeValue(outcome)}.`);
    }
    const normalized = normalizeFeedbackQuery(query, this.limits.maxQueryLength);
    if (normalized === '') return;
    const now = this.#clock();
    await this.store.record(toolId, normalized, outcome, now, this.limits);
    // The same merge here, and the tool re-indexed, so the next search need not read the store back.
    const entries = this.#entries;
    if (entries) {
      const merged = mergeFeedback(entries.get(toolId) ?? [], toolId, normalized, outcome, now, this.limits);
      entries.set(toolId, merged);
      this.#learned?.replaceTool(toolId, merged, now);
    }
    this.#generation++;
  }

  /** The tools what was learned points to for `query`, scored in [0, 1], at most `limit` (see {@link LearnedQueries.score}). */
  async scores(query: string, limit: number): Promise<Map<string, number>> {
    const learned = await this.#current();
    return learned ? learned.score(query.slice(0, this.limits.maxQueryLength), limit) : new Map();
  }

  /** Forgets what was learned for one tool (in the store). */
  async clearTool(toolId: string): Promise<void> {
    await this.store.clearTool(toolId);
    this.#entries?.delete(toolId);
    this.#learned?.replaceTool(toolId, [], this.#clock());
    this.#generation++;
  }

  /** Forgets everything learned (in the store) and every thread's last search. */
  async clear(): Promise<void> {
    this.#threads.clear();
    await this.store.clearAll();
    this.#entries = new Map();
    this.#generation++;
    this.#learned = undefined;
  }

  /** Forgets the last search and recorded calls of every thread key that `matches`. */
  forgetThreads(matches: (key: string) => boolean): void {
    this.#threads.deleteWhere(matches);
  }

  /**
   * The learned-query index: the store read again every `refreshMs` (other processes' records,
   * expiry), the index rebuilt after a change or a read, and every `refreshMs` as evidence decays;
   * while the store fails, what was read last.
   */
  async #current(): Promise<LearnedQueries | undefined> {
    const now = this.#clock();
    if (this.#entries === undefined || now - this.#readAt >= this.#refreshMs) {
      this.#reading ??= this.#read(now).finally(() => {
        this.#reading = undefined;
      });
      await this.#reading;
    }
    if (this.#entries === undefined) return undefined;
    if (this.#learned === undefined || now - this.#builtAt >= this.#refreshMs) {
      if (this.#terms.size > 2 * this.limits.maxQueries) this.#terms.clear();
      const all = [...this.#entries.values()].flat();
      this.#learned = new LearnedQueries(all, now, this.limits, this.ownTerms, this.#terms);
      this.#builtAt = now;
    }
    return this.#learned;
  }

  async #read(now: number): Promise<void> {
    const generation = this.#generation;
    try {
      const entries = await this.store.entries();
      const byTool = new Map<string, FeedbackEntry[]>();
      for (const entry of entries) byTool.set(entry.toolId, [...(byTool.get(entry.toolId) ?? []), entry]);
      this.#entries = byTool;
      // A local change made during the read may be missing from it: read again at the next search.
      this.#readAt = generation === this.#generation ? now : 0;
      this.#learned = undefined;
    } catch (error) {
      this.#onError?.(error);
      this.#readAt = now; // (retried after refreshMs, not at every search)
    }
  }
}
