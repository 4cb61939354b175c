import type { RequestContext } from '@mastra/core/request-context';
import type { Embedder, LoadedToolStore, PolicyPhase, PolicyRequest, ToolSearchSessionOptions } from '@toolscout/core';
import {
  checkOptionRules,
  isBoolean,
  isEmbedder,
  isIterable,
  isNumberIn,
  isOneOf,
  isRecord,
  isWholeNumberFrom,
  MAX_TIMER_MS,
  markPinned,
  type OptionRule,
} from '@toolscout/core/internal';
import { fromMastraTools, type MastraTool, type MastraToolInput } from './from-mastra-tools.js';

/** When the filter is asked: Mastra's `search`, `load` and `active`, and `call` (with the call's `input`). */
export type ToolSearchFilterPhase = PolicyPhase;

/** What the `filter` option is asked about: Mastra's `ToolSearchFilterArgs`, and the call's `input` and a `signal`. */
export interface ToolSearchFilterArgs extends Pick<PolicyRequest<MastraTool>, 'input' | 'signal'> {
  /** The tool's id (its record key when it has none). */
  toolName: string;
  /** The tool as you gave it; for a descriptor without a Mastra tool, its catalog entry. */
  tool: MastraTool;
  /** The request's context, as Mastra passes it to processors and tools. */
  requestContext?: RequestContext;
  /** What is being decided: `search`, `load`, `active` or `call`. */
  phase: ToolSearchFilterPhase;
  /** The request's thread (`mastra__threadId`, or the memory thread). */
  threadId?: string;
  /** The request's resource (`mastra__resourceId`, or the memory resource). */
  resourceId?: string;
}

/** Options of `ToolSearchProcessor`: Mastra's, under Mastra's names, and the session's (see the README's table). */
export interface ToolSearchProcessorOptions
  extends Pick<
    ToolSearchSessionOptions<MastraTool>,
    | 'filterTimeoutMs'
    | 'onEvent'
    | 'metaTools'
    | 'descriptionBudget'
    | 'catalogListing'
    | 'mode'
    | 'code'
    | 'instructions'
    | 'preselect'
    | 'feedback'
  > {
  /** The searchable tools: a record of Mastra tools by name, or a list of Mastra tools and descriptors (see {@link MastraToolInput}). */
  tools: MastraToolInput;
  /** How `search_tools` ranks and answers. */
  search?: {
    /** How many tools `search_tools` returns. Default 5. */
    topK?: number;
    /** Leaves out hits below this relevance in [0, 1] (not Mastra's raw BM25 scores: above 1 is rejected). Default 0.1. */
    minScore?: number;
    /** `search_tools` loads what it finds; there is no `load_tool`. Same as `mode: 'auto-load'`. Default false. */
    autoLoad?: boolean;
    /** Adds a `why` line (the query words each result matched, and where) to `search_tools` results. Default false. */
    explain?: boolean;
  };
  /** Where loaded tools live: `'in-memory'` (default, per thread and resource) or `'context'` (the conversation). */
  storage?: 'in-memory' | 'context';
  /** Idle ms after which a thread's loaded tools are forgotten (`storage: 'in-memory'`); `0`: never. Default 1 hour. */
  ttl?: number;
  /** Whether a tool may be searched, loaded, offered or called, per request; sync or async; throwing means "no". */
  filter?(args: ToolSearchFilterArgs): boolean | Promise<boolean>;
  /** Makes the agent's own tools of each request searchable, withheld until loaded; default false: offered, and they win. */
  includeResolvedTools?: boolean;
  /** Not supported (`true` is rejected): `mode: 'catalog'` lists the catalog in the discovery tool. */
  injectCatalog?: boolean;
  /** Ids of tools offered at every step without being searched or loaded. */
  pinned?: readonly string[];
  /** A loaded-tool store shared by several server instances (e.g. `@toolscout/redis`), instead of `storage`. */
  store?: LoadedToolStore;
  /** Turns on hybrid search: tools are also ranked by meaning with this embedder. */
  embedder?: Embedder;
}

type Rule = OptionRule<ToolSearchProcessorOptions>;
const isToolInput = (tools: unknown) => isRecord(tools) || isIterable(tools);
const isStore = (store: unknown) =>
  isRecord(store) && typeof store.get === 'function' && typeof store.add === 'function';
const isOff = (value: unknown) => value === false;
const isIdList = (ids: unknown) => Array.isArray(ids) && ids.every((id) => typeof id === 'string');

/**
 * The options only the processor has (or names its own way), in Mastra's words; the session checks the rest (`mode`,
 * `filter`, `filterTimeoutMs`, ...) with the same errors in every adapter.
 */
const RULES: readonly Rule[] = [
  ['tools', isToolInput, 'the searchable tools, by name or as a list (ToolSearchProcessor needs `tools`)', 'required'],
  ['search', isRecord, '{ topK, minScore, autoLoad }'],
  ['search.topK', isWholeNumberFrom(1), 'a whole number >= 1'],
  ['search.minScore', isNumberIn(0, 1), "a relevance in [0, 1] (not Mastra's raw BM25 scores: try 0.1 to 0.3)"],
  ['search.autoLoad', isBoolean, 'a boolean'],
  [
    'search.autoLoad',
    (autoLoad, { mode }) => !autoLoad || mode === undefined || mode === 'auto-load',
    "left out when mode is given: it is mode 'auto-load', so give one of the two",
  ],
  ['storage', isOneOf('in-memory', 'context'), "'in-memory' or 'context'"],
  ['ttl', isNumberIn(0, MAX_TIMER_MS), `milliseconds >= 0 (0: never forget), at most ${MAX_TIMER_MS}`],
  ['store', isStore, 'a LoadedToolStore (get, add, remove, clear, clearAll)'],
  ['store', (_, { storage }) => storage === undefined, 'left out when storage is given: give either store or storage'],
  ['ttl', (_, { store }) => store === undefined, 'left out with a store: set the expiry on your store instead'],
  ['includeResolvedTools', isBoolean, 'a boolean'],
  [
    'preselect.classifier',
    (v) => v === undefined,
    "left out (Mastra's classifier): use preselect.select(message, context) => toolIds",
  ],
  ['injectCatalog', isOff, "false (not supported): use mode: 'catalog', which lists the catalog in the discovery tool"],
  ['pinned', isIdList, 'an array of tool ids'],
  ['embedder', isEmbedder, 'an Embedder: an object with an "id" string and an embed(texts) method'],
];

/**
 * The processor's options, checked, as session options: Mastra's names in the session's terms, the filter asked with
 * Mastra's arguments.
 * @throws InvalidOptionError naming the option as the user wrote it.
 */
export function toSessionOptions(options: ToolSearchProcessorOptions): ToolSearchSessionOptions<MastraTool> {
  checkOptionRules(options, RULES, 'new ToolSearchProcessor({ tools })');
  const { tools, search, storage, ttl, store, filter, pinned, embedder, mode, ...rest } = options;
  const { includeResolvedTools, injectCatalog, ...shared } = rest;
  const session: ToolSearchSessionOptions<MastraTool> = {
    ...shared,
    catalog: markPinned(fromMastraTools(tools), pinned ?? []),
  };
  session.mode = mode ?? (search?.autoLoad ? 'auto-load' : undefined);
  session.search = { limit: search?.topK, minScore: search?.minScore, explain: search?.explain };
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
