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

/** Options for {@link fromOpenAITools}. */
export interface OpenAIImportOptions extends ImporterOptions {
  /** Put before each function's name to make its id. Default: none, the id is the name. */
  idPrefix?: string;
}

const FUNCTION_FIELDS = ['type', 'name', 'description', 'parameters'];

/**
 * Imports OpenAI function tool definitions, in either shape:
 * - Chat Completions: `{ type: 'function', function: { name, description, parameters, strict } }`;
 * - Responses API: `{ type: 'function', name, description, parameters, strict }`.
 *
 * Takes the array, or a request body holding it as `tools`. `strict` and other fields go to
 * `metadata`. Built-in tools (`web_search`, `file_search`...) are rejected: they have no schema to
 * search or call. Throws ImportError naming the file and field (e.g. `tools[2].function.parameters`).
 */
export function fromOpenAITools(
  defs: readonly unknown[] | { tools: readonly unknown[] },
  options: OpenAIImportOptions = {},
): ToolDescriptor[] {
  const file = options.file;
  const { list, wrapped } = definitionList(defs, file, 'OpenAI function tools');
  const idPrefix = options.idPrefix ?? '';
  const locations: RecordLocation[] = [];
  const tools = list.map((raw, index): ToolDescriptor => {
    const at: RecordLocation = { file, prefix: wrapped ? `tools[${index}]` : `[${index}]` };
    if (!isRecord(raw)) throw fieldError(at, undefined, `must be a function tool object, got ${describeValue(raw)}`);
    if (raw.type !== undefined && raw.type !== 'function') {
      throw fieldError(
        at,
        'type',
        `must be "function", got ${JSON.stringify(raw.type)}: only function tools can be imported (built-in tools have no schema)`,
      );
    }
    let fn: Record<string, unknown> = raw;
    let fnAt = at;
    if (raw.function !== undefined) {
      if (!isRecord(raw.function)) {
        throw fieldError(
          at,
          'function',
          `must be an object ({ name, description, parameters }), got ${describeValue(raw.function)}`,
        );
      }
      fn = raw.function;
      fnAt = { ...at, prefix: `${at.prefix}.function` };
    }
    locations.push(fnAt);
    const name = requiredString(fn, 'name', fnAt);
    const extras = {
      ...otherFields(raw, [...FUNCTION_FIELDS, 'function']),
      ...(fn === raw ? {} : otherFields(fn, FUNCTION_FIELDS)),
    };
    return compact<ToolDescriptor>({
      id: `${idPrefix}${name}`,
      name,
      description: optionalString(fn, 'description', fnAt),
      inputSchema: optionalObjectSchema(fn, 'parameters', fnAt),
      source: options.source,
      metadata: Object.keys(extras).length > 0 ? extras : undefined,
    });
  });
  assertUniqueIds(tools, locations, 'name');
  return tools;
}
