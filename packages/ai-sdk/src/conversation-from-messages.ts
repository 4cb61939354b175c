import type { ConversationEntry } from '@toolscout/core';
import { conversationFromContentParts, isRecord, userMessageEntry } from '@toolscout/core/internal';
import type { ModelMessage } from 'ai';

/**
 * The conversation of AI SDK messages (`ModelMessage[]`) in toolscout's neutral form, oldest first:
 * the user's messages (their text), tool calls, and tool results as the model saw them.
 */
export function conversationFromMessages(messages: readonly ModelMessage[] | undefined): ConversationEntry[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: unknown) =>
    isRecord(message) && message.role === 'user'
      ? (userMessageEntry(message.content) ?? [])
      : conversationFromContentParts([message]),
  );
}
