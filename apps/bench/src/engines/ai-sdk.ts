// The AI SDK's own toolSearch: its default ranking over deferred tools' names and descriptions.
import { ToolCatalog, type ToolDescriptor } from '@toolscout/core';
import { jsonSchema, type ToolSet, tool, toolSearch } from 'ai';
import { createToolSearchState } from 'ai/internal';
import { type EngineIndex, engineToolNames, type PreparedCatalog, type RankingEngine } from './engine.js';

/** The key of the search tool in the tool set (a catalog tool named so is keyed `tool_search_2`). */
export const AI_SDK_SEARCH_TOOL = 'tool_search';

/** What the bound `toolSearch` answers. */
interface ToolSearchOutput {
  tools: { name: string; description?: string }[];
}

/**
 * The catalog as an AI SDK tool set: every tool `deferLoading: true` under the provider-safe name
 * toolscout's catalog gives its id (so `idOf` maps names back; one named like the search tool is
 * renamed, see `engineToolNames`), plus `toolSearch({ maxResults })` under {@link AI_SDK_SEARCH_TOOL}.
 * This is the set a user passes to `generateText`.
 */
export function toAiSdkToolSet(
  descriptors: readonly ToolDescriptor[],
  maxResults: number,
): { tools: ToolSet; idOf: Map<string, string> } {
  const catalog = new ToolCatalog(descriptors);
  const tools: ToolSet = {};
  const idOf = new Map<string, string>();
  const entries = catalog.list();
  const names = engineToolNames(
    entries.map((entry) => entry.toolName),
    [AI_SDK_SEARCH_TOOL],
  );
  entries.forEach((entry, i) => {
    tools[names[i]!] = tool({
      description: entry.description ?? '',
      inputSchema: jsonSchema(entry.jsonSchema as Parameters<typeof jsonSchema>[0]),
      deferLoading: true,
      execute: async () => ({ ok: true }),
    });
    idOf.set(names[i]!, entry.id);
  });
  tools[AI_SDK_SEARCH_TOOL] = toolSearch({ maxResults });
  return { tools, idOf };
}

type BoundSearch = (input: { query: string }, options?: unknown) => Promise<ToolSearchOutput>;

/**
 * Binds `toolSearch` over a tool set the way `generateText` does for one generation:
 * `createToolSearchState({ tools })` (exported by `ai/internal`; generateText calls it with the same
 * tools), then the step's tool set, whose search tool now searches the deferred tools. Returns that
 * search tool's `execute`.
 */
export function bindToolSearch(tools: ToolSet): BoundSearch {
  const prepareStep = createToolSearchState({ tools, toolCallers: undefined });
  const stepTools = prepareStep(tools);
  const execute = stepTools?.[AI_SDK_SEARCH_TOOL]?.execute as BoundSearch | undefined;
  if (typeof execute !== 'function') throw new Error('createToolSearchState bound no executable toolSearch.');
  return execute;
}

/**
 * The AI SDK's `toolSearch` with its default search: a query term in a tool's name scores 2, in its
 * description 1 (no stemming, no IDF); ties keep the tool set's order. `maxResults` is the limit.
 */
export const aiSdkEngine: RankingEngine = {
  name: 'ai-sdk',
  description: "the AI SDK's toolSearch (ai), default search over name and description",
  async prepare(descriptors: readonly ToolDescriptor[]): Promise<PreparedCatalog> {
    const { tools: deferred, idOf } = toAiSdkToolSet(descriptors, 1);
    return {
      async build({ limit }): Promise<EngineIndex> {
        const execute = bindToolSearch({ ...deferred, [AI_SDK_SEARCH_TOOL]: toolSearch({ maxResults: limit }) });
        return {
          async search(query) {
            const output = await execute({ query }, { toolCallId: 'bench', messages: [] });
            return output.tools.map(({ name }) => {
              const id = idOf.get(name);
              if (id === undefined) throw new Error(`The AI SDK's toolSearch returned an unknown tool "${name}".`);
              return id;
            });
          },
        };
      },
    };
  },
};
