import { InvalidOptionError } from '../errors.js';
import { checkMinScore } from '../index/ranking-params.js';
import { MAX_TIMER_MS } from '../stores/loaded-tool-store.js';
import type { CatalogTool } from '../types.js';
import { describeValue, isRecord } from '../values.js';
import type { ToolSearchMode } from './meta-tools.js';

/** What a host's preselect selector is told about the request, besides the user's message. */
export interface PreselectContext<TTool = unknown> {
  threadId?: string;
  resourceId?: string;
  /** The host's request context, as given to the step. */
  context: unknown;
  /** Searches the catalog as `search_tools` does (`session.search`: the policy's search phase). */
  search(query: string, limit?: number): Promise<{ tool: CatalogTool<TTool>; score: number }[]>;
  /** Aborted when the session stops waiting for the selector (`timeoutMs`). */
  signal: AbortSignal;
}

/**
 * Chooses the tools to preselect for a user's message: catalog tool ids (or model-facing names),
 * best first. Unknown ids are ignored (listed in the `preselect` event); a selector that throws,
 * rejects or does not answer within `timeoutMs` preselects nothing (fail open).
 */
export type PreselectSelector<TTool = unknown> = (
  message: string,
  context: PreselectContext<TTool>,
) => readonly string[] | Promise<readonly string[]>;

/**
 * Preselect: before the first model call of a user turn, the session searches the user's latest
 * message and offers the confident hits directly, so the common case needs no search round trip.
 * The meta-tools stay. Needs the user's messages in the conversation (`ConversationEntry` of type
 * `user-message`).
 */
export interface PreselectOptions<TTool = unknown> {
  /** Hits scoring below this (absolute 0-1 score, see ToolIndex) are not preselected. Default {@link DEFAULT_PRESELECT_MIN_SCORE}. */
  minScore?: number;
  /** At most this many tools per user message. Default {@link DEFAULT_PRESELECT_LIMIT}. */
  limit?: number;
  /** Chooses the tools instead of the search (e.g. an LLM classifier); `minScore` does not apply to it. */
  select?: PreselectSelector<TTool>;
  /** How long a selection (the search or `select`) may take, in ms, before it preselects nothing. Default 5,000. */
  timeoutMs?: number;
}

/**
 * The default `preselect.minScore`: from `pnpm bench preselect` (docs/benchmarks.md, "Preselect"),
 * the setting with the best first-step coverage for the tokens of tools offered and not needed.
 */
export const DEFAULT_PRESELECT_MIN_SCORE = 0.6;
/** The default `preselect.limit` (see {@link DEFAULT_PRESELECT_MIN_SCORE}). */
export const DEFAULT_PRESELECT_LIMIT = 3;
/** The default `preselect.timeoutMs`. */
export const DEFAULT_PRESELECT_TIMEOUT_MS = 5_000;

/** A `preselect` option with every default filled in; `undefined` when preselect is off. */
export interface ResolvedPreselect<TTool> {
  minScore: number;
  limit: number;
  select: PreselectSelector<TTool> | undefined;
  timeoutMs: number;
}

/**
 * The `preselect` option checked, with its defaults: `true` or an object turns it on (in any mode
 * but `proxy`), `false` or absent leaves it off. Throws {@link InvalidOptionError} naming the bad field (`preselect.limit`).
 */
export function resolvePreselect<TTool>(
  option: boolean | PreselectOptions<TTool> | undefined,
  mode: ToolSearchMode,
): ResolvedPreselect<TTool> | undefined {
  if (option === undefined || option === false) return undefined;
  if (mode === 'proxy') {
    throw new InvalidOptionError(
      'preselect',
      'preselect offers tools directly, which proxy mode never does (its tools run through call_tool); use another mode, or leave preselect out.',
    );
  }
  if (option !== true && !isRecord(option)) {
    throw new InvalidOptionError(
      'preselect',
      `preselect must be true, false or an object ({ minScore, limit, select, timeoutMs }); got ${describeValue(option)}.`,
    );
  }
  const given: PreselectOptions<TTool> = option === true ? {} : option;
  const {
    minScore = DEFAULT_PRESELECT_MIN_SCORE,
    limit = DEFAULT_PRESELECT_LIMIT,
    select,
    timeoutMs = DEFAULT_PRESELECT_TIMEOUT_MS,
  } = given;
  checkMinScore(minScore, 'preselect.minScore');
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 50)) {
    throw new InvalidOptionError(
      'preselect.limit',
      `preselect.limit must be an integer from 1 to 50; got ${String(limit)}.`,
    );
  }
  if (select !== undefined && typeof select !== 'function') {
    throw new InvalidOptionError(
      'preselect.select',
      `preselect.select must be a function; got ${describeValue(select)}.`,
    );
  }
  if (!(typeof timeoutMs === 'number' && timeoutMs >= 1 && timeoutMs <= MAX_TIMER_MS)) {
    throw new InvalidOptionError(
      'preselect.timeoutMs',
      `preselect.timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(timeoutMs)}.`,
    );
  }
  return { minScore, limit, select, timeoutMs };
}
