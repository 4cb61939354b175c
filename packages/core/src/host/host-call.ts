import { clipName } from '../session/model-input-limits.js';
import type { ExecuteOptions, ToolCallOutcome } from '../session/step-types.js';
import type { ToolSearchStep } from '../session/tool-search-step.js';

/** A tool call's answer for a host that gives the model every failure as a tool result. */
export type HostCallResult = Extract<ToolCallOutcome, { ok: true }> | { ok: false; message: string };

/** Options of {@link runHostCall}: `step.execute`'s, and what must propagate. */
export interface HostCallOptions extends ExecuteOptions {
  /** Whether an error is the host's control flow (an interrupt, a command to a parent graph). Default: none is. */
  isControlFlow?: (error: unknown) => boolean;
}

/**
 * Runs a model's tool call through a step, for a host that answers every failure with a tool
 * result: the model's mistakes and a failing tool come back as `{ ok: false, message }` (what the
 * model reads), and so does an error of the session itself (a store that is down: `Tool "x" could
 * not run: ...`). Only the host's control flow propagates: an error `isControlFlow` accepts, thrown
 * by the session or by the tool, and a tool's error once `abortSignal` has fired.
 */
export async function runHostCall<TTool>(
  step: ToolSearchStep<TTool>,
  name: string,
  input: unknown,
  { isControlFlow = () => false, ...options }: HostCallOptions = {},
): Promise<HostCallResult> {
  let outcome: ToolCallOutcome;
  try {
    outcome = await step.execute(name, input, options);
  } catch (error) {
    if (isControlFlow(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Tool "${clipName(String(name))}" could not run: ${reason}` };
  }
  if (outcome.ok) return outcome;
  const { code, cause, message } = outcome.error;
  if (code === 'execution-failed' && (isControlFlow(cause) || options.abortSignal?.aborted)) throw cause;
  return { ok: false, message };
}

/** A tool's output as the text of a tool result: a string as it is, anything else as JSON (or `String()`). */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}
