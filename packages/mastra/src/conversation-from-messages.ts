import type { ConversationEntry } from '@toolscout/core';
import { conversationFromInvocations, isRecord, type ToolInvocation } from '@toolscout/core/internal';

/**
 * The tool invocations of Mastra messages (`MastraDBMessage[]`, as processors and memory hold them),
 * oldest first: the `tool-invocation` parts of `content.parts`, or the older `content.toolInvocations`
 * list when a message has no parts. Anything else in the messages is skipped.
 */
export function toolInvocationsOf(messages: readonly unknown[] | undefined): ToolInvocation[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    const content = isRecord(message) && isRecord(message.content) ? message.content : {};
    const { parts, toolInvocations } = content;
    const invocations = Array.isArray(parts)
      ? parts.map((part) => (isRecord(part) && part.type === 'tool-invocation' ? part.toolInvocation : undefined))
      : Array.isArray(toolInvocations)
        ? toolInvocations
        : [];
    return invocations.filter(isRecord) as ToolInvocation[];
  });
}

/**
 * Converts Mastra messages (`MastraDBMessage[]`: a step's `args.messages`, or messages recalled from
 * memory) into the neutral conversation toolscout reads: every tool invocation becomes a `tool-call`
 * entry, followed by a `tool-result` entry once it has a result (`output` is the result) or failed
 * (`output` is the error text). Pending calls (awaiting approval, say) have no result entry.
 *
 * @example
 * ```ts
 * conversationFromMessages(args.messages);
 * // [{ type: 'tool-call', toolName: 'load_tool', ... }, { type: 'tool-result', toolName: 'load_tool', output: { loaded: [...] } }]
 * ```
 */
export function conversationFromMessages(messages: readonly unknown[] | undefined): ConversationEntry[] {
  return conversationFromInvocations(toolInvocationsOf(messages));
}
