import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ConversationEntry } from '@toolscout/core';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { describeValue } from '@toolscout/core/internal';

/** What a ToolMessage carried: its text (JSON is parsed by core), or its content blocks as they are. */
function toolMessageOutput(message: ToolMessage): unknown {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((block) => typeof block === 'object' && block?.type === 'text')) {
    return message.text;
  }
  return content;
}

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
  const entries: ConversationEntry[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        entries.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args });
        if (call.id) callNames.set(call.id, call.name);
      }
    } else if (ToolMessage.isInstance(message)) {
      const toolName = message.name ?? callNames.get(message.tool_call_id);
      if (toolName === undefined) continue;
      entries.push({
        type: 'tool-result',
        toolCallId: message.tool_call_id,
        toolName,
        output: toolMessageOutput(message),
      });
    }
  }
  return entries;
}
