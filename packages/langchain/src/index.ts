// The public API of @toolscout/langchain: an explicit list.

// Custom graphs: messages to core's conversation
export { conversationFromMessages } from './conversation-from-messages.js';
// Semantic search over LangChain embeddings
export { LangChainEmbedder, type LangChainEmbedderOptions } from './langchain-embedder.js';
// Tool conversions, both ways
export {
  type FromLangChainToolOptions,
  fromLangChainTool,
  fromLangChainTools,
  isLangChainTool,
  type LangChainTool,
  type LangChainToolLike,
  type ToLangChainToolOptions,
  toLangChainTool,
} from './langchain-tool.js';
// The tool search: createAgent middleware, custom-graph tools and tool node
export {
  type LangChainStateStrategy,
  LangChainToolSearch,
  type LangChainToolSearchOptions,
  type ToolSearchAgentMiddleware,
  toolSearchMiddleware,
} from './langchain-tool-search.js';
export { LOADED_TOOLS_STATE_KEY, type LoadedToolsStateSchema, loadedToolsOf } from './loaded-tools-state.js';
