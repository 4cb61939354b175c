import { countToolDefinitionTokens } from '../token-count.js';
import type { CatalogTool } from '../types.js';
import type { OfferedTool, StepTokenReport } from './step-types.js';

/** The o200k tokens of a step's offered tool definitions (the `offered` figure of a step's report). */
export async function offeredTokens(offered: readonly OfferedTool<unknown>[]): Promise<number> {
  return (await countToolDefinitionTokens(offered)).tokens;
}

/**
 * Token figures of steps against offering every catalog and direct tool, with a real o200k
 * tokenizer; the whole catalog's count is kept until the catalog changes (its `version`).
 */
export class StepTokenMeter<TTool> {
  readonly #allTools: () => readonly CatalogTool<TTool>[];
  #catalog: { version: number; tools: number; value: Promise<{ bytes: number; tokens: number }> } | undefined;

  /** `allTools`: every tool the catalog figure offers (direct and catalog tools). */
  constructor(allTools: () => readonly CatalogTool<TTool>[]) {
    this.#allTools = allTools;
  }

  /** The figures of a step's offered tools; `version` changes whenever the catalog does. */
  async measure(offered: readonly OfferedTool<TTool>[], version: number): Promise<StepTokenReport> {
    const figures = await countToolDefinitionTokens(offered);
    if (this.#catalog?.version !== version) {
      const all = this.#allTools().map((tool) => ({
        name: tool.toolName,
        description: tool.description ?? '',
        inputSchema: tool.jsonSchema,
      }));
      this.#catalog = { version, tools: all.length, value: countToolDefinitionTokens(all) };
    }
    const { tools, value } = this.#catalog;
    const catalog = await value;
    return {
      offered: { tools: offered.length, ...figures },
      catalog: { tools, ...catalog },
      savedTokens: catalog.tokens - figures.tokens,
      ratio: catalog.tokens === 0 ? 0 : figures.tokens / catalog.tokens,
    };
  }
}
