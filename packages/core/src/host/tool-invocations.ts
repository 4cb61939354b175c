import type { ConversationEntry } from '../session/conversation.js';
import type { ToolSearchStep } from '../session/tool-search-step.js';
import { isRecord } from '../values.js';

/**
 * A tool call with its outcome in one record, as UI message formats keep it (AI SDK 4's
 * `toolInvocation`, Mastra's messages): fields that are not of their type are ignored.
 */
export interface ToolInvocation {
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
 * The tool invocations of messages in the UI format (`{ parts }`, or `{ content: { parts } }` where the
 * format sits in a message's content, as Mastra stores it), oldest first: the `toolInvocation` of each
 * `tool-invocation` part, or a message's older `toolInvocations` list when it has no parts. Anything
 * else is skipped.
 */
export function toolInvocationsOf(messages: readonly unknown[] | undefined): ToolInvocation[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    const body = isRecord(message) && isRecord(message.content) ? message.content : message;
    const { parts, toolInvocations } = isRecord(body) ? body : {};
    const invocations = Array.isArray(parts)
      ? parts.map((part) => (isRecord(part) && part.type === 'tool-invocation' ? part.toolInvocation : undefined))
      : Array.isArray(toolInvocations)
        ? toolInvocations
        : [];
    return invocations.filter(isRecord) as ToolInvocation[];
  });
}

/**
 * The conversation of tool invocations, oldest first: each one with a tool name is a `tool-call`
 * entry, followed by a `tool-result` once it has a result (`output`: the result) or failed
 * (`output`: the error text). A pending call (awaiting approval, say) has no result entry; values
 * that are not records are skipped.
 */
export function conversationFromInvocations(invocations: readonly unknown[]): ConversationEntry[] {
  return invocations.flatMap((invocation) => {
    if (!isRecord(invocation)) return [];
    const { toolCallId, toolName, state, args, result, errorText } = invocation as ToolInvocation;
    if (typeof toolName !== 'string') return [];
    const id = typeof toolCallId === 'string' ? toolCallId : undefined;
    const call: ConversationEntry = { type: 'tool-call', toolCallId: id, toolName, input: args };
    if (state !== 'result' && state !== 'output-error') return [call];
    return [call, { type: 'tool-result', toolCallId: id, toolName, output: state === 'result' ? result : errorText }];
  });
}

/** What a host keeps in a run's own state for {@link correctUnroutedCalls}: a plain object, filled in there. */
export interface UnroutedCallsMemo<TTool = unknown> {
  /** The step prepared last in the run. */
  step?: ToolSearchStep<TTool>;
  /** The calls whose outcome was already looked at. */
  seen?: Set<string>;
}

/**
 * For hosts that answer a call of a tool the step did not offer with an error of their own: replaces
 * that error's text (`isUnrouted`) with the message of the step the call was made at (not loaded
 * yet: load it; unknown: did you mean ...), before the model reads it. Each answered call is looked
 * at once; those answered before the run's first step (its history) are left as they are.
 */
export async function correctUnroutedCalls<TTool>(
  invocations: readonly ToolInvocation[],
  memo: UnroutedCallsMemo<TTool>,
  isUnrouted: (toolName: string, errorText: string) => boolean,
): Promise<void> {
  memo.seen ??= new Set();
  for (const invocation of invocations) {
    const { toolCallId, toolName, state, errorText } = invocation;
    if (typeof toolCallId !== 'string' || (state !== 'result' && state !== 'output-error')) continue;
    if (memo.seen.has(toolCallId)) continue;
    memo.seen.add(toolCallId);
    if (!memo.step || state !== 'output-error' || typeof toolName !== 'string' || typeof errorText !== 'string')
      continue;
    if (isUnrouted(toolName, errorText)) invocation.errorText = (await memo.step.refuseUnrouted(toolName)).message;
  }
}
