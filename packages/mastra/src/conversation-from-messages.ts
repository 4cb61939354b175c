import type { ConversationEntry } from '@toolscout/core';
import { isRecord } from '@toolscout/core/internal';

/** A tool invocation as Mastra stores it in a message part (`{ type: 'tool-invocation', toolInvocation }`). */
export interface MastraToolInvocation {
  /** `call` (or `partial-call`) while pending, `result` once answered, `output-error` when it failed. */
  state?: string;
  /** Pairs the call with its result. */
  toolCallId?: string;
  /** The name the model called. */
  toolName?: string;
  /** The call's arguments. */
  args?: unknown;
  /** The tool's output, in state `result`. */
  result?: unknown;
  /** What went wrong, in state `output-error`. */
  errorText?: unknown;
}

/**
 * The tool invocations of Mastra messages (`MastraDBMessage[]`, as processors and memory hold them),
 * oldest first: the `tool-invocation` parts of `content.parts`, or the older `content.toolInvocations`
 * list when a message has no parts. Anything else in the messages is skipped.
 */
export function toolInvocationsOf(messages: readonly unknown[] | undefined): MastraToolInvocation[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    const content = isRecord(message) && isRecord(message.content) ? message.content : {};
    const { parts, toolInvocations } = content;
    const invocations = Array.isArray(parts)
      ? parts.map((part) => (isRecord(part) && part.type === 'tool-invocation' ? part.toolInvocation : undefined))
      : Array.isArray(toolInvocations)
        ? toolInvocations
        : [];
    return invocations.filter(isRecord) as MastraToolInvocation[];
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
  return toolInvocationsOf(messages).flatMap(({ toolCallId, toolName, state, args, result, errorText }) => {
    if (typeof toolName !== 'string') return [];
    const id = typeof toolCallId === 'string' ? toolCallId : undefined;
    const call: ConversationEntry = { type: 'tool-call', toolCallId: id, toolName, input: args };
    if (state !== 'result' && state !== 'output-error') return [call];
    return [call, { type: 'tool-result', toolCallId: id, toolName, output: state === 'result' ? result : errorText }];
  });
}
