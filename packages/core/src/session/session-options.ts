import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import type { FeedbackOptions } from '../feedback/tool-feedback.js';
import { checkIndexOptions } from '../index/index-options.js';
import { checkMinScore } from '../index/ranking-params.js';
import type { ToolIndex, ToolIndexOptions } from '../index/tool-index.js';
import { InMemoryLoadedToolStore, type InMemoryLoadedToolStoreOptions } from '../stores/in-memory-store.js';
import type { LoadedToolStore } from '../stores/loaded-tool-store.js';
import type { ToolDescriptor } from '../types.js';
import { describeValue, isIterable, isRecord } from '../values.js';
import { type CodeModeOptions, type ResolvedCodeMode, resolveCodeMode } from './code/code-options.js';
import type { DeferredToolOptions } from './deferred-tools.js';
import { type MetaToolsConfig, TOOL_SEARCH_MODES, type ToolSearchMode } from './meta-tools.js';
import { MAX_FILTER_TIMEOUT_MS, type PolicyFilter } from './policy.js';
import type { PreselectOptions } from './preselect-options.js';
import type { RequestToolOptions } from './request-tools.js';
import type { ToolSearchEventListener } from './telemetry.js';

/** Where loaded tools are remembered between steps. */
export type LoadedStateStrategy =
  /** In this process, per thread, with a TTL and a cap on threads (the default). */
  | 'memory'
  /** Derived from the conversation at every step: stateless and restart-safe. */
  | 'conversation'
  /** A store of your own, e.g. a shared Redis store for several server instances. */
  | LoadedToolStore;

export interface ToolSearchSessionOptions<TTool = unknown> extends DeferredToolOptions, RequestToolOptions {
  /** The searchable tools: a catalog (which the session follows as it changes), or descriptors. */
  catalog: ToolCatalog<TTool> | Iterable<ToolDescriptor<TTool>>;
  /** Tools offered at every step beside the meta-tools, never searched (the host's own tools). */
  tools?: Iterable<ToolDescriptor<TTool>>;
  /** An index over `catalog` to reuse (e.g. loaded from JSON); built from `indexOptions` when absent. */
  index?: ToolIndex<TTool>;
  /** Options for the index the session builds (an embedder for hybrid search, `minScore`, ...). */
  indexOptions?: ToolIndexOptions;
  /** How the model reaches the catalog; see {@link ToolSearchMode}. Default `search-load`. */
  mode?: ToolSearchMode;
  /** Code mode's sandbox and limits; needed with `mode: 'code'` (see {@link CodeModeOptions}), ignored otherwise. */
  code?: CodeModeOptions;
  search?: {
    /** How many hits `search_tools` returns. Default 5. */
    limit?: number;
    /** Hits scoring below this (0-1, see ToolIndex) are left out. Default: the index's. */
    minScore?: number;
    /** Adds to each `search_tools` result a `why` line (the query words it matched and where). Default false. */
    explain?: boolean;
  };
  /**
   * Where loaded tools live. Default `memory`. Whatever the strategy, a request without a thread id
   * derives its loaded tools from its own conversation: nothing is shared between requests that
   * cannot be told apart.
   */
  state?: LoadedStateStrategy;
  /** Options of the default in-memory store (`ttlMs`, `maxThreads`, ...). */
  memory?: InMemoryLoadedToolStoreOptions;
  /**
   * The policy: may this tool be searched, loaded, offered, called? Fails closed when it throws or
   * does not answer in time. See {@link PolicyPhase} for the phases each mode asks.
   */
  filter?: PolicyFilter<TTool>;
  /**
   * How long one operation (a step's preparation, a search, one call) waits for an async `filter`,
   * in ms, counted from its first async answer. Answers still pending then count as "not allowed"
   * (a `blocked` event with reason `filter-timeout`), and the operation asks the filter no more.
   * Between 1 and 2,147,483,647. Default 5,000.
   */
  filterTimeoutMs?: number;
  /** Names and descriptions of the meta-tools. Defaults: `search_tools`, `load_tool`, ... */
  metaTools?: MetaToolsConfig;
  /** In `catalog` mode, what the discovery tool's description lists. Default `names-and-summaries`. */
  catalogListing?: 'names' | 'names-and-summaries';
  /** Characters of a tool description kept in search results (cut at a word boundary), as Mastra. Default 150. */
  descriptionBudget?: number;
  /** Receives every telemetry event (also: `session.subscribe`). */
  onEvent?: ToolSearchEventListener;
  /**
   * What the model is told about tool search in the framework's system channel (`step.instructions`;
   * adapters add it as a system message). Default: a paragraph per mode naming the configured
   * meta-tools (in `search-load` and `auto-load` mode, Mastra's `ToolSearchProcessor` text); a string
   * replaces it (at most 10,000 characters); `false` adds none.
   */
  instructions?: string | false;
  /**
   * Preselect (off by default): before the first model call of a user turn, offer the tools that
   * match the user's latest message confidently, as loaded tools, so the common case needs no search
   * round trip; the meta-tools stay. Once per user message, additive across turns, under the policy's
   * search and load phases; a failing or slow selection preselects nothing. `true` uses the defaults
   * (minScore 0.6, limit 3); see {@link PreselectOptions}. Needs the user's messages in
   * `StepRequest.conversation` (`{ type: 'user-message', text }`).
   */
  preselect?: boolean | PreselectOptions<TTool>;
  /**
   * Learning from use (off by default): the tool the model calls after a `search_tools` call of the
   * same thread is recorded for that query, and later searches rank it higher (bounded, decaying;
   * see {@link FeedbackOptions} and the README's "Learning from use").
   */
  feedback?: boolean | FeedbackOptions;
}

