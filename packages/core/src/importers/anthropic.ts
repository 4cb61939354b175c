import type { ToolDescriptor } from '../types.js';
import {
  assertUniqueIds,
  compact,
  definitionList,
  describeValue,
  fieldError,
  type ImporterOptions,
  isRecord,
  optionalObjectSchema,
  optionalString,
  otherFields,
  type RecordLocation,
  requiredString,
} from './fields.js';

/** An OpenAI definition (`{ type: 'function', function: {...} }` or the Responses API's flat one) given as Anthropic. */
function looksLikeOpenAI(raw: Record<string, unknown>): boolean {
  return raw.input_schema === undefined && (raw.type === 'function' || isRecord(raw.function));
}

/** Options for {@link fromAnthropicTools}. */
export interface AnthropicImportOptions extends ImporterOptions {
  /** Put before each tool's name to make its id. Default: none, the id is the name. */
  idPrefix?: string;
}

/**
 * Imports Anthropic Messages API tool definitions (`{ name, description, input_schema }`). Takes the
 * array, or a request body holding it as `tools`. `cache_control` and other fields go to `metadata`.
 * Server tools (`{ type: 'web_search_20250305', ... }`) are rejected: they have no schema to search
 * or call. Throws ImportError naming the file and field (e.g. `[4].input_schema`).
 */
export function fromAnthropicTools(
  defs: readonly unknown[] | { tools: readonly unknown[] },
  options: AnthropicImportOptions = {},
): ToolDescriptor[] {
  const file = options.file;
  const { list, wrapped } = definitionList(defs, file, 'Anthropic tool definitions');
  const idPrefix = options.idPrefix ?? '';
  const locations: RecordLocation[] = [];
  const tools = list.map((raw, index): ToolDescriptor => {
    const at: RecordLocation = { file, prefix: wrapped ? `tools[${index}]` : `[${index}]` };
    locations.push(at);
    if (!isRecord(raw)) throw fieldError(at, undefined, `must be a tool object, got ${describeValue(raw)}`);
    if (looksLikeOpenAI(raw)) {
      throw fieldError(
        at,
        undefined,
        'is an OpenAI tool definition (type "function" with "parameters"), not an Anthropic one: read the file as OpenAI (format "openai", the CLI\'s --format openai) or leave the format out to have it detected',
      );
    }
    if (raw.type !== undefined && raw.type !== null && raw.type !== 'custom') {
      throw fieldError(
        at,
        'type',
        `must be "custom" or absent, got ${JSON.stringify(raw.type)}: server tools cannot be imported (they have no input_schema)`,
      );
    }
    const name = requiredString(raw, 'name', at);
    if (raw.input_schema === undefined || raw.input_schema === null) {
      throw fieldError(at, 'input_schema', 'is required: a JSON Schema of type "object" for the tool input');
    }
    const extras = otherFields(raw, ['type', 'name', 'description', 'input_schema']);
    return compact<ToolDescriptor>({
      id: `${idPrefix}${name}`,
      name,
      description: optionalString(raw, 'description', at),
      inputSchema: optionalObjectSchema(raw, 'input_schema', at),
      source: options.source,
      metadata: extras,
    });
  });
  assertUniqueIds(tools, locations, 'name');
  return tools;
}
