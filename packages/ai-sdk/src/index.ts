// The public API of @toolscout/ai-sdk: an explicit list.

export { ToolCallFailedError } from '@toolscout/core/errors';
export { conversationFromMessages } from './conversation-from-messages.js';
export { createEmbedder, type EmbedderOptions } from './create-embedder.js';
export {
  createSearchCallback,
  type SearchCallback,
  type SearchCallbackInput,
  type SearchCallbackOptions,
} from './create-search-callback.js';
export {
  type AISDKToolSearch,
  type CreateToolSearchOptions,
  createToolSearch,
  type GenerationRequest,
  type GenerationRequestInfo,
} from './create-tool-search.js';
export {
  fromAISDKTool,
  fromAISDKTools,
  type ToolDescriptorExtras,
  type ToolSearchCatalog,
} from './from-ai-sdk-tool.js';
