import type { StepRequest } from '../session/step-types.js';
import type { RequestToolDescriptors } from './request-tool-descriptors.js';

/** What a host hands a step of its agent's own tools: those it offers itself, and the step request's part. */
export interface AgentToolsOfRequest<THostTool> {
  /** The tools the host offers itself, by name (none when they are searchable). */
  own: Record<string, THostTool>;
  /** `tools` (searchable request tools) or `hostTools` (the names of `own`), for `prepareStep`. */
  request: Pick<StepRequest, 'tools' | 'hostTools'>;
}

/**
 * How a host hands its agent's own tools of a request (a record by name) to the session: as
 * searchable request tools when `searchable` is given (it converts them) (withheld until loaded, as Mastra's
 * `includeResolvedTools`), else offered by the host as they are and named in `hostTools`, so they win
 * over catalog tools of the same names. Tools named like a meta-tool are left out either way.
 */
export function agentToolsOfRequest<THostTool>(
  tools: Readonly<Record<string, THostTool>> | undefined,
  isMetaTool: (name: string) => boolean,
  searchable?: RequestToolDescriptors<unknown, THostTool>,
): AgentToolsOfRequest<THostTool> {
  if (searchable) return { own: {}, request: { tools: searchable.of(tools ?? {}, isMetaTool) } };
  const own = Object.fromEntries(Object.entries(tools ?? {}).filter(([name]) => !isMetaTool(name)));
  return { own, request: { hostTools: Object.keys(own) } };
}
