// `bench perf --hybrid`: the embedder's share of a hybrid search (keyword index fused with the
// offline USE Lite embedder), and whether the index's query cache spares it on repeated queries.
// Tool vectors come through the bench's on-disk cache (TOOLSCOUT_EMBEDDING_CACHE), so only the first
// run on a machine embeds the catalog.
import { type Embedder, type EmbeddingCache, ToolCatalog, ToolIndex } from '@toolscout/core';
import { loadDataset } from './datasets.js';
import { EmbeddingFileCache } from './embedding-file-cache.js';
import { PERF_LIMIT } from './perf.js';
import { percentile, round } from './stats.js';
import { DEFAULT_SEED, poolTools, sampleQueries, syntheticCatalog } from './synthetic-catalog.js';

/** The catalog size of the hybrid measurement by default. */
export const DEFAULT_HYBRID_SIZE = 1_000;

/** The figures of `bench perf --hybrid`. */
export interface HybridFigures {
  /** Tools in the catalog. */
  tools: number;
  /** The embedder's id. */
  embedder: string;
  /** Queries timed (each distinct, then each again). */
  queries: number;
  /** Median and 99th percentile milliseconds of a search whose query was never embedded before. */
  searchP50Ms: number;
  searchP99Ms: number;
  /** Median milliseconds the embedder took per such search (one query embedded). */
  embedP50Ms: number;
  /** The embedder's share of those searches' total time (0 to 1). */
  embedShare: number;
  /** Median milliseconds of the same searches again (the query's vector from the index's cache). */
  repeatSearchP50Ms: number;
  /** Embedder calls during the repeated searches (0: the query cache spared every one). */
  repeatEmbedCalls: number;
}

/** An embedder that counts its calls and the time spent in them. */
class TimedEmbedder implements Embedder {
  calls = 0;
  ms = 0;
  constructor(readonly inner: Embedder) {}

  get id(): string {
    return this.inner.id;
  }

  get dimensions(): number | undefined {
    return (this.inner as { dimensions?: number }).dimensions;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const started = performance.now();
    try {
      return await this.inner.embed(texts);
    } finally {
      this.calls += 1;
      this.ms += performance.now() - started;
    }
  }
}

/**
 * Builds a hybrid index over a synthetic catalog of `size` tools (vectors through the on-disk cache),
 * then times `queries` distinct queries (each embedded once: the embedder's share) and the same
 * queries again (answered from the query cache: the embedder should not be called).
 */
export async function measureHybrid(options: {
  datasets: string[];
  size?: number;
  queries?: number;
  seed?: number;
  /** The embedder (default: USE Lite from @toolscout/embedder-use, loaded here). */
  embedder?: Embedder;
  /** Where tool vectors are cached (default: the bench's on-disk cache). */
  cache?: EmbeddingCache;
}): Promise<HybridFigures> {
  const { size = DEFAULT_HYBRID_SIZE, queries: count = 200, seed = DEFAULT_SEED } = options;
  const datasets = options.datasets.map((folder) => loadDataset(folder));
  const tools = syntheticCatalog(poolTools(datasets), size, seed);
  const queries = [...new Set(sampleQueries(datasets, count, seed))];
  const inner = options.embedder ?? (await useLite());
  const embedder = new TimedEmbedder(inner);
  const dimensions = embedder.dimensions;
  const cache = options.cache ?? (dimensions ? new EmbeddingFileCache(inner.id, dimensions) : undefined);
  const index = new ToolIndex(new ToolCatalog(tools), { embedder, ...(cache ? { embeddingCache: cache } : {}) });
  await index.flush();
  try {
    const searches: number[] = [];
    const embeds: number[] = [];
    for (const query of queries) {
      const before = embedder.ms;
      const started = performance.now();
      await index.search(query, { limit: PERF_LIMIT });
      searches.push(performance.now() - started);
      embeds.push(embedder.ms - before);
    }
    const calls = embedder.calls;
    const repeats: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      await index.search(query, { limit: PERF_LIMIT });
      repeats.push(performance.now() - started);
    }
    const total = searches.reduce((sum, ms) => sum + ms, 0);
    return {
      tools: size,
      embedder: inner.id,
      queries: queries.length,
      searchP50Ms: round(percentile(searches, 0.5), 3),
      searchP99Ms: round(percentile(searches, 0.99), 3),
      embedP50Ms: round(percentile(embeds, 0.5), 3),
      embedShare: round(embeds.reduce((sum, ms) => sum + ms, 0) / total, 3),
      repeatSearchP50Ms: round(percentile(repeats, 0.5), 3),
      repeatEmbedCalls: embedder.calls - calls,
    };
  } finally {
    index.dispose();
  }
}

async function useLite(): Promise<Embedder> {
  const { createUseEmbedder } = await import('@toolscout/embedder-use');
  const embedder = createUseEmbedder();
  await embedder.load();
  return embedder;
}

/** One line for the text report. */
export function hybridLine(figures: HybridFigures): string {
  return (
    `Hybrid search (${figures.embedder}, ${figures.tools.toLocaleString('en-US')} tools, ${figures.queries} queries): ` +
    `p50 ${figures.searchP50Ms} ms, p99 ${figures.searchP99Ms} ms, of which the embedder ${Math.round(figures.embedShare * 100)}% ` +
    `(p50 ${figures.embedP50Ms} ms per query); the same queries again: p50 ${figures.repeatSearchP50Ms} ms, ` +
    `${figures.repeatEmbedCalls} embedder calls (query cache).`
  );
}
