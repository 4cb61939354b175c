import { InvalidArgumentError } from '@toolscout/core/errors';
import {
  type CandidateRankerOptions,
  checkOptionsObject,
  createCandidateRanker,
  describeValue,
  isRecord,
} from '@toolscout/core/internal';
import type { Tool } from 'ai';
import { descriptorsOf, type ToolSearchCatalog } from './from-ai-sdk-tool.js';

/** What the AI SDK's `toolSearch({ search })` hands its callback: the query and the deferred tools. */
export interface SearchCallbackInput {
  /** The model's query. */
  query: string;
  /** The deferred tools the search may return, by the name the generation knows them by. */
  tools: Array<{ name: string; description?: string }>;
}

/** The callback `toolSearch({ search })` takes: tool names, best first. */
export type SearchCallback = (input: SearchCallbackInput) => Promise<string[]>;

/** Options of {@link createSearchCallback}: core's ranker options (`limit`, default 10; `filter`; `indexOptions`). */
export interface SearchCallbackOptions extends Omit<CandidateRankerOptions<Tool>, 'catalog'> {
  /** The deferred tools, indexed once with their parameters and tags; default: what the AI SDK hands the callback. */
  catalog?: ToolSearchCatalog;
}

function checkInput(input: unknown): SearchCallbackInput {
  if (isRecord(input) && typeof input.query === 'string' && Array.isArray(input.tools)) {
    return input as unknown as SearchCallbackInput;
  }
  throw new InvalidArgumentError(
    'input',
    `The search callback takes { query: string, tools: { name, description? }[] }, as toolSearch({ search }) calls it; got ${describeValue(input)}.`,
  );
}

/**
 * A `search` callback for the AI SDK's own `toolSearch({ search })`: its deferred tools
 * (`deferLoading: true`) ranked by toolscout's index (core's `createCandidateRanker`).
 */
export function createSearchCallback(options: SearchCallbackOptions = {}): SearchCallback {
  checkOptionsObject(options, 'createSearchCallback takes an options object');
  const catalog = options.catalog === undefined ? undefined : descriptorsOf(options.catalog, 'catalog');
  const ranker = createCandidateRanker<Tool>({ ...options, catalog });
  return async (input) => {
    const { query, tools } = checkInput(input);
    return ranker.rank(query, tools);
  };
}
