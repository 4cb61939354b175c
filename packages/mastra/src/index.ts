// The public API of @toolscout/mastra: an explicit list.

export { conversationFromMessages } from './conversation-from-messages.js';
export {
  MASTRA_RESOURCE_ID_KEY,
  MASTRA_THREAD_ID_KEY,
  type RequestContextLike,
  type RequestIds,
  requestIds,
} from './request-ids.js';
export { ToolSearchCallError, toMastraTool } from './to-mastra-tool.js';
export { type MastraTool, type MastraToolInput, toToolDescriptors } from './to-tool-descriptors.js';
export {
  type ToolSearchFilterArgs,
  type ToolSearchFilterPhase,
  ToolSearchProcessor,
  type ToolSearchProcessorOptions,
} from './tool-search-processor.js';
