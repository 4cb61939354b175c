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

/**
 * Options of {@link createSearchCallback}: core's ranker options (`indexOptions` for an `embedder` or
 * `minScore`, the policy's `filter`, and `limit`, default 10, of which the AI SDK keeps its own
 * `maxResults`), with the deferred tools as you give them to `generateText` as the `catalog`.
 */
export interface SearchCallbackOptions extends Omit<CandidateRankerOptions<Tool>, 'catalog'> {
  /**
   * The deferred tools (or descriptors, or a catalog): indexed once, with their parameters, tags and
   * sources, instead of only the names and descriptions the AI SDK hands the callback, which are
   * indexed as they come without it (when first seen, and again when a description changes; at most
   * 10,000 tools, past that those of the current generation). Tools the generation does not defer are
   * never returned.
   */
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
 * A `search` callback for the AI SDK's own `toolSearch({ search })`: deferred tools
 * (`deferLoading: true`) are ranked by toolscout's index (BM25 over names, descriptions, tags and
 * parameters; hybrid with an `embedder`) instead of the AI SDK's keyword count. Nothing else about
 * `toolSearch` changes. The ranking is core's `createCandidateRanker`.
 *
 * @example
 * ```ts
 * const result = await generateText({
 *   model,
 *   tools: { toolSearch: toolSearch({ search: createSearchCallback() }), ...deferredTools },
 *   prompt: 'What is the weather in Paris?',
 *   stopWhen: stepCountIs(5),
 * });
 * ```
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
