import { ToolCallFailedError } from '../errors.js';
import type { OfferedTool } from '../session/step-types.js';
import type { ToolSearchStep } from '../session/tool-search-step.js';
import { isRecord } from '../values.js';

/** What the helpers here ask of a session (a `ToolSearchSession`): its meta-tool names and its catalog's tool names. */
interface NameOwner {
  isMetaTool(name: string): boolean;
  readonly catalog: { getByToolName(name: string): unknown };
}

/** Whether a model-facing name is the session's: one of its meta-tools or catalog tools (offered now or not). */
export function sessionOwns(session: NameOwner, name: string): boolean {
  return session.isMetaTool(name) || session.catalog.getByToolName(name) !== undefined;
}

/**
 * The tools to hand a framework at a step, by model-facing name, for hosts whose agent has tools of
 * its own per request: the step's meta-tools, then the host's tools, then the step's other tools
 * (pinned and loaded, in load order, so the prompt prefix stays stable), the step's made with
 * `convert`. A host tool named like one of the session's is left out: the session offers that tool
 * once it is loaded.
 */
export function withHostTools<TTool, THostTool>(
  session: NameOwner,
  step: ToolSearchStep<TTool>,
  hostTools: Readonly<Record<string, THostTool>> | undefined,
  convert: (offered: OfferedTool<TTool>) => THostTool,
): Record<string, THostTool> {
  const tools: Record<string, THostTool> = {};
  for (const offered of step.tools) if (offered.kind === 'meta') tools[offered.name] = convert(offered);
  for (const [name, tool] of Object.entries(hostTools ?? {})) if (!sessionOwns(session, name)) tools[name] = tool;
  for (const offered of step.tools) if (offered.kind !== 'meta') tools[offered.name] = convert(offered);
  return tools;
}

/**
 * The names of `names` (a step's tools, host tools among them) to keep active when the host restricts
 * its tools (`active`): the host's tools it names, and every one of the session's.
 */
export function activeToolNames(session: NameOwner, names: readonly string[], active: readonly string[]): string[] {
  const kept = new Set(active.filter((name) => !sessionOwns(session, name)));
  return names.filter((name) => kept.has(name) || sessionOwns(session, name));
}

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
