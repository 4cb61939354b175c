// The tools a host offers the model itself at a step (`StepRequest.hostTools`): they win over
// catalog tools of the same name, which the session then neither offers, loads nor finds.
import type { CatalogTool } from '../types.js';
import type { StepRequest } from './step-types.js';

/** The host's own tool names of a request, as a set (empty when it gave none). */
export function hostToolNames(request: StepRequest): ReadonlySet<string> {
  return new Set(request.hostTools ?? []);
}

/**
 * The name under which the host offers a catalog tool's place itself (its model-facing name or one
 * of its aliases is among `hostNames`), or undefined when the host has no tool of its names.
 */
export function hostToolFor(tool: CatalogTool<unknown>, hostNames: ReadonlySet<string>): string | undefined {
  if (hostNames.size === 0) return undefined;
  for (const name of [tool.toolName, tool.aliasOf, ...(tool.aliases ?? [])]) {
    if (name !== undefined && hostNames.has(name)) return name;
  }
  return undefined;
}
