import {
  type LangChainStateStrategy,
  LangChainToolSearch,
  type LangChainToolSearchOptions,
  type ToolSearchAgentMiddleware,
} from './langchain-tool-search.js';

/** Options of {@link toolSearchMiddleware}: the tool search options, and the middleware's name. */
export interface ToolSearchMiddlewareOptions<TState extends LangChainStateStrategy = LangChainStateStrategy>
  extends LangChainToolSearchOptions<TState> {
  /** The middleware's name; unique among an agent's middleware. Default `toolscout`. */
  name?: string;
}

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
  if (options instanceof LangChainToolSearch) return options.middleware();
  // Not options at all: the constructor says what it needs.
  if (typeof options !== 'object' || options === null) return new LangChainToolSearch<TState>(options).middleware();
  const { name, ...searchOptions } = options;
  return new LangChainToolSearch<TState>(searchOptions).middleware({ name });
}
