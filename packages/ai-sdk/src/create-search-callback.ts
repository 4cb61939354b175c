import { type PolicyFilter, ToolCatalog, type ToolIndexOptions, ToolSearchSession } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { describeValue, isRecord } from '@toolscout/core/internal';
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

/** Options of {@link createSearchCallback}. */
export interface SearchCallbackOptions {
  /**
   * The deferred tools as you give them to `generateText` (or descriptors, or a catalog): they are
   * indexed once, with their parameters, tags and sources, instead of only the names and
   * descriptions the AI SDK hands the callback. Tools the generation does not defer are never
   * returned.
   */
  catalog?: ToolSearchCatalog;
  /** Index options: an `embedder` for hybrid search, `minScore`, ranking. */
  indexOptions?: ToolIndexOptions;
  /** The policy's `search` phase: tools it refuses are never returned. Fails closed when it throws. */
  filter?: PolicyFilter<Tool>;
  /**
   * How many names to return at most (the AI SDK then keeps its own `maxResults` of them). Default 10.
   */
  limit?: number;
  /** Hits scoring below this (0-1) are left out. Default: the index's. */
  minScore?: number;
}

/** Meta-tool names of the internal sessions: never the name of a real tool. */
const INTERNAL_META = {
  search: { name: '__toolscout_search' },
  load: { name: '__toolscout_load' },
};

/** Tools a callback without a catalog keeps indexed; past it, only the current generation's stay. */
const MAX_LEARNED_TOOLS = 10_000;

function checkInput(input: unknown): SearchCallbackInput {
  if (!isRecord(input) || typeof input.query !== 'string' || !Array.isArray(input.tools)) {
    throw new TypeError(
      'The search callback takes { query: string, tools: { name, description? }[] }, as toolSearch({ search }) calls it.',
    );
  }
  return input as unknown as SearchCallbackInput;
}

/**
 * A `search` callback for the AI SDK's own `toolSearch({ search })`: deferred tools
 * (`deferLoading: true`) are ranked by toolscout's index (BM25 over names, descriptions, tags and
 * parameters; hybrid with an `embedder`) instead of the AI SDK's keyword count. Nothing else about
 * `toolSearch` changes.
 *
 * Without a `catalog`, it indexes the tools the AI SDK hands it (name and description) as they come:
 * a tool is indexed when first seen, and again when its description changes.
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
  if (!isRecord(options as unknown)) {
    throw new InvalidOptionError(
      'options',
      `createSearchCallback takes an options object; got ${describeValue(options)}.`,
    );
  }
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidOptionError('limit', `limit must be a positive integer; got ${String(limit)}.`);
  }
  const learns = options.catalog === undefined;
  const session = new ToolSearchSession<Tool>({
    catalog: learns ? new ToolCatalog<Tool>() : descriptorsOf(options.catalog, 'catalog'),
    indexOptions: options.indexOptions,
    filter: options.filter,
    search: { limit, minScore: options.minScore },
    metaTools: INTERNAL_META,
    state: 'conversation', // searching loads nothing: no store
  });

  /** Indexes the tools handed in that are new or changed, within a bound of tools kept. */
  const learn = (tools: SearchCallbackInput['tools'], candidates: ReadonlySet<string>) => {
    for (const { name, description = '' } of tools) {
      const known = session.catalog.get(name);
      if (known === undefined || (known.description ?? '') !== description) {
        session.catalog.upsert({ id: name, description });
      }
    }
    if (session.catalog.size <= MAX_LEARNED_TOOLS) return;
    for (const { id } of session.catalog.list()) if (!candidates.has(id)) session.catalog.remove(id);
  };

  return async (input) => {
    const { query, tools } = checkInput(input);
    if (tools.length === 0 || query.trim() === '') return [];
    const candidates = new Set(tools.map((tool) => tool.name));
    if (learns) learn(tools, candidates);
    // The index may rank tools this generation does not defer above its own: look that much deeper.
    const { size } = session.catalog;
    const depth = Math.max(1, Math.min(size, limit + Math.max(0, size - candidates.size)));
    const hits = await session.search(query, {}, depth);
    const names: string[] = [];
    for (const { tool } of hits) {
      const name = candidates.has(tool.id) ? tool.id : candidates.has(tool.toolName) ? tool.toolName : undefined;
      if (name !== undefined && !names.includes(name)) names.push(name);
      if (names.length >= limit) break;
    }
    return names;
  };
}
