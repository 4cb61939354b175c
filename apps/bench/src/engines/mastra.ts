// Mastra's ToolSearchProcessor (@mastra/core), ranked through its own `search_tools` meta-tool.
import { MessageList } from '@mastra/core/agent';
import { type ProcessInputStepArgs, ToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool, type Tool } from '@mastra/core/tools';
import { ToolCatalog, type ToolDescriptor } from '@toolscout/core';
import { type EngineIndex, engineToolNames, type PreparedCatalog, type RankingEngine } from './engine.js';

/** The names of the tools Mastra's processor adds itself: a catalog tool named so is renamed. */
export const MASTRA_META_TOOLS: readonly string[] = ['search_tools', 'load_tool'];

/** What `search_tools` answers. */
interface MastraSearchOutput {
  results?: { name: string; description: string; score: number }[];
  message?: string;
}

/**
 * The catalog as Mastra tools, keyed by a provider-safe name: Mastra finds tools by key and id, and a
 * dataset id (`Vimeo API__Get video`) is not a valid tool name. The name is the one toolscout's
 * catalog gives the same id (`toToolName`), so both engines rank tools under the same names, and
 * `idOf` maps every name back to its dataset id. A tool named like one of Mastra's own meta-tools
 * ({@link MASTRA_META_TOOLS}) is renamed (`search_tools_2`): its results would be indistinguishable.
 */
export function toMastraTools(tools: readonly ToolDescriptor[]): {
  tools: Record<string, Tool>;
  idOf: Map<string, string>;
} {
  const catalog = new ToolCatalog(tools);
  const out: Record<string, Tool> = {};
  const idOf = new Map<string, string>();
  const entries = catalog.list();
  const names = engineToolNames(
    entries.map((entry) => entry.toolName),
    MASTRA_META_TOOLS,
  );
  entries.forEach((tool, i) => {
    const name = names[i]!;
    out[name] = createTool({
      id: name,
      description: tool.description ?? '',
      inputSchema: tool.jsonSchema,
      execute: async () => ({ ok: true }),
    }) as unknown as Tool;
    idOf.set(name, tool.id);
  });
  return { tools: out, idOf };
}

/**
 * The least a `processInputStep` call needs: the agent's own tools (none here), a message list for
 * the system prompt it adds, and a request context (where it looks for the thread id).
 */
function stepArgs(): ProcessInputStepArgs {
  return {
    messages: [],
    messageList: new MessageList(),
    systemMessages: [],
    state: {},
    stepNumber: 0,
    steps: [],
    retryCount: 0,
    tools: {},
    requestContext: new RequestContext(),
    abort: () => {
      throw new Error('aborted');
    },
  } as unknown as ProcessInputStepArgs;
}

type SearchToolsExecute = (input: { query: string }) => Promise<MastraSearchOutput>;

/**
 * Mastra's ToolSearchProcessor as an agent uses it: built over the catalog as Mastra tools with
 * `search.topK` = the limit (its index is a BM25 built in the constructor), then one
 * `processInputStep` returns the `search_tools` tool, whose `execute` (input and output validated by
 * Mastra, as in a real call) ranks the catalog.
 */
export const mastraEngine: RankingEngine = {
  name: 'mastra',
  description: "Mastra's ToolSearchProcessor (@mastra/core), through its search_tools meta-tool",
  async prepare(descriptors: readonly ToolDescriptor[]): Promise<PreparedCatalog> {
    const { tools, idOf } = toMastraTools(descriptors);
    return {
      async build({ limit }): Promise<EngineIndex> {
        const processor = new ToolSearchProcessor({ tools, search: { topK: limit } });
        const step = await processor.processInputStep(stepArgs());
        const searchTool = step.tools.search_tools as unknown as { execute?: SearchToolsExecute };
        const execute = searchTool.execute;
        if (typeof execute !== 'function') {
          throw new Error("Mastra's processInputStep returned no executable search_tools.");
        }
        return {
          async search(query) {
            const output = await execute({ query });
            if (!Array.isArray(output?.results)) {
              throw new Error(`Mastra's search_tools failed for ${JSON.stringify(query)}: ${JSON.stringify(output)}`);
            }
            return output.results.map((result) => {
              const id = idOf.get(result.name);
              if (id === undefined) throw new Error(`Mastra's search_tools returned an unknown tool "${result.name}".`);
              return id;
            });
          },
          dispose: () => processor.clearAllState(),
        };
      },
    };
  },
};
