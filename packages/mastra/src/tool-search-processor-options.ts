import type { RequestContext } from '@mastra/core/request-context';
import type { Embedder, LoadedToolStore, PolicyPhase, ToolSearchMode, ToolSearchSessionOptions } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { describeValue, isIterable, isRecord, MAX_TIMER_MS } from '@toolscout/core/internal';
import { fromMastraTools, type MastraTool, type MastraToolInput } from './from-mastra-tools.js';

/**
 * When the filter is asked: `search` (may the tool appear in results?), `load` (may it be loaded?),
 * `active` (may a loaded or pinned tool be offered at this step?) — the phases of Mastra's processor —
 * and `call` (may this call run? asked with the call's `input`), which Mastra's processor lacks.
 */
export type ToolSearchFilterPhase = PolicyPhase;

/** What the `filter` option is asked about. A superset of Mastra's `ToolSearchFilterArgs`. */
export interface ToolSearchFilterArgs {
  /** The tool's id (its record key when it has none). */
  toolName: string;
  /**
   * The tool as you gave it; for a descriptor without a Mastra tool, its catalog entry (with `tags`
   * and `source`; `processor.session.catalog.get(toolName)` has it for every tool).
   */
  tool: MastraTool;
  /** The request's context, as Mastra passes it to processors and tools. */
  requestContext?: RequestContext;
  /** What is being decided: `search`, `load`, `active` or `call`. */
  phase: ToolSearchFilterPhase;
  /** The request's thread (`mastra__threadId`, or the memory thread). */
  threadId?: string;
  /** The request's resource (`mastra__resourceId`, or the memory resource). */
  resourceId?: string;
  /** For `call`: the arguments of the call. */
  input?: unknown;
  /**
   * Aborted when the operation stops waiting for the filter (`filterTimeoutMs`): hand it to the
   * requests an async filter makes.
   */
  signal?: AbortSignal;
}

/**
 * Options of `ToolSearchProcessor`. The options of Mastra's own `ToolSearchProcessor` keep their
 * names and meaning (`tools`, `search.topK`, `search.minScore`, `search.autoLoad`, `storage`, `ttl`,
 * `filter`); the rest are toolscout's, and those the session has too (`filterTimeoutMs`, `onEvent`,
 * `metaTools`, `descriptionBudget`, `catalogListing`) are passed to it as they are.
 */
export interface ToolSearchProcessorOptions
  extends Pick<
    ToolSearchSessionOptions<MastraTool>,
    'filterTimeoutMs' | 'onEvent' | 'metaTools' | 'descriptionBudget' | 'catalogListing'
  > {
  /**
   * The searchable tools: a record of Mastra tools by name (as Mastra's processor takes them; a tool
   * without an `id` is known by its key), or a list of Mastra tools and toolscout descriptors. Tools
   * an `MCPClient` returns (`await mcp.listTools()`) work as they are. Two tools with one id are
   * rejected (`DuplicateToolError`).
   */
  tools: MastraToolInput;
  /** How `search_tools` ranks and answers. */
  search?: {
    /** How many tools `search_tools` returns. Default 5. */
    topK?: number;
    /**
     * Leaves out hits scoring below this. toolscout scores are relevance in [0, 1] (1: the best
     * possible match), not Mastra's raw BM25 scores, so a Mastra value above 1 is rejected. Default:
     * the index's (0.1), which drops hits whose only evidence is a common word or a typo.
     */
    minScore?: number;
    /**
     * `search_tools` loads what it finds; there is no `load_tool`. Same as `mode: 'auto-load'`. Keep
     * `topK` small with it. Default false.
     */
    autoLoad?: boolean;
  };
  /**
   * Where loaded tools live:
   * - `'in-memory'` (default): in this process, per thread (and resource), with a TTL (`ttl`).
   *   A request without a thread reads its loaded tools from its own messages instead: nothing is
   *   shared between anonymous requests.
   * - `'context'`: derived from the conversation at every step: a tool is loaded while a
   *   `load_tool` result (or, with `autoLoad`, a `search_tools` result) naming it is in the
   *   messages. Restart-safe; a plain search result is never a load.
   */
  storage?: 'in-memory' | 'context';
  /**
   * Idle time after which a thread's loaded tools are forgotten, in ms, for `storage: 'in-memory'`.
   * `0` keeps them forever. Default 3,600,000 (1 hour). Ignored with `storage: 'context'`.
   */
  ttl?: number;
  /**
   * Decides, per request, whether a tool may be searched, loaded, offered or called (see
   * {@link ToolSearchFilterPhase}). Sync or async; a filter that throws means "no".
   */
  filter?(args: ToolSearchFilterArgs): boolean | Promise<boolean>;
  /**
   * Not supported (`true` is rejected): pass the tools to search in `tools`, e.g.
   * `await mcp.listTools()`. Tools resolved for the agent itself are always offered.
   */
  includeResolvedTools?: boolean;
  /** Not supported (`true` is rejected): `mode: 'catalog'` lists the catalog in the discovery tool. */
  injectCatalog?: boolean;
  /**
   * How the model reaches the catalog: `search-load` (default: `search_tools` + `load_tool`),
   * `auto-load` (same as `search.autoLoad`), `catalog` (a listing in the discovery tool, for tens of
   * tools) or `proxy` (`search_tools`, `describe_tool`, `call_tool`; the offered tools never change).
   */
  mode?: ToolSearchMode;
  /** Ids of tools offered at every step without being searched or loaded. */
  pinned?: readonly string[];
  /**
   * A loaded-tool store shared by several server instances (e.g. `@toolscout/redis`), instead of
   * `storage`.
   */
  store?: LoadedToolStore;
  /** Turns on hybrid search: tools are also ranked by meaning with this embedder. */
  embedder?: Embedder;
}

