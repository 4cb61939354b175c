// The rules between a session's own tools: meta-tools, direct tools and the catalog.
import type { ToolCatalog } from '../catalog/catalog.js';
import { DuplicateToolError, InvalidOptionError } from '../errors.js';
import type { CatalogTool } from '../types.js';

/**
 * Checks that no direct or catalog tool is named like a meta-tool ({@link InvalidOptionError} of
 * `metaTools`) and that no direct tool is also in the catalog ({@link DuplicateToolError}).
 */
export function checkSessionTools<TTool>(
  metaNames: ReadonlySet<string>,
  directTools: readonly CatalogTool<TTool>[],
  catalog: ToolCatalog<TTool>,
): void {
  for (const tool of [...directTools, ...catalog.list()]) {
    if (metaNames.has(tool.toolName)) {
      throw new InvalidOptionError(
        'metaTools',
        `Tool "${tool.id}" is named "${tool.toolName}", like a meta-tool; rename it or the meta-tool (metaTools option).`,
      );
    }
  }
  for (const tool of directTools) {
    if (catalog.has(tool.id)) {
      throw new DuplicateToolError(
        tool.id,
        catalog.get(tool.id)?.source,
        tool.source,
        `Tool "${tool.id}" is both a direct tool (tools option) and in the catalog; give it once.`,
      );
    }
  }
}
