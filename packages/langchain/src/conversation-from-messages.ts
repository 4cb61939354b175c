import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ConversationEntry } from '@toolscout/core';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { contentOutput, conversationOf, describeValue } from '@toolscout/core/internal';

/**
 * Extracts the tool calls (from `AIMessage.tool_calls`) and tool results (`ToolMessage`s) of a
 * LangChain conversation, oldest first, in core's neutral form. A ToolMessage without a `name` takes
 * the name of the call it answers. Other messages do not matter to tool search and are skipped.
 */
export function conversationFromMessages(messages: readonly BaseMessage[]): ConversationEntry[] {
  if (!Array.isArray(messages)) {
    throw new InvalidArgumentError(
      'messages',
      `conversationFromMessages expects an array of LangChain messages, got ${describeValue(messages)}.`,
    );
  }
  return conversationOf(messages, (message) => {
    if (AIMessage.isInstance(message)) {
      return { calls: (message.tool_calls ?? []).map(({ id, name, args }) => ({ id, name, input: args })) };
    }
    if (!ToolMessage.isInstance(message)) return undefined;
    // Text (JSON is parsed by core), or content blocks as they are.
    return { result: { callId: message.tool_call_id, name: message.name, output: contentOutput(message.content) } };
  });
}