/** Options of Mastra's processor that this one does not take, and what to use instead. */
const UNSUPPORTED = {
  includeResolvedTools:
    'pass the tools to search in `tools` (e.g. await mcp.listTools()); tools given to the agent itself are always offered',
  injectCatalog: "use mode: 'catalog', which lists the catalog in the discovery tool's description",
} as const;

/**
 * Checks the options only the processor has (or names its own way); the session checks the rest
 * (`mode`, `filter`, `filterTimeoutMs`, ...) when it is created, with the same errors in every adapter.
 *
 * @throws InvalidOptionError naming the option.
 */
export function checkOptions(options: ToolSearchProcessorOptions): void {
  if (!isRecord(options)) {
    throw new InvalidOptionError(
      'options',
      'ToolSearchProcessor needs an options object: new ToolSearchProcessor({ tools }).',
    );
  }
  if (!isRecord(options.tools) && !isIterable(options.tools)) {
    throw new InvalidOptionError(
      'tools',
      `ToolSearchProcessor needs \`tools\`: the searchable tools, by name or as a list; got ${describeValue(options.tools)}.`,
    );
  }
  checkSearch(options);
  checkStorage(options);
  for (const [option, instead] of Object.entries(UNSUPPORTED)) {
    const value = options[option as keyof typeof UNSUPPORTED];
    if (value !== undefined && value !== false) {
      throw new InvalidOptionError(option, `${option} is not supported: ${instead}.`);
    }
  }
}

function checkSearch({ search = {}, mode }: ToolSearchProcessorOptions): void {
  if (!isRecord(search)) {
    throw new InvalidOptionError(
      'search',
      `search must be { topK, minScore, autoLoad }; got ${describeValue(search)}.`,
    );
  }
  const { topK, minScore, autoLoad } = search;
  if (topK !== undefined && (!Number.isSafeInteger(topK) || topK < 1)) {
    throw new InvalidOptionError('search.topK', `search.topK must be a whole number >= 1, got ${String(topK)}.`);
  }
  if (minScore !== undefined && !(typeof minScore === 'number' && minScore >= 0 && minScore <= 1)) {
    const above = typeof minScore === 'number' && minScore > 1;
    throw new InvalidOptionError(
      'search.minScore',
      above
        ? `search.minScore is a relevance in [0, 1] in toolscout (Mastra's processor used raw BM25 scores); got ${minScore}. Try 0.1 to 0.3, or leave it out for the default.`
        : `search.minScore must be a number in [0, 1], got ${String(minScore)}.`,
    );
  }
  if (autoLoad !== undefined && typeof autoLoad !== 'boolean') {
    throw new InvalidOptionError('search.autoLoad', `search.autoLoad must be a boolean, got ${String(autoLoad)}.`);
  }
  if (autoLoad === true && mode !== undefined && mode !== 'auto-load') {
    throw new InvalidOptionError(
      'search.autoLoad',
      `search.autoLoad is mode 'auto-load', but mode is '${mode}'; give one of the two.`,
    );
  }
}

