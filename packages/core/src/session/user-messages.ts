import { isRecord } from '../values.js';
import type { ConversationEntry } from './conversation.js';
import { nameStart } from './model-input-limits.js';

/**
 * Characters of a user message that preselect reads (its selector gets them, its search the first
 * `MODEL_INPUT_LIMITS.queryLength`); the rest is ignored.
 */
export const USER_MESSAGE_LENGTH = 4_000;

/**
 * The text of a conversation entry that is a user message (`{ type: 'user-message', text }` with
 * some text other than white space), its first {@link USER_MESSAGE_LENGTH} characters; undefined
 * for any other entry. Read leniently: the conversation comes from the client.
 */
export function userMessageText(entry: unknown): string | undefined {
  if (!isRecord(entry) || entry.type !== 'user-message' || !Object.hasOwn(entry, 'text')) return undefined;
  const { text } = entry;
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  return nameStart(text, USER_MESSAGE_LENGTH);
}

/** The text of the conversation's latest user message (see {@link userMessageText}), if any. */
export function latestUserMessage(conversation: readonly ConversationEntry[] | undefined): string | undefined {
  if (!Array.isArray(conversation)) return undefined;
  for (let i = conversation.length - 1; i >= 0; i--) {
    const text = userMessageText(conversation[i]);
    if (text !== undefined) return text;
  }
  return undefined;
}
