import type { ToolAnnotations, ToolDescriptor } from '../types.js';
import {
  assertUniqueIds,
  compact,
  describeValue,
  fieldError,
  type ImporterOptions,
  isRecord,
  optionalObjectSchema,
  optionalRecord,
  optionalString,
  otherFields,
  type RecordLocation,
  requiredString,
} from './fields.js';

/** Options for {@link fromMcpTools}. */
export interface McpImportOptions extends ImporterOptions {
  /**
   * Put before each tool's name to make its id, e.g. `github__` when several servers share a catalog
   * (MCP tool names are unique only within one server). Default: none, the id is the name.
   */
  idPrefix?: string;
}

const MCP_FIELDS = ['name', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * Imports an MCP `tools/list` result (`{ tools: [{ name, title, description, inputSchema,
 * outputSchema, annotations, _meta }] }`), or the bare array of tools. The name becomes the id
 * (after `idPrefix`); annotations and outputSchema are kept as given; `title`, `_meta` and any other
 * fields go to `metadata`.
 *
 * Throws ImportError naming the file and field (e.g. `tools[3].inputSchema`) for a malformed tool or
 * a name used twice.
 */
export function fromMcpTools(
  result: { tools: readonly unknown[] } | readonly unknown[],
  options: McpImportOptions = {},
): ToolDescriptor[] {
  const file = options.file;
  const bare = Array.isArray(result);
  if (!bare && !isRecord(result)) {
    throw fieldError(
      { file, prefix: '' },
      undefined,
      `expected an MCP tools/list result ({ "tools": [...] }), got ${describeValue(result)}`,
    );
  }
  const list: unknown = bare ? result : (result as { tools: unknown }).tools;
  if (!Array.isArray(list)) {
    throw fieldError({ file, prefix: '' }, 'tools', `must be an array of tools, got ${describeValue(list)}`);
  }
  const prefix = options.idPrefix ?? '';
  const locations: RecordLocation[] = [];
  const tools = list.map((raw, index): ToolDescriptor => {
    const at: RecordLocation = { file, prefix: bare ? `[${index}]` : `tools[${index}]` };
    locations.push(at);
    if (!isRecord(raw)) throw fieldError(at, undefined, `must be a tool object, got ${describeValue(raw)}`);
    const name = requiredString(raw, 'name', at);
    const title = optionalString(raw, 'title', at);
    const meta = optionalRecord(raw, '_meta', at);
    const metadata = otherFields(raw, MCP_FIELDS) ?? {};
    if (title !== undefined) metadata.title = title;
    if (meta !== undefined) metadata._meta = meta;
    return compact<ToolDescriptor>({
      id: `${prefix}${name}`,
      name,
      description: optionalString(raw, 'description', at),
      inputSchema: optionalObjectSchema(raw, 'inputSchema', at),
      outputSchema: optionalObjectSchema(raw, 'outputSchema', at),
      annotations: optionalRecord(raw, 'annotations', at) as ToolAnnotations | undefined,
      source: options.source,
      metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
    });
  });
  assertUniqueIds(tools, locations, 'name');
  return tools;
}
