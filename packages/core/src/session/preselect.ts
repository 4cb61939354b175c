import type { ToolCatalog } from '../catalog/catalog.js';
import { ToolLimitError } from '../errors.js';
import type { ToolIndex } from '../index/tool-index.js';
import { DEFAULT_MAX_TOOLS_PER_THREAD, type LoadedToolStore } from '../stores/loaded-tool-store.js';
import type { CatalogTool } from '../types.js';
import { describeValue } from '../values.js';
import type { ConversationEntry } from './conversation.js';
import { MODEL_INPUT_LIMITS, nameStart } from './model-input-limits.js';
import type { PolicyCheck, PolicyPhase } from './policy.js';
import type { PreselectContext, ResolvedPreselect } from './preselect-options.js';
import { RecentByThread } from './recent-by-thread.js';
import type { StepContext } from './step-context.js';
import type { StepRequest } from './step-types.js';
import { threadKey } from './thread-key.js';
import { latestUserMessage, userMessageText } from './user-messages.js';

/** The policy phases a preselected tool must pass: the model could have found and loaded it. */
const PRESELECT_PHASES: readonly PolicyPhase[] = ['search', 'load'];
/** Selections kept (by thread and message text) where preselections are read from the conversation. */
export const PRESELECT_CACHE_SIZE = 1_000;
/** The most recent user messages of a conversation whose preselections are offered. */
export const MAX_PRESELECTED_MESSAGES = 32;
/** The threads whose last preselected message is remembered (stored state). */
const MAX_THREADS = 1_000;
const TIMED_OUT = Symbol('timed out');

/** What a {@link Preselector} uses of its session's public API. */
export interface PreselectSession<TTool> {
  readonly catalog: ToolCatalog<TTool>;
  readonly index: ToolIndex<TTool>;
  isMetaTool(name: string): boolean;
  resolve(name: string): CatalogTool<TTool> | undefined;
  search(query: string, request: StepRequest, limit?: number): Promise<{ tool: CatalogTool<TTool>; score: number }[]>;
}

/** A thread's preselection under stored state: its last message, the work for it, and what it added. */
interface ThreadRecord {
  message: string;
  done: Promise<void>;
  /** Ids preselected (and new to the store) for this thread, for `OfferedTool.preselected`. */
  ids: Set<string>;
}

/**
 * Preselect, once per user message: selects tools for the latest user message (the search, or the
 * host's `select`), keeps only those the policy allows at search and load, and makes them loaded
 * tools of the thread. Under stored state (a thread id and a store) they are added to the store
 * like loads, once per message per thread; where loads are read from the conversation, they are
 * derived from its user messages, with the selection of each message kept in a bounded cache (by
 * thread and text; requests without a thread id share it by text, and the policy is asked again for
 * every request). Every selection that fails (throws, rejects, times out) preselects nothing: the
 * step proceeds.
 */
export class Preselector<TTool> {
  readonly #options: ResolvedPreselect<TTool>;
  readonly #session: PreselectSession<TTool>;
  readonly #steps: Pick<StepContext<TTool>, 'isDirect' | 'policyFor' | 'emit'>;
  readonly #threads = new RecentByThread<ThreadRecord>(MAX_THREADS);
  readonly #cache = new RecentByThread<Promise<string[]>>(PRESELECT_CACHE_SIZE);

  constructor(
    options: ResolvedPreselect<TTool>,
    session: PreselectSession<TTool>,
    steps: Pick<StepContext<TTool>, 'isDirect' | 'policyFor' | 'emit'>,
  ) {
    this.#options = options;
    this.#session = session;
    this.#steps = steps;
  }

