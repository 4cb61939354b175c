import type { ConversationEntry } from '../session/conversation.js';
import { isRecord } from '../values.js';

/** A message's tool calls, tool result or user's text, as a host reads them off its framework's message. */
export interface MessageToolParts {
  /** The text of a user's message (its text parts joined), for `preselect`. */
  user?: string;
  /** The tool calls the model made in this message, in order. */
  calls?: readonly { id?: string; name: string; input: unknown }[];
  /** The tool result this message carries; `name` may be absent when the message names only the call. */
  result?: { callId: string; name?: string; output: unknown };
}

/**
 * The conversation core reads (the user's messages, tool calls and tool results, oldest first) from a
 * framework's messages: `read` gives each message's parts, or nothing for a message that holds none.
 * A result without a name takes the name of the call it answers; one that answers no known call is
 * skipped.
 */
export function conversationOf<TMessage>(
  messages: Iterable<TMessage>,
  read: (message: TMessage) => MessageToolParts | undefined,
): ConversationEntry[] {
  const entries: ConversationEntry[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    const { user, calls = [], result } = read(message) ?? {};
    if (user !== undefined) entries.push({ type: 'user-message', text: user });
    for (const { id, name, input } of calls) {
      entries.push({ type: 'tool-call', toolCallId: id, toolName: name, input });
      if (id) callNames.set(id, name);
    }
    const toolName = result && (result.name ?? callNames.get(result.callId));
    if (result && toolName !== undefined) {
      entries.push({ type: 'tool-result', toolCallId: result.callId, toolName, output: result.output });
    }
  }
  return entries;
}

/**
 * A message content as a tool result's output: a string as it is, a list of text blocks
 * (`{ type: 'text', text }`) as their texts joined, anything else (images, mixed blocks) as it is.
 */
export function contentOutput(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts = content.map((block) =>
    isRecord(block) && block.type === 'text' ? String(block.text ?? '') : undefined,
  );
  return texts.every((text) => text !== undefined) ? texts.join('') : content;
}
