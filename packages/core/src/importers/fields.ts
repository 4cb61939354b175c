import { ImportError, type ImportLocation } from '../errors.js';
import type { JsonSchema, ToolDescriptor } from '../types.js';
import { describeNonText, describeValue, isRecord, isText, setOwn } from '../values.js';

/** Options every importer takes. */
export interface ImporterOptions {
  /** The file (or a label for the input) that errors name, e.g. `tools.jsonl`. */
  file?: string;
  /** Set as `source` on every imported tool that does not name its own. */
  source?: string;
}

/** Where a record sits: the file, the line (JSON Lines) and the field path of the record itself. */
export interface RecordLocation {
  file?: string | undefined;
  line?: number | undefined;
  /** Path of the record in its document, e.g. `tools[3]`; empty for a whole JSON Lines line. */
  prefix: string;
}

export { describeNonText, describeValue, isRecord, isText };

/** The path of a field of the record: `tools[3].name`, or `name` for a JSON Lines record. */
export function fieldPath(at: RecordLocation, field: string): string {
  if (at.prefix === '') return field;
  return field.startsWith('[') ? `${at.prefix}${field}` : `${at.prefix}.${field}`;
}

/** An ImportError about a field of the record. */
export function fieldError(at: RecordLocation, field: string | undefined, problem: string): ImportError {
  const location: ImportLocation = {};
  if (at.file !== undefined) location.file = at.file;
  if (at.line !== undefined) location.line = at.line;
  const path = field === undefined ? at.prefix : fieldPath(at, field);
  if (path !== '') location.field = path;
  return new ImportError(problem, location);
}

/** A required, non-empty string field. */
/**
 * The array of tool definitions an importer was given: the array itself, or a request body holding it
 * as `tools`. Anything else fails naming what was expected.
 */
export function definitionList(
  defs: unknown,
  file: string | undefined,
  expected: string,
): { list: unknown[]; wrapped: boolean } {
  const wrapped = isRecord(defs);
  const list = wrapped ? (defs as { tools: unknown }).tools : defs;
  if (!Array.isArray(list)) {
    throw fieldError(
      { file, prefix: '' },
      wrapped ? 'tools' : undefined,
      `expected an array of ${expected}, got ${describeValue(list)}`,
    );
  }
  return { list, wrapped };
}

export function requiredString(record: Record<string, unknown>, field: string, at: RecordLocation): string {
  const value = record[field];
  if (!isText(value)) throw fieldError(at, field, `must be a non-empty string, got ${describeNonText(value)}`);
  return value;
}

/** An optional string field; `null` counts as absent. */
export function optionalString(record: Record<string, unknown>, field: string, at: RecordLocation): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fieldError(at, field, `must be a string, got ${describeValue(value)}`);
  return value;
}

/** An optional object field; `null` counts as absent. */
export function optionalRecord(
  record: Record<string, unknown>,
  field: string,
  at: RecordLocation,
): Record<string, unknown> | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw fieldError(at, field, `must be an object, got ${describeValue(value)}`);
  return value;
}

/** An optional array of strings; `null` counts as absent. */
export function optionalStringArray(
  record: Record<string, unknown>,
  field: string,
  at: RecordLocation,
): string[] | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw fieldError(at, field, `must be an array of strings, got ${describeValue(value)}`);
  value.forEach((item, index) => {
    if (typeof item !== 'string') {
      throw fieldError(at, `${field}[${index}]`, `must be a string, got ${describeValue(item)}`);
    }
  });
  return value as string[];
}

/**
 * An optional JSON Schema for an object (tool input or output); `null` counts as absent. Must be an
 * object whose `type` is `"object"` or missing, with `properties` an object and `required` a list of names.
 */
export function optionalObjectSchema(
  record: Record<string, unknown>,
  field: string,
  at: RecordLocation,
): JsonSchema | undefined {
  const schema = optionalRecord(record, field, at);
  if (schema === undefined) return undefined;
  if (schema.type !== undefined && schema.type !== 'object') {
    throw fieldError(at, field, `must be a JSON Schema of type "object", got type ${JSON.stringify(schema.type)}`);
  }
  if (schema.properties !== undefined && !isRecord(schema.properties)) {
    throw fieldError(at, `${field}.properties`, `must be an object, got ${describeValue(schema.properties)}`);
  }
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((name) => typeof name === 'string'))
  ) {
    throw fieldError(at, `${field}.required`, 'must be an array of property names (strings)');
  }
  return schema;
}

/** The fields of a record that an importer did not map, or `undefined` when there are none. */
export function otherFields(
  record: Record<string, unknown>,
  known: readonly string[],
): Record<string, unknown> | undefined {
  const rest: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(record)) {
    if (known.includes(key) || value === undefined) continue;
    setOwn(rest, key, value);
    any = true;
  }
  return any ? rest : undefined;
}

/**
 * Rejects two tools with one id in one import, naming both places (a catalog would reject them too,
 * but without saying where they came from).
 */
export function assertUniqueIds(
  tools: readonly ToolDescriptor[],
  locations: readonly RecordLocation[],
  idField: string,
): void {
  const seen = new Map<string, number>();
  tools.forEach((tool, index) => {
    const first = seen.get(tool.id);
    if (first === undefined) {
      seen.set(tool.id, index);
      return;
    }
    const earlier = locations[first]!;
    const where = earlier.line !== undefined ? `line ${earlier.line}` : earlier.prefix;
    throw fieldError(locations[index]!, idField, `duplicate tool id "${tool.id}" (first at ${where})`);
  });
}

/** Drops `undefined` fields so descriptors compare and print cleanly. */
export function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}
