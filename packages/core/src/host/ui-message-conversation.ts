import type { ConversationEntry } from '../session/conversation.js';
import { isRecord } from '../values.js';
import { conversationFromInvocations, toolInvocationsOf } from './tool-invocations.js';

/**
 * The text of a user message in the UI format (`{ role: 'user', parts }`, or `{ content: { parts } }`
 * as Mastra stores it; a plain string `content` too): its text parts joined by a new line, undefined
 * for any other message or one without text.
 */
export function userTextOf(message: unknown): string | undefined {
  if (!isRecord(message) || message.role !== 'user') return undefined;
  const { content } = message;
  if (typeof content === 'string') return content;
  const body = isRecord(content) ? content : message;
  if (!Array.isArray(body.parts)) return typeof body.content === 'string' ? body.content : undefined;
  const texts = body.parts.flatMap((part) =>
    isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * The conversation of messages in the UI format (Mastra's `MastraDBMessage[]`, AI SDK 4's UI
 * messages), oldest first: each user message as a `user-message` entry (for `preselect`), in order
 * with the tool calls and results of the others (see {@link conversationFromInvocations}).
 */
export function conversationFromUiMessages(messages: readonly unknown[] | undefined): ConversationEntry[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message): ConversationEntry[] => {
    const text = userTextOf(message);
    if (text !== undefined) return [{ type: 'user-message', text }];
    return conversationFromInvocations(toolInvocationsOf([message]));
  });
}