function checkStorage({ storage, store, ttl }: ToolSearchProcessorOptions): void {
  if (storage !== undefined && storage !== 'in-memory' && storage !== 'context') {
    throw new InvalidOptionError(
      'storage',
      `storage must be 'in-memory' or 'context', got ${JSON.stringify(storage)}.`,
    );
  }
  if (ttl !== undefined && !(typeof ttl === 'number' && ttl >= 0 && ttl <= MAX_TIMER_MS)) {
    throw new InvalidOptionError(
      'ttl',
      `ttl must be milliseconds >= 0 (0: never forget), at most ${MAX_TIMER_MS}; got ${ttl}.`,
    );
  }
  if (store === undefined) return;
  if (!isRecord(store) || typeof store.get !== 'function' || typeof store.add !== 'function') {
    throw new InvalidOptionError('store', 'store must be a LoadedToolStore (get, add, remove, clear, clearAll).');
  }
  if (storage !== undefined) {
    throw new InvalidOptionError('store', `Give either store or storage ('${storage}'), not both.`);
  }
  if (ttl !== undefined) {
    throw new InvalidOptionError('ttl', 'ttl applies to the in-memory store; set the expiry on your store instead.');
  }
}

/**
 * The session options for the processor's: its tools as descriptors (the `pinned` ones marked), its
 * Mastra-named options in the session's terms, the filter asked with Mastra's arguments, and the
 * options both share as they are.
 */
export function toSessionOptions(options: ToolSearchProcessorOptions): ToolSearchSessionOptions<MastraTool> {
  const { tools, search, storage, ttl, store, filter, pinned, embedder, mode, ...rest } = options;
  // What is left are the options the session has too, but for two of Mastra's it does not take.
  const { includeResolvedTools, injectCatalog, ...shared } = rest;
  const session: ToolSearchSessionOptions<MastraTool> = { ...shared, catalog: pinnedMarked(tools, pinned) };
  session.mode = mode ?? (search?.autoLoad ? 'auto-load' : undefined);
  session.search = { limit: search?.topK, minScore: search?.minScore };
  session.state = store ?? (storage === 'context' ? 'conversation' : 'memory');
  if (ttl !== undefined) session.memory = { ttlMs: ttl };
  if (embedder !== undefined) session.indexOptions = { embedder };
  // A filter that is not a function goes to the session as it is: the session refuses it (InvalidOptionError).
  session.filter =
    typeof filter === 'function'
      ? (request) =>
          filter({
            toolName: request.toolId,
            tool: request.tool.tool ?? request.tool,
            requestContext: request.context as RequestContext | undefined,
            phase: request.phase,
            threadId: request.threadId,
            resourceId: request.resourceId,
            input: request.input,
            signal: request.signal,
          })
      : (filter as undefined);
  return session;
}

/** The tools as descriptors, those named in `pinned` marked as pinned. */
function pinnedMarked(tools: MastraToolInput, pinned: readonly string[] = []) {
  if (!Array.isArray(pinned) || pinned.some((id) => typeof id !== 'string')) {
    throw new InvalidOptionError('pinned', 'pinned must be an array of tool ids.');
  }
  const descriptors = fromMastraTools(tools);
  const unknown = pinned.filter((id) => !descriptors.some((descriptor) => descriptor.id === id));
  if (unknown.length > 0) {
    throw new InvalidOptionError('pinned', `pinned names tools that are not in tools: ${unknown.join(', ')}.`);
  }
  const ids = new Set(pinned);
  return descriptors.map((descriptor) => (ids.has(descriptor.id) ? { ...descriptor, pinned: true } : descriptor));
}