  /**
   * Stored state: preselects for the request's latest user message into the thread's store, unless
   * this thread already did for that message (a later step of the same turn waits for it).
   */
  async record(request: StepRequest, key: string, store: LoadedToolStore): Promise<void> {
    const message = latestUserMessage(request.conversation);
    if (message === undefined) return;
    const previous = this.#threads.get(key);
    if (previous?.message === message) return previous.done;
    const record: ThreadRecord = { message, done: Promise.resolve(), ids: previous?.ids ?? new Set() };
    record.done = this.#addToStore(request, key, store, message, record.ids).catch((error: unknown) => {
      // The store failed: the next step of the thread tries again (and the step reports the error).
      if (this.#threads.get(key) === record) this.#threads.set(key, { ...record, message: '' });
      throw error;
    });
    this.#threads.set(key, record);
    return record.done;
  }

  /** Stored state: the ids preselected for a thread (in this process), for `OfferedTool.preselected`. */
  preselectedIn(key: string | undefined): ReadonlySet<string> {
    return (key === undefined ? undefined : this.#threads.get(key)?.ids) ?? new Set();
  }

  /**
   * Loads read from the conversation: the loaded tool names `derive` finds, with the preselections
   * of the conversation's user messages (the last {@link MAX_PRESELECTED_MESSAGES}) in their place,
   * so the order stays append-only; and the ids of the preselected tools among them.
   */
  async fromConversation(
    request: StepRequest,
    derive: (entries: readonly ConversationEntry[]) => readonly string[],
  ): Promise<{ names: string[]; preselected: Set<string> }> {
    const conversation = request.conversation ?? [];
    const names = new Set<string>();
    const preselected = new Set<string>();
    const add = (given: string, preselectedId?: string) => {
      // One name per tool, whichever way it was given (an id, or the model-facing name).
      const name = this.#session.resolve(given)?.toolName ?? given;
      if (names.has(name) || names.size >= DEFAULT_MAX_TOOLS_PER_THREAD) return;
      names.add(name);
      if (preselectedId !== undefined) preselected.add(preselectedId);
    };
    const segments = splitAtUserMessages(conversation);
    const recent = new Set(segments.flatMap((segment) => segment.message ?? []).slice(-MAX_PRESELECTED_MESSAGES));
    const selections = segments.map((segment) =>
      segment.message !== undefined && recent.has(segment.message)
        ? this.#cachedSelection(request, segment.message)
        : [],
    );
    const allowed = this.#steps.policyFor(request);
    for (const [index, segment] of segments.entries()) {
      for (const id of await selections[index]!) {
        const tool = this.#session.catalog.get(id);
        if (tool && (await allowed(tool, PRESELECT_PHASES))) add(tool.toolName, tool.id);
      }
      for (const name of derive(segment.entries)) add(name);
    }
    return { names: [...names], preselected };
  }

  /**
   * Forgets which messages of a thread were preselected for (stored state; the session clears the
   * store). Selections cached for the conversation are kept: the conversation is their state.
   */
  forget(key: string): void {
    this.#threads.delete(key);
  }

  /** {@link forget} for every thread key `matches` accepts (a thread under every resource). */
  forgetThreads(matches: (key: string) => boolean): void {
    this.#threads.deleteWhere(matches);
  }

  /** Forgets everything kept, cached selections too. */
  clear(): void {
    this.#threads.clear();
    this.#cache.clear();
  }

  /** Whether a tool may be preselected: a catalog tool, not pinned, not direct, not named like a meta-tool. */
  #eligible(tool: CatalogTool<TTool>): boolean {
    return (
      this.#session.catalog.get(tool.id) === tool &&
      !tool.pinned &&
      !this.#steps.isDirect(tool) &&
      !this.#session.isMetaTool(tool.toolName)
    );
  }

  async #addToStore(
    request: StepRequest,
    key: string,
    store: LoadedToolStore,
    message: string,
    ids: Set<string>,
  ): Promise<void> {
    const selected = await this.#select(request, message);
    if (selected.length === 0) return;
    const started = performance.now();
    try {
      const { added } = await store.add(key, selected);
      for (const id of added) ids.add(id);
    } catch (error) {
      // The thread is full: nothing is preselected, the step proceeds (its loads were refused alike).
      if (!ToolLimitError.isInstance(error)) throw error;
      this.#emit(request, { toolIds: [], failed: 'tool-limit', error }, started);
    }
  }

  /** The selection for a message, kept by thread and text (a failure too: it is not retried). */
  #cachedSelection(request: StepRequest, message: string): Promise<string[]> {
    const cacheKey = `${threadKey(request) ?? ''}\u0000${message}`;
    let selection = this.#cache.get(cacheKey);
    if (selection === undefined) {
      selection = this.#select(request, message);
      this.#cache.set(cacheKey, selection);
    }
    return selection;
  }

  /**
   * Selects tools for a message: the host's `select` or the search, within `timeoutMs`, keeping at
   * most `limit` eligible tools the policy allows. Never throws: a failure selects nothing, and
   * either way one `preselect` event says what happened.
   */
  async #select(request: StepRequest, message: string): Promise<string[]> {
    const started = performance.now();
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(resolve, this.#options.timeoutMs, TIMED_OUT);
    });
    try {
      const allowed = this.#steps.policyFor(request);
      const chosen = this.#options.select
        ? this.#chosenByHost(request, message, allowed, controller.signal)
        : this.#searched(message, allowed);
      const settled = await Promise.race([chosen, expiry]);
      if (settled === TIMED_OUT) {
        controller.abort(new Error(`preselect timed out after ${this.#options.timeoutMs} ms`));
        this.#emit(request, { toolIds: [], failed: 'timeout' }, started);
        return [];
      }
      this.#emit(request, { toolIds: settled.ids, unknown: settled.unknown }, started);
      return settled.ids;
    } catch (error) {
      this.#emit(request, { toolIds: [], failed: 'error', error }, started);
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  async #searched(message: string, allowed: PolicyCheck<TTool>): Promise<{ ids: string[]; unknown?: string[] }> {
    const { catalog, index } = this.#session;
    const hits = await index.search(nameStart(message, MODEL_INPUT_LIMITS.queryLength), {
      limit: this.#options.limit,
      minScore: this.#options.minScore,
      filter: async (id) => {
        const tool = catalog.get(id);
        return tool !== undefined && this.#eligible(tool) && (await allowed(tool, PRESELECT_PHASES));
      },
    });
    return { ids: hits.map((hit) => hit.id) };
  }

  async #chosenByHost(
    request: StepRequest,
    message: string,
    allowed: PolicyCheck<TTool>,
    signal: AbortSignal,
  ): Promise<{ ids: string[]; unknown: string[] }> {
    const context: PreselectContext<TTool> = {
      threadId: request.threadId,
      resourceId: request.resourceId,
      context: request.context,
      search: (query, limit) => this.#session.search(query, request, limit),
      signal,
    };
    const answer: unknown = await this.#options.select!(message, context);
    if (!Array.isArray(answer)) {
      throw new TypeError(`preselect.select must return an array of tool ids; got ${describeValue(answer)}.`);
    }
    const ids: string[] = [];
    const unknown: string[] = [];
    for (const item of answer.slice(0, MODEL_INPUT_LIMITS.namesPerCall) as unknown[]) {
      const tool = typeof item === 'string' ? this.#session.resolve(item) : undefined;
      if (tool === undefined) unknown.push(typeof item === 'string' ? nameStart(item) : describeValue(item));
      else if (ids.length < this.#options.limit && !ids.includes(tool.id) && this.#eligible(tool)) {
        if (await allowed(tool, PRESELECT_PHASES)) ids.push(tool.id);
      }
    }
    return { ids, unknown };
  }

  #emit(
    request: StepRequest,
    outcome: { toolIds: string[]; unknown?: string[]; failed?: 'error' | 'timeout' | 'tool-limit'; error?: unknown },
    started: number,
  ): void {
    this.#steps.emit({
      type: 'preselect',
      threadId: request.threadId,
      resourceId: request.resourceId,
      source: this.#options.select ? 'select' : 'search',
      toolIds: outcome.toolIds,
      ...(outcome.unknown?.length ? { unknown: outcome.unknown } : {}),
      ...(outcome.failed ? { failed: outcome.failed } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      latencyMs: performance.now() - started,
    });
  }
}

/** A conversation cut before each user message: the entries up to the next one, and the message. */
function splitAtUserMessages(
  conversation: readonly ConversationEntry[],
): { message?: string; entries: ConversationEntry[] }[] {
  const segments: { message?: string; entries: ConversationEntry[] }[] = [{ entries: [] }];
  for (const entry of conversation as readonly unknown[]) {
    const message = userMessageText(entry);
    if (message !== undefined) segments.push({ message, entries: [] });
    else segments.at(-1)!.entries.push(entry as ConversationEntry);
  }
  return segments;
}
