import type { ConversationEntry } from '@toolscout/core';
import { conversationFromInvocations, toolInvocationsOf } from '@toolscout/core/internal';

/** The tool invocations of Mastra messages (`MastraDBMessage[]`): their content is in the UI format core reads. */
export { toolInvocationsOf } from '@toolscout/core/internal';

/**
 * Converts Mastra messages (`MastraDBMessage[]`: a step's `args.messages`, or messages recalled from memory) into the
 * neutral conversation toolscout reads: every tool invocation becomes a `tool-call` entry, followed by a `tool-result`
 * entry once it has a result (`output` is the result) or failed (`output` is the error text). Pending calls (awaiting
 * approval, say) have no result entry.
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
