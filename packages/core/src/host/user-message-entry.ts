import type { ConversationEntry } from '../session/conversation.js';
import { isRecord } from '../values.js';

/**
 * A user message's content as the conversation entry `preselect` reads (`{ type: 'user-message',
 * text }`): a string as it is; a list of parts as the texts of its `{ type: 'text', text }` parts
 * joined by line breaks (images, files and other parts left out). Undefined when there is no text.
 */
export function userMessageEntry(content: unknown): ConversationEntry | undefined {
  const texts = Array.isArray(content)
    ? content.flatMap((part) =>
        isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
      )
    : [content];
  const text = texts.filter((item): item is string => typeof item === 'string' && item !== '').join('\n');
  return text === '' ? undefined : { type: 'user-message', text };
}
