import {
  type LangChainStateStrategy,
  LangChainToolSearch,
  type LangChainToolSearchOptions,
  type ToolSearchAgentMiddleware,
} from './langchain-tool-search.js';

/** Options of {@link toolSearchMiddleware}: those of {@link LangChainToolSearch}, `name` included. */
export type ToolSearchMiddlewareOptions<TState extends LangChainStateStrategy = LangChainStateStrategy> =
  LangChainToolSearchOptions<TState>;

/**
 * Tool search as `createAgent` middleware: the model starts with the meta-tools (`search_tools`,
 * `load_tool`, ...) beside the agent's own tools, and loaded catalog tools are offered from the next
 * model call. Give a {@link LangChainToolSearch} instead of options to share its session (telemetry,
 * token figures) or to use it in a custom graph too.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   model: 'openai:gpt-5',
 *   tools: [],
 *   middleware: [toolSearchMiddleware({ catalog: manyTools, state: 'agent-state' })],
 *   checkpointer: new MemorySaver(),
 * });
 * await agent.invoke({ messages: [{ role: 'user', content: 'Weather in Paris?' }] }, { configurable: { thread_id: 't1' } });
 * ```
 */
export function toolSearchMiddleware<TState extends LangChainStateStrategy = LangChainStateStrategy>(
  options: ToolSearchMiddlewareOptions<TState> | LangChainToolSearch<TState>,
): ToolSearchAgentMiddleware<TState> {
  return (options instanceof LangChainToolSearch ? options : new LangChainToolSearch<TState>(options)).middleware();
}
