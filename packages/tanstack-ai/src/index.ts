// The public API of @toolscout/tanstack-ai, an explicit list: the chat() middleware, tool conversions both ways,
// and messages to core's conversation.

export { ToolCallFailedError } from '@toolscout/core/errors';
export { conversationFromMessages } from './conversation-from-messages.js';
export {
  type FromTanStackToolOptions,
  fromTanStackTool,
  fromTanStackTools,
  isTanStackTool,
  type TanStackTool,
  toTanStackTool,
} from './tanstack-tool.js';
export {
  type ToolSearchChatMiddleware,
  type ToolSearchMiddlewareOptions,
  toolSearchMiddleware,
} from './tool-search-middleware.js';
