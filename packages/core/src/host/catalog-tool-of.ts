import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import type { CatalogTool, ToolDescriptor, ToolExecutionContext } from '../types.js';

function isCatalogTool<TTool>(tool: ToolDescriptor<TTool> | CatalogTool<TTool>): tool is CatalogTool<TTool> {
  return typeof (tool as CatalogTool).toolName === 'string' && typeof (tool as CatalogTool).jsonSchema === 'object';
}

/**
 * A tool as a catalog holds it (checked, with its provider-safe `toolName` and JSON Schema), for a
 * host that turns a descriptor into a framework tool: a catalog tool as it is, a descriptor through
 * a catalog of its own. Throws `InvalidToolError` for an unusable descriptor, as a catalog would.
 */
export function catalogToolOf<TTool>(tool: ToolDescriptor<TTool> | CatalogTool<TTool>): CatalogTool<TTool> {
  return isCatalogTool(tool) ? tool : new ToolCatalog<TTool>([tool]).list()[0]!;
}

/**
 * Runs a catalog tool's `execute` outside a session (a framework tool made from it, called by the
 * framework): an {@link InvalidToolError} (`execute`) when it has none, as a meta-tool's definition,
 * which runs only through a session's step.
 */
export async function executeOutsideSession(
  tool: CatalogTool,
  input: unknown,
  context: Omit<ToolExecutionContext, 'toolId'>,
): Promise<unknown> {
  if (!tool.execute) {
    throw new InvalidToolError(
      `Tool "${tool.toolName}" has no execute function, so it cannot run here (a toolscout meta-tool runs only through its tool search session).`,
      'execute',
    );
  }
  return tool.execute(input, { ...context, toolId: tool.id });
}
