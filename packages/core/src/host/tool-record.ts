import { InvalidOptionError } from '../errors.js';
import type { MetaToolDefinition } from '../session/meta-tools.js';
import type { ToolSearchSession } from '../session/tool-search-session.js';
import type { CatalogTool } from '../types.js';

/** How a host makes its tools; see {@link createToolRecord}. */
export interface ToolRecordOptions<TTool, THostTool> {
  /** A meta-tool as the host's tool. */
  meta: (meta: MetaToolDefinition) => THostTool;
  /** A direct or catalog tool as the host's tool. */
  tool: (tool: CatalogTool<TTool>) => THostTool;
  /** Host tools passed through as they are, by name (e.g. tools a provider defines and runs). */
  passThrough?: ReadonlyMap<string, THostTool>;
}

/** Every tool a session may offer, as a host's tools by name; see {@link createToolRecord}. */
export interface ToolRecord<THostTool> {
  /** The tools by model-facing name: meta-tools, direct and catalog tools (and their aliases), then the passed-through ones. */
  get(): Record<string, THostTool>;
  /** Stops following the catalog. */
  dispose(): void;
}

/**
 * For hosts that are given every tool up front and choose the active ones per step: every tool the
 * session may offer as the host's tool, by model-facing name, made on first use and made again after
 * the catalog changed. Made once here, so a passed-through tool with the name of another tool is an
 * {@link InvalidOptionError} of `tools` when the host is created, not at its first use.
 */
export function createToolRecord<TTool, THostTool>(
  session: ToolSearchSession<TTool>,
  options: ToolRecordOptions<TTool, THostTool>,
): ToolRecord<THostTool> {
  let made: Record<string, THostTool> | undefined;
  const unsubscribe = session.catalog.subscribe(() => {
    made = undefined;
  });
  const get = (): Record<string, THostTool> => {
    if (made) return made;
    const tools: Record<string, THostTool> = {};
    for (const meta of session.metaTools) tools[meta.name] = options.meta(meta);
    for (const tool of [...session.directTools, ...session.catalog]) {
      tools[tool.toolName] = options.tool(tool);
      // A tool loaded by one of its aliases is offered under it (the catalog's view of the tool).
      for (const alias of tool.aliases ?? []) tools[alias] = options.tool(session.catalog.getByAlias(alias) ?? tool);
    }
    for (const [name, tool] of options.passThrough ?? []) {
      if (Object.hasOwn(tools, name)) {
        throw new InvalidOptionError('tools', `The tool "${name}" has the name of another tool; rename one.`);
      }
      tools[name] = tool;
    }
    made = tools;
    return tools;
  };
  get();
  return { get, dispose: unsubscribe };
}
