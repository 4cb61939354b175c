import { ToolCallFailedError } from '../errors.js';
import type { OfferedTool } from '../session/step-types.js';
import type { ToolSearchStep } from '../session/tool-search-step.js';
import { isRecord } from '../values.js';

/**
 * A step's pinned and loaded tools by model-facing name, made with `convert`: what a host hands a call
 * it resumes outside a model step (an approved call), so the call finds its tool.
 */
export function keptTools<TTool, THostTool>(
  step: ToolSearchStep<TTool>,
  convert: (offered: OfferedTool<TTool>) => THostTool,
): Record<string, THostTool> {
  const tools: Record<string, THostTool> = {};
  for (const offered of step.tools) {
    if (offered.kind === 'pinned' || offered.kind === 'loaded') tools[offered.name] = convert(offered);
  }
  return tools;
}

/**
 * The object kept under `key` in a framework's per-run state (created there on first use), for a host
 * that keeps something between the steps of one run (e.g. `correctUnroutedCalls`' memo); a fresh one
 * when there is no run state.
 */
export function runStateEntry<T extends object>(state: Record<string, unknown> | undefined, key: string): Partial<T> {
  if (!state) return {};
  if (!isRecord(state[key])) state[key] = {};
  return state[key] as Partial<T>;
}

/**
 * A framework tool's `execute` for one of a step's tools (`name`): each call goes through
 * `step.execute` (policy, argument validation, the tool itself) with the framework's per-call data as
 * `host` and its `abortSignal`. A call the session refuses, or a tool that fails, throws a
 * `ToolCallFailedError`, which frameworks report to the model as the call's error: its message says
 * what to do instead.
 */
export function executeThroughStep<TTool>(
  step: ToolSearchStep<TTool>,
  name: string,
): (input: unknown, host?: unknown) => Promise<unknown> {
  return async (input, host) => {
    const signal = isRecord(host) ? host.abortSignal : undefined;
    const abortSignal = signal instanceof AbortSignal ? signal : undefined;
    const outcome = await step.execute(name, input, { abortSignal, host });
    if (!outcome.ok) throw new ToolCallFailedError(outcome.error);
    return outcome.output;
  };
}

/** Copies the settings named in `keys` that `from` has (not undefined) onto `to`: a framework tool's, onto its wrapper. */
export function carrySettings(from: unknown, to: object, keys: readonly string[]): void {
  if (!isRecord(from)) return;
  for (const key of keys) if (from[key] !== undefined) (to as Record<string, unknown>)[key] = from[key];
}
