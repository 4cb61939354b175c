// toolscout's default keyword configuration: a ToolCatalog and a ToolIndex with no options.
import { ToolCatalog, type ToolDescriptor, ToolIndex } from '@toolscout/core';
import type { EngineIndex, PreparedCatalog, RankingEngine } from './engine.js';

/**
 * toolscout's keyword index as a user gets it: `new ToolIndex(new ToolCatalog(tools))`. The build
 * includes the catalog (names, schemas), since the index needs it.
 */
export const toolscoutEngine: RankingEngine = {
  name: 'toolscout',
  description: "toolscout's ToolIndex, default keyword configuration",
  async prepare(tools: readonly ToolDescriptor[]): Promise<PreparedCatalog> {
    return {
      async build({ limit }): Promise<EngineIndex> {
        const catalog = new ToolCatalog(tools);
        const index = new ToolIndex(catalog);
        return {
          async search(query) {
            const hits = await index.search(query, { limit });
            return hits.map((hit) => hit.id);
          },
          async measureSerialization() {
            const saved = index.toBinary();
            const bytes = saved.length;
            const started = performance.now();
            const loaded = ToolIndex.fromBinary(catalog, saved);
            const loadMs = performance.now() - started;
            // The loaded index must rank as the saved one, or its load time means nothing.
            const probe = 'search for a tool';
            const [a, b] = await Promise.all([index.search(probe, { limit }), loaded.search(probe, { limit })]);
            loaded.dispose();
            if (a.map((hit) => hit.id).join('\n') !== b.map((hit) => hit.id).join('\n')) {
              throw new Error('ToolIndex.fromBinary gave an index that ranks differently from the one saved.');
            }
            return { bytes, loadMs, data: saved };
          },
          dispose() {
            index.dispose();
          },
        };
      },
    };
  },
};