/** How many hits `search_tools` returns by default. */
export const DEFAULT_LIMIT = 5;
/** Characters of a tool description kept in search results by default. */
export const DEFAULT_DESCRIPTION_BUDGET = 150;

/** What `catalogListing` may be. */
const CATALOG_LISTINGS: readonly unknown[] = ['names', 'names-and-summaries'];
/** The options that, when given, must be functions, and those that must be objects. */
const FUNCTION_OPTIONS = ['filter', 'onEvent'] as const;
const OBJECT_OPTIONS = ['metaTools', 'indexOptions', 'memory', 'search', 'requestTools'] as const;

/** A value as an error message quotes it: a string in quotes, anything else by its kind (never a throw). */
function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describeValue(value);
}

/**
 * Checks a session's options that have a kind or a range (an {@link InvalidOptionError} names the
 * first bad one) and returns its mode.
 */
export function checkSessionOptions<TTool>(options: ToolSearchSessionOptions<TTool>): ToolSearchMode {
  checkToolSources(options);
  checkKinds(options);
  const mode = options.mode ?? 'search-load';
  if (!TOOL_SEARCH_MODES.includes(mode)) {
    throw new InvalidOptionError('mode', `Unknown mode "${String(mode)}"; use one of ${TOOL_SEARCH_MODES.join(', ')}.`);
  }
  codeModeOf(options, mode); // (checked first: the session resolves it again for its steps)
  if (options.indexOptions !== undefined) checkIndexOptions(options.indexOptions, 'indexOptions.');
  const limit = options.search?.limit;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new InvalidOptionError('search.limit', `search.limit must be a positive integer; got ${String(limit)}.`);
  }
  // (checked here, not at the model's first search_tools call, which it would make throw)
  if (options.search?.minScore !== undefined) checkMinScore(options.search.minScore, 'search.minScore');
  const explain: unknown = options.search?.explain;
  if (explain !== undefined && typeof explain !== 'boolean') {
    throw new InvalidOptionError('search.explain', `search.explain must be true or false; got ${quoted(explain)}.`);
  }
  const timeout = options.filterTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 1 && timeout <= MAX_FILTER_TIMEOUT_MS)) {
    throw new InvalidOptionError(
      'filterTimeoutMs',
      `filterTimeoutMs must be a number of milliseconds from 1 to ${MAX_FILTER_TIMEOUT_MS}; got ${String(timeout)}.`,
    );
  }
  const budget: unknown = options.descriptionBudget;
  if (budget !== undefined && !(typeof budget === 'number' && budget >= 0)) {
    throw new InvalidOptionError(
      'descriptionBudget',
      `descriptionBudget must be a number >= 0; got ${quoted(budget)}.`,
    );
  }
  if (options.catalogListing !== undefined && !CATALOG_LISTINGS.includes(options.catalogListing)) {
    throw new InvalidOptionError(
      'catalogListing',
      `catalogListing must be 'names' or 'names-and-summaries'; got ${quoted(options.catalogListing)}.`,
    );
  }
  return mode;
}

/** Checks `catalog` (a ToolCatalog or an iterable of descriptors) and `tools` (an iterable of descriptors), when given. */
function checkToolSources<TTool>(options: ToolSearchSessionOptions<TTool>): void {
  const { catalog, tools } = options;
  if (!(catalog instanceof ToolCatalog || isIterable(catalog))) {
    throw new InvalidOptionError(
      'catalog',
      `catalog must be a ToolCatalog or an iterable of tool descriptors; got ${describeValue(catalog)}.`,
    );
  }
  if (tools !== undefined && !isIterable(tools)) {
    throw new InvalidOptionError(
      'tools',
      `tools must be an iterable of tool descriptors; got ${describeValue(tools)}.`,
    );
  }
}

/** Checks that each function option is a function and each object option a plain object, when given. */
function checkKinds<TTool>(options: ToolSearchSessionOptions<TTool>): void {
  for (const name of FUNCTION_OPTIONS) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidOptionError(name, `${name} must be a function; got ${describeValue(value)}.`);
    }
  }
  for (const name of OBJECT_OPTIONS) {
    const value: unknown = options[name];
    if (value !== undefined && !isRecord(value)) {
      throw new InvalidOptionError(name, `${name} must be an object; got ${describeValue(value)}.`);
    }
  }
}

/** The store of a session's `state` option: none for the `conversation` strategy. */
export function storeOf<TTool>(options: ToolSearchSessionOptions<TTool>): LoadedToolStore | undefined {
  const { state } = options;
  if (state === undefined || state === 'memory') return new InMemoryLoadedToolStore(options.memory);
  if (state === 'conversation') return undefined;
  if (isRecord(state) && typeof state.get === 'function') return state;
  throw new InvalidOptionError(
    'state',
    `state must be 'memory', 'conversation' or a LoadedToolStore; got ${quoted(state)}.`,
  );
}

/** Code mode's sandbox and limits, checked (at construction): undefined in the other modes. */
export function codeModeOf<TTool>(
  options: ToolSearchSessionOptions<TTool>,
  mode: ToolSearchMode,
): ResolvedCodeMode | undefined {
  return mode === 'code' ? resolveCodeMode(options.code) : undefined;
}
