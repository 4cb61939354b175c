import type { ModelMessage } from '@tanstack/ai';
import type { ConversationEntry } from '@toolscout/core';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { contentOutput, conversationOf, describeValue } from '@toolscout/core/internal';

/** A message content's text: a string as it is, the `content` of its text parts joined (other parts left out). */
function textOf(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' ? part.content : '')).join('');
}

/** A tool call's arguments (JSON text in TanStack AI) as a value: parsed, or the text as it is when it is not JSON. */
function argumentsOf(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
}

/** Whether a tool message is TanStack AI's placeholder for a call still to run (an approved call: `pendingExecution`). */
export function isPendingPlaceholder(message: ModelMessage): boolean {
  if (message.role !== 'tool' || typeof message.content !== 'string' || !message.content.includes('pendingExecution'))
    return false;
  try {
    return (JSON.parse(message.content) as { pendingExecution?: unknown }).pendingExecution === true;
  } catch {
    return false;
  }
}

/**
 * The user's messages, tool calls (`toolCalls` of assistant messages) and tool results (`tool`
 * messages, not the placeholders of calls still to run) of a TanStack AI conversation, oldest
 * first, in core's neutral form.
 */
export function conversationFromMessages(messages: readonly ModelMessage[]): ConversationEntry[] {
  if (!Array.isArray(messages)) {
    throw new InvalidArgumentError(
      'messages',
      `conversationFromMessages expects an array of TanStack AI ModelMessages, got ${describeValue(messages)}.`,
    );
  }
  return conversationOf(messages, (message: ModelMessage) => {
    if (typeof message !== 'object' || message === null) return undefined;
    if (message.role === 'user') return { user: textOf(message.content) };
    if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map(({ id, function: fn }) => ({
        id,
        name: fn.name,
        input: argumentsOf(fn.arguments),
      }));
      return { calls };
    }
    if (message.role !== 'tool' || typeof message.toolCallId !== 'string' || isPendingPlaceholder(message))
      return undefined;
    // Text (JSON is parsed by core), or content parts as they are.
    return { result: { callId: message.toolCallId, output: contentOutput(message.content) } };
  });
}
