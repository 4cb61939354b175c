import type { ConversationEntry } from '@toolscout/core';
import { conversationFromContentParts } from '@toolscout/core/internal';
import type { ModelMessage } from 'ai';

/**
 * The tool calls and results of AI SDK messages (`ModelMessage[]`, e.g. `result.responseMessages`
 * or what `prepareStep` receives), oldest first, in toolscout's neutral form: assistant `tool-call`
 * parts, and `tool-result` parts of tool messages (and of assistant messages, for provider-executed
 * tools), each output as the model saw it (`{ error }` / `{ denied }` for errors and denials). Other
 * parts do not matter to tool search.
 */
export function conversationFromMessages(messages: readonly ModelMessage[] | undefined): ConversationEntry[] {
  return conversationFromContentParts(messages);
}
