// The public API of @toolscout/langchain, an explicit list: the tool search (createAgent middleware, custom-graph
// tools and tool node), tool conversions both ways, messages to core's conversation, and LangChain embeddings.
export { conversationFromMessages } from './conversation-from-messages.js';
export { LangChainEmbedder, type LangChainEmbedderOptions } from './langchain-embedder.js';
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
export {
  type LangChainStateStrategy,
  LangChainToolSearch,
  type LangChainToolSearchOptions,
  type ToolSearchAgentMiddleware,
  toolSearchMiddleware,
} from './langchain-tool-search.js';
export { LOADED_TOOLS_STATE_KEY, type LoadedToolsStateSchema, loadedToolsOf } from './loaded-tools-state.js';
