// The public API of @toolscout/ai-sdk: an explicit list.

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
  type ToolSearchCatalog,
} from './create-tool-search.js';
export { type ToolDescriptorExtras, toToolDescriptor, toToolDescriptors } from './to-tool-descriptor.js';
export { ToolCallFailedError } from './tool-call-failed-error.js';
