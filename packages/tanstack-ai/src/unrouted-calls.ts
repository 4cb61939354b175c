import type { ModelMessage } from '@tanstack/ai';
import type { ToolSearchStep } from '@toolscout/core';

/** The text TanStack AI answers a call of a tool it was not given with (`{ "error": "Unknown tool: <name>" }`). */
function unknownToolName(content: ModelMessage['content']): string | undefined {
  if (typeof content !== 'string' || !content.startsWith('{"error":"Unknown tool: ')) return undefined;
  try {
    const error = (JSON.parse(content) as { error?: unknown }).error;
    return typeof error === 'string' ? error.slice('Unknown tool: '.length) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The messages with TanStack AI's "Unknown tool" answers to the calls of the latest assistant message
 * replaced by the message of the step the calls were made at (`stepOfCalls`: not loaded yet, load it;
 * unknown, did you mean ...), in the same `{ error }` shape; the messages as they are when there is none.
 */
export async function correctUnroutedCalls<TTool>(
  messages: ModelMessage[],
  stepOfCalls: () => Promise<ToolSearchStep<TTool>>,
): Promise<ModelMessage[]> {
  const last = messages.findLastIndex((message) => message.role === 'assistant' && message.toolCalls !== undefined);
  if (last < 0) return messages;
  const callNames = new Map(messages[last]!.toolCalls!.map((call) => [call.id, call.function.name]));
  let step: ToolSearchStep<TTool> | undefined;
  let corrected = messages;
  for (let index = last + 1; index < messages.length; index++) {
    const message = messages[index]!;
    const name = unknownToolName(message.content);
    if (message.role !== 'tool' || name === undefined || callNames.get(message.toolCallId ?? '') !== name) continue;
    step ??= await stepOfCalls();
    const { message: error } = await step.refuseUnrouted(name);
    if (corrected === messages) corrected = [...messages];
    corrected[index] = { ...message, content: JSON.stringify({ error }) };
  }
  return corrected;
}
