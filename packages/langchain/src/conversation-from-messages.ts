import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ConversationEntry } from '@toolscout/core';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { contentOutput, conversationOf, describeValue } from '@toolscout/core/internal';

/**
 * The user's messages (`HumanMessage` text), tool calls (`AIMessage.tool_calls`) and tool results
 * (`ToolMessage`s) of a LangChain conversation, oldest first, in core's neutral form; other messages are skipped.
 */
export function conversationFromMessages(messages: readonly BaseMessage[]): ConversationEntry[] {
  if (!Array.isArray(messages)) {
    throw new InvalidArgumentError(
      'messages',
      `conversationFromMessages expects an array of LangChain messages, got ${describeValue(messages)}.`,
    );
  }
  return conversationOf(messages, (message) => {
    if (HumanMessage.isInstance(message)) return { user: message.text };
    if (AIMessage.isInstance(message)) {
      return { calls: (message.tool_calls ?? []).map(({ id, name, args }) => ({ id, name, input: args })) };
    }
    if (!ToolMessage.isInstance(message)) return undefined;
    // Text (JSON is parsed by core), or content blocks as they are.
    return { result: { callId: message.tool_call_id, name: message.name, output: contentOutput(message.content) } };
  });
}
