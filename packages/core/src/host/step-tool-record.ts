import type { OfferedTool } from '../session/step-types.js';
import type { ToolSearchStep } from '../session/tool-search-step.js';

/**
 * The tools to hand a framework at a step, by model-facing name, for hosts whose agent has tools of
 * its own (`own`, whose names the host passed as `StepRequest.hostTools`, so they win): the step's
 * meta-tools, then the host's own tools, then the step's other tools (pinned and loaded, in load
 * order, so the prompt prefix stays stable), the step's made with `convert`.
 */
export function stepToolRecord<TTool, THostTool>(
  step: ToolSearchStep<TTool>,
  own: Readonly<Record<string, THostTool>>,
  convert: (offered: OfferedTool<TTool>) => THostTool,
): Record<string, THostTool> {
  const tools: Record<string, THostTool> = {};
  for (const offered of step.tools) if (offered.kind === 'meta') tools[offered.name] = convert(offered);
  Object.assign(tools, own);
  for (const offered of step.tools) if (offered.kind !== 'meta') tools[offered.name] = convert(offered);
  return tools;
}

/**
 * The names of `names` (a step's tools and the host's own) to keep active when the host restricts its
 * own tools to `active`: those it names, and every tool of the step.
 */
export function activeStepTools<TTool>(
  step: ToolSearchStep<TTool>,
  names: readonly string[],
  active: readonly string[],
) {
  const kept = new Set([...active, ...step.tools.map((offered) => offered.name)]);
  return names.filter((name) => kept.has(name));
}
