// The public API of @toolscout/mastra: an explicit list.

export { ToolCallFailedError } from '@toolscout/core/errors';
export { conversationFromMessages } from './conversation-from-messages.js';
export { fromMastraTool, fromMastraTools, type MastraTool, type MastraToolInput } from './from-mastra-tools.js';
export { toMastraTool } from './to-mastra-tool.js';
export { ToolSearchProcessor } from './tool-search-processor.js';
export type {
  ToolSearchFilterArgs,
  ToolSearchFilterPhase,
  ToolSearchProcessorOptions,
} from './tool-search-processor-options.js';
