import { basename, join } from 'node:path';
import type { JsonSchema } from '@toolscout/core';
import { isRecord } from '@toolscout/core/internal';

/** What {@link fillArguments} fills values from. */
export interface FillContext {
  /** The user's request: quoted phrases and numbers in it are used, in order. */
  request: string;
  /** The folder path arguments point into (the demo's files folder). */
  filesDir: string;
}

type Schema = { [key: string]: unknown };

const QUOTED = /"([^"]+)"|“([^”]+)”|'([^']{2,})'/g;
const NUMBER = /-?\d+(?:\.\d+)?/g;
const FILE_NAME = /\b[\w-]+\.[A-Za-z][\w]{0,5}\b/;
/** Property names whose value is text the request itself can stand for. */
const TEXT_FIELDS = /^(query|q|search|text|message|content|prompt|thought|question|body|input|keywords?|term)$/i;
/** Property names whose value is a path. */
const PATH_FIELDS = /(^|_)(path|file|filename|dir|directory|folder|source|destination)$/i;

/** The request's quoted phrases and numbers, handed out in order. */
class Evidence {
  readonly #quoted: string[];
  readonly #numbers: number[];
  readonly #fileName: string | undefined;

  constructor(readonly request: string) {
    this.#quoted = [...request.matchAll(QUOTED)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
    const unquoted = request.replace(QUOTED, ' ');
    this.#numbers = [...unquoted.replace(FILE_NAME, ' ').matchAll(NUMBER)].map((match) => Number(match[0]));
    this.#fileName = request.match(FILE_NAME)?.[0];
  }

  nextQuoted(): string | undefined {
    return this.#quoted.shift();
  }

  nextNumber(): number | undefined {
    return this.#numbers.shift();
  }

  get fileName(): string | undefined {
    return this.#fileName;
  }
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((item) => item !== 'null') as string | undefined;
  if (isRecord(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/** The first alternative of `anyOf` / `oneOf` that is not `null`; `allOf` merged shallowly. */
function resolve(schema: Schema): Schema {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const first = options.find((option) => isRecord(option) && option.type !== 'null');
      if (isRecord(first)) {
        const { [key]: _drop, ...rest } = schema;
        return resolve({ ...rest, ...first });
      }
    }
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return resolve(Object.assign({}, rest, ...(allOf as unknown[]).filter(isRecord)));
  }
  return schema;
}

/** A default or example of the wrong type (catalogs often give `"10"` for a number) is converted or dropped. */
function asType(value: unknown, type: string | undefined): unknown {
  if (value === undefined || type === undefined) return value;
  switch (type) {
    case 'string':
      return typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : undefined;
    case 'integer':
    case 'number': {
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== ''
            ? Number(value)
            : Number.NaN;
      if (!Number.isFinite(number)) return undefined;
      return type === 'integer' ? Math.round(number) : number;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
    case 'array':
      return Array.isArray(value) ? value : undefined;
    case 'object':
      return isRecord(value) ? value : undefined;
    default:
      return value;
  }
}

/** The schema's own suggestion: its default, else its first example, as the schema's type. */
function suggested(schema: Schema, type: string | undefined): unknown {
  const fromDefault = asType(schema.default, type);
  if (fromDefault !== undefined) return fromDefault;
  return Array.isArray(schema.examples) ? asType(schema.examples[0], type) : undefined;
}

function fillString(schema: Schema, name: string, evidence: Evidence, filesDir: string): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  let value: string;
  if (PATH_FIELDS.test(name) || format === 'path') {
    value = evidence.fileName ? join(filesDir, basename(evidence.fileName)) : filesDir;
  } else if (format === 'uri' || format === 'url' || /url$|uri$/i.test(name)) {
    value = (suggested(schema, 'string') as string | undefined) ?? 'https://example.com';
  } else if (format === 'email' || /email$/i.test(name)) {
    value = 'alice@example.com';
  } else if (format === 'date') {
    value = new Date().toISOString().slice(0, 10);
  } else if (format === 'date-time') {
    value = new Date().toISOString();
  } else {
    value =
      evidence.nextQuoted() ??
      (suggested(schema, 'string') as string | undefined) ??
      (TEXT_FIELDS.test(name) ? evidence.request : 'example');
  }
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  if (typeof schema.minLength === 'number' && value.length < schema.minLength)
    value = value.padEnd(schema.minLength, 'x');
  return value;
}

function fillNumber(schema: Schema, integer: boolean, evidence: Evidence): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = evidence.nextNumber() ?? (suggested(schema, 'number') as number | undefined) ?? minimum ?? 1;
  if (minimum !== undefined && value < minimum) value = minimum;
  if (maximum !== undefined && value > maximum) value = maximum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    value = schema.exclusiveMinimum + 1;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    value = schema.exclusiveMaximum - 1;
  return integer ? Math.round(value) : value;
}

function fillValue(raw: unknown, name: string, evidence: Evidence, filesDir: string, depth: number): unknown {
  if (!isRecord(raw)) return 'example';
  const schema = resolve(raw);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = typeOf(schema);
  switch (type) {
    case 'string':
      return fillString(schema, name, evidence, filesDir);
    case 'integer':
      return fillNumber(schema, true, evidence);
    case 'number':
      return fillNumber(schema, false, evidence);
    case 'boolean':
      return suggested(schema, type) ?? false;
    case 'null':
      return null;
    case 'array': {
      const given = suggested(schema, type);
      if (given !== undefined || depth > 4) return given ?? [];
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      const items = Array.isArray(schema.items) ? schema.items : [schema.items ?? {}];
      return Array.from({ length: count }, (_, index) =>
        fillValue(items[Math.min(index, items.length - 1)], singular(name), evidence, filesDir, depth + 1),
      );
    }
    case 'object': {
      const given = suggested(schema, type);
      if (given !== undefined || depth > 4) return given ?? {};
      return fillObject(schema, evidence, filesDir, depth + 1);
    }
    default:
      return schema.default !== undefined ? schema.default : fillString(schema, name, evidence, filesDir);
  }
}

function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name;
}

function fillObject(schema: Schema, evidence: Evidence, filesDir: string, depth: number): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : [];
  const result: Record<string, unknown> = {};
  // Properties in the schema's order, so quoted phrases and numbers go to fields in the order written.
  for (const key of Object.keys(properties)) {
    if (required.includes(key)) result[key] = fillValue(properties[key], key, evidence, filesDir, depth);
  }
  for (const key of required) {
    if (!(key in result)) result[key] = fillValue({}, key, evidence, filesDir, depth);
  }
  return result;
}

/**
 * Fills a tool's arguments from its JSON Schema and the user's request, the way the demo's scripted
 * model does it: every required field gets a value, optional fields are left out. A constant or an
 * enum (its first value) is used as given. Numbers come from the request in order, strings from its
 * quoted phrases in order; without such evidence, the schema's default or first example (converted
 * to the field's type), else the request itself for text fields (`query`, `message`, ...), else a
 * placeholder. Paths point into `filesDir` (at a file name the request mentions); arrays get one
 * item, objects their required fields.
 *
 * @example
 * ```ts
 * fillArguments({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *   { request: 'add 2 and 3', filesDir: '/tmp/demo' }); // { a: 2, b: 3 }
 * ```
 */
export function fillArguments(schema: JsonSchema, context: FillContext): Record<string, unknown> {
  const evidence = new Evidence(context.request);
  const value = fillObject(resolve(schema), evidence, context.filesDir, 0);
  return value;
}
