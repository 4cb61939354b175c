import type { ConversationEntry } from '@toolscout/core';
import { conversationFromUiMessages } from '@toolscout/core/internal';

/**
 * Converts Mastra messages (`MastraDBMessage[]`: a step's `args.messages`, or messages recalled from memory) into the
 * conversation toolscout reads, oldest first: the user's messages (`user-message`, for `preselect`), and each tool
 * invocation as a `tool-call` entry followed by its `tool-result` once it has a result or failed (`output`: the error
 * text); pending calls (awaiting approval) have no result entry.
 */
export function conversationFromMessages(messages: readonly unknown[] | undefined): ConversationEntry[] {
  return conversationFromUiMessages(messages);
}
