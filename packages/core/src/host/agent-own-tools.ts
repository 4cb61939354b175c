import type { ToolSearchSession } from '../session/tool-search-session.js';
import { isRecord } from '../values.js';
import { type HostToolPlaces, isSessionTool } from './is-session-tool.js';

/** A framework agent's own tools at a step: see {@link agentOwnTools}. */
export interface AgentOwnTools<THostTool> {
  /** The agent's tools that are not the session's, in order: offer them as the agent does. */
  tools: THostTool[];
  /** Their names, for `StepRequest.hostTools`: they win over catalog tools of those names. */
  names: string[];
}

/** A framework tool's `name` when it is a string (a provider's server tool may have none). */
function nameOf(tool: unknown): string | undefined {
  const name = isRecord(tool) ? tool.name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Sorts the tools a framework agent has registered itself (named by their `name`: one without a
 * name, such as a provider's server tool, is the agent's and names nothing) for a host
 * that offers the session's tools beside them. A tool that is the session's very object (a catalog
 * or direct tool given to the agent too) is left out: the session offers it. Any other is the
 * agent's own, even when a catalog tool has its name (the agent's own tool wins). One named like a
 * meta-tool or a direct tool is an `InvalidOptionError` ({@link isSessionTool}): the model could
 * not tell the two apart.
 */
export function agentOwnTools<TTool, THostTool>(
  session: ToolSearchSession<TTool>,
  tools: readonly THostTool[],
  places: HostToolPlaces,
): AgentOwnTools<THostTool> {
  const own: AgentOwnTools<THostTool> = { tools: [], names: [] };
  for (const tool of tools) {
    const name = nameOf(tool);
    if (name !== undefined && !winsOverCatalog(session, name, tool) && isSessionTool(session, name, tool, places)) {
      continue;
    }
    own.tools.push(tool);
    if (name !== undefined) own.names.push(name);
  }
  return own;
}

/** Whether an agent's tool is another object than the catalog tool (not a direct tool, not a meta-tool) of its name. */
function winsOverCatalog<TTool>(session: ToolSearchSession<TTool>, name: string, tool: unknown): boolean {
  const found = session.resolve(name);
  return found !== undefined && found.tool !== tool && !session.directTools.includes(found);
}
