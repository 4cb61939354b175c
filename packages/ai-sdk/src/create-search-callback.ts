import {
  type PolicyFilter,
  ToolCatalog,
  type ToolDescriptor,
  type ToolIndexOptions,
  ToolSearchSession,
} from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { isRecord } from '@toolscout/core/internal';
import type { Tool, ToolSet } from 'ai';
import { toToolDescriptors } from './to-tool-descriptor.js';

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
  catalog?: ToolSet | Iterable<ToolDescriptor<Tool>> | ToolCatalog<Tool>;
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

/** How many candidate sets keep their index (one per distinct set of deferred tools). */
const MAX_CACHED_INDEXES = 16;

function catalogDescriptors(catalog: NonNullable<SearchCallbackOptions['catalog']>) {
  if (catalog instanceof ToolCatalog) return catalog;
  if (isRecord(catalog) && typeof (catalog as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
    return toToolDescriptors(catalog as ToolSet);
  }
  return catalog as Iterable<ToolDescriptor<Tool>>;
}

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
 * Without a `catalog`, it indexes the tools the AI SDK hands it (name and description), once per
 * distinct set.
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
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidOptionError('limit', `limit must be a positive integer; got ${String(limit)}.`);
  }
  const sessionOptions = {
    indexOptions: options.indexOptions,
    filter: options.filter,
    search: { limit, minScore: options.minScore },
    metaTools: INTERNAL_META,
    state: 'conversation' as const, // searching loads nothing: no store
  };
  const fixed = options.catalog
    ? new ToolSearchSession<Tool>({ ...sessionOptions, catalog: catalogDescriptors(options.catalog) })
    : undefined;
  const cached = new Map<string, ToolSearchSession<Tool>>();

  const sessionFor = (tools: SearchCallbackInput['tools']): ToolSearchSession<Tool> => {
    if (fixed) return fixed;
    const descriptors = tools.map((tool) => ({ id: tool.name, description: tool.description ?? '' }));
    const key = JSON.stringify(descriptors.map((tool) => [tool.id, tool.description]));
    let session = cached.get(key);
    if (session) {
      cached.delete(key); // most recently used last
    } else {
      session = new ToolSearchSession<Tool>({ ...sessionOptions, catalog: descriptors });
      if (cached.size >= MAX_CACHED_INDEXES) {
        const oldest = cached.keys().next().value as string;
        cached.get(oldest)?.dispose();
        cached.delete(oldest);
      }
    }
    cached.set(key, session);
    return session;
  };

  return async (input) => {
    const { query, tools } = checkInput(input);
    if (tools.length === 0 || query.trim() === '') return [];
    const candidates = new Set(tools.map((tool) => tool.name));
    const session = sessionFor(tools);
    // With a catalog, a search may rank tools this generation does not defer: look a little deeper.
    const depth = fixed
      ? Math.min(fixed.catalog.size, limit + Math.max(0, fixed.catalog.size - candidates.size))
      : limit;
    const hits = await session.search(query, {}, Math.max(depth, 1));
    const names: string[] = [];
    for (const { tool } of hits) {
      const name = candidates.has(tool.id) ? tool.id : candidates.has(tool.toolName) ? tool.toolName : undefined;
      if (name !== undefined && !names.includes(name)) names.push(name);
      if (names.length >= limit) break;
    }
    return names;
  };
}
