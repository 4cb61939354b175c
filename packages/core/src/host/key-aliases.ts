import { TOOL_NAME_PATTERN } from '../catalog/tool-name.js';
import type { ToolDescriptor } from '../types.js';

/**
 * The descriptors of a record of tools (`[key, descriptor]` pairs), each whose key differs from its
 * id with the key as an alias (`load_tool` and calls accept it), as frameworks that key tools by name
 * load them. A key that is not a valid tool name, or that is another tool's id, stays no alias.
 */
export function withKeyAliases<TTool>(
  entries: readonly (readonly [string, ToolDescriptor<TTool>])[],
): ToolDescriptor<TTool>[] {
  const ids = new Set(entries.map(([, descriptor]) => descriptor.id));
  return entries.map(([key, descriptor]) => withKeyAlias(descriptor, key, ids));
}

/** The descriptor with `key` as an alias when it differs from its id and is free (see {@link withKeyAliases}). */
export function withKeyAlias<TTool>(
  descriptor: ToolDescriptor<TTool>,
  key: string,
  takenIds: ReadonlySet<string>,
): ToolDescriptor<TTool> {
  if (key === descriptor.id || takenIds.has(key) || !TOOL_NAME_PATTERN.test(key)) return descriptor;
  if (descriptor.aliases?.includes(key)) return descriptor;
  return { ...descriptor, aliases: [...(descriptor.aliases ?? []), key] };
}
