// A tool's other names (`ToolDescriptor.aliases`): checked when it enters a catalog, and the tool as
// offered under each of them.
import { DuplicateToolError } from '../errors.js';
import type { CatalogTool } from '../types.js';
import { describeValue } from '../values.js';
import { invalidTool } from './freeze-json.js';
import { isValidToolName, MAX_TOOL_NAME_LENGTH } from './tool-name.js';

/**
 * A descriptor's `aliases`, checked (an array of valid tool names, else {@link InvalidToolError} naming
 * the item) and frozen: each once, without the tool's own id and tool name. Undefined when none is left.
 */
export function checkAliases(
  aliases: unknown,
  own: { id: string; toolName: string },
  label: string,
): readonly string[] | undefined {
  if (aliases === undefined) return undefined;
  if (!Array.isArray(aliases)) {
    throw invalidTool(label, 'aliases', `must be an array of tool names, got ${describeValue(aliases)}`);
  }
  const kept = new Set<string>();
  for (const [at, alias] of (aliases as unknown[]).entries()) {
    if (typeof alias !== 'string' || !isValidToolName(alias)) {
      const got = typeof alias === 'string' ? JSON.stringify(alias.slice(0, 80)) : describeValue(alias);
      throw invalidTool(
        label,
        `aliases[${at}]`,
        `must be a tool name (letters, digits, "_" and "-", 1 to ${MAX_TOOL_NAME_LENGTH} characters), got ${got}`,
      );
    }
    if (alias !== own.id && alias !== own.toolName) kept.add(alias);
  }
  return kept.size === 0 ? undefined : Object.freeze([...kept]);
}

/** Who holds a name in a catalog: a tool's id, its tool name, or one of its aliases. */
type Holder = { id: string; as: 'id' | 'tool name' | 'alias' };

/**
 * The aliases of a catalog's tools: which tool each belongs to, the rule that no name means two
 * tools, and each tool as offered under an alias (made once, until the tool changes).
 */
export class CatalogAliases<TTool> {
  readonly #owners = new Map<string, string>();
  readonly #views = new Map<string, CatalogTool<TTool>>();

  /** The id of the tool that has `alias` among its aliases. */
  ownerOf(alias: string): string | undefined {
    return this.#owners.get(alias);
  }

  /**
   * Throws {@link DuplicateToolError} naming both tools when one of `entry`'s aliases is another
   * tool's id, tool name or alias, or when `entry`'s id or tool name is another tool's alias.
   * `holderOf` says which tool holds a name as its id or tool name.
   */
  check(entry: CatalogTool<TTool>, holderOf: (name: string) => Holder | undefined): void {
    if (entry.aliases === undefined && this.#owners.size === 0) return; // (no alias anywhere: nothing to clash)
    for (const name of [entry.id, entry.toolName]) {
      const owner = this.#owners.get(name);
      if (owner !== undefined && owner !== entry.id) clash(entry, name, name === entry.id ? 'id' : 'tool name', owner);
    }
    for (const alias of entry.aliases ?? []) {
      const held = holderOf(alias);
      if (held !== undefined && held.id !== entry.id) aliasTaken(entry, alias, held);
      const owner = this.#owners.get(alias);
      if (owner !== undefined && owner !== entry.id) aliasTaken(entry, alias, { id: owner, as: 'alias' });
    }
  }

  /** Records `entry`'s aliases (after {@link check}). */
  insert(entry: CatalogTool<TTool>): void {
    if (entry.aliases === undefined) return;
    for (const alias of entry.aliases) this.#owners.set(alias, entry.id);
  }

  /** Forgets `entry`'s aliases and its views. */
  delete(entry: CatalogTool<TTool>): void {
    for (const alias of entry.aliases ?? []) {
      if (this.#owners.get(alias) === entry.id) this.#owners.delete(alias);
      this.#views.delete(alias);
    }
  }

  /** `tool` as offered under its alias `alias`: `toolName` is the alias, `aliasOf` its own name. */
  view(tool: CatalogTool<TTool>, alias: string): CatalogTool<TTool> {
    const kept = this.#views.get(alias);
    if (kept !== undefined && kept.id === tool.id) return kept;
    const view = Object.freeze({ ...tool, toolName: alias, aliasOf: tool.toolName });
    this.#views.set(alias, view);
    return view;
  }
}

function aliasTaken(entry: CatalogTool<unknown>, alias: string, held: Holder): never {
  throw new DuplicateToolError(
    entry.id,
    undefined,
    entry.source,
    `Alias "${alias}" of tool "${entry.id}" is already the ${held.as} of tool "${held.id}": a name must mean one tool. Drop the alias or rename one of the tools.`,
  );
}

function clash(entry: CatalogTool<unknown>, name: string, as: 'id' | 'tool name', owner: string): never {
  throw new DuplicateToolError(
    entry.id,
    undefined,
    entry.source,
    `Tool "${entry.id}" has the ${as} "${name}", already an alias of tool "${owner}": a name must mean one tool. Drop the alias or rename one of the tools.`,
  );
}

/**
 * The name a thread's state keeps for a loaded tool: the alias it was loaded (and is offered) under,
 * else its id. `ToolCatalog.get` or `getByAlias` turns it back into the tool as offered.
 */
export function keptName(tool: CatalogTool<unknown>): string {
  return tool.aliasOf === undefined ? tool.id : tool.toolName;
}
