import { type OutputUnit, type SchemaDraft, validate } from '@cfworker/json-schema';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { InvalidToolError } from '../errors.js';
import type { JsonSchema, SchemaLike } from '../types.js';
import { describeValue, isRecord } from '../values.js';
import { schemaCostProblem, schemaPlan, VALIDATION_BUDGET } from './schema-graph.js';
import { isPatternFormatError, loadPatternEngine, PatternNamesOverBudget, withPatterns } from './schema-pattern.js';
import { validationCost } from './validation-cost.js';

/** The JSON Schema a tool without an input schema gets: an object with no declared properties. */
export function emptyObjectSchema(): JsonSchema {
  return { type: 'object', properties: {} };
}

/** Whether a value is a Standard Schema (`~standard.validate`), e.g. a zod 4, valibot or arktype schema. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const standard = (value as Record<string, unknown>)['~standard'];
  return isRecord(standard) && typeof standard.validate === 'function';
}

/** How a schema produces its JSON Schema, and the call that does it. */
interface JsonSchemaProducer {
  /** `~standard.jsonSchema.input()` or `toJSONSchema()`, for error messages. */
  readonly how: string;
  readonly produce: () => unknown;
}

/**
 * How a schema with a `~standard` property produces JSON Schema: Standard JSON Schema
 * (`~standard.jsonSchema.input`), else its own `toJSONSchema()` method (older zod 4); undefined
 * when it has neither. Reads the schema's properties, which may be getters that throw.
 */
function jsonSchemaProducer(
  schema: Record<string, unknown>,
  standard: Record<string, unknown>,
): JsonSchemaProducer | undefined {
  const converter = standard.jsonSchema;
  if (isRecord(converter) && typeof converter.input === 'function') {
    const input = converter as { input: (options: object) => unknown };
    return { how: '~standard.jsonSchema.input()', produce: () => input.input({ target: 'draft-2020-12' }) };
  }
  if (typeof schema.toJSONSchema === 'function') {
    const own = schema as { toJSONSchema: (options: object) => unknown };
    return { how: 'toJSONSchema()', produce: () => own.toJSONSchema({ target: 'draft-2020-12', io: 'input' }) };
  }
  return undefined;
}

/**
 * Whether `schema` is a Standard Schema that can produce JSON Schema (`~standard.jsonSchema.input`
 * or a `toJSONSchema()` method): such a schema can be a tool's `inputSchema` as it is, and
 * {@link toJsonSchema} converts it. The rule {@link toJsonSchema} applies, for adapters that must
 * decide whether to wrap a framework's schema first.
 */
export function producesJsonSchema(schema: unknown): boolean {
  if (!isStandardSchema(schema)) return false;
  const record = schema as object as Record<string, unknown>;
  try {
    return jsonSchemaProducer(record, record['~standard'] as Record<string, unknown>) !== undefined;
  } catch {
    return false;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Drops the `$schema` a library stamps on its output: providers show tools without it, some reject it. */
function withoutDialect(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * Resolves a tool's input schema to JSON Schema.
 *
 * - `undefined` gives `{ type: 'object', properties: {} }`.
 * - A Standard JSON Schema (zod ≥ 4.2, valibot, arktype...) is converted through
 *   `~standard.jsonSchema.input({ target: 'draft-2020-12' })`; a schema object with its own
 *   `toJSONSchema()` method (older zod 4) through that. The top-level `$schema` is dropped.
 * - A plain JSON Schema object is returned as it is (not copied).
 *
 * Throws {@link InvalidToolError} (field `inputSchema`) for anything else, and for a Standard Schema
 * that cannot produce JSON Schema, with the library's reason.
 */
export function toJsonSchema(schema: SchemaLike | undefined): JsonSchema {
  if (schema === undefined) return emptyObjectSchema();
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null || Array.isArray(schema)) {
    throw new InvalidToolError(
      `inputSchema must be a JSON Schema object or a Standard Schema, got ${describeValue(schema)}`,
      'inputSchema',
    );
  }
  const record = schema as Record<string, unknown>;
  const standard = record['~standard'];
  if (standard === undefined) {
    if (typeof schema === 'function') {
      throw new InvalidToolError(
        'inputSchema must be a JSON Schema object or a Standard Schema, got a function',
        'inputSchema',
      );
    }
    return record;
  }
  if (!isRecord(standard)) {
    throw new InvalidToolError(
      `inputSchema has a "~standard" property that is ${describeValue(standard)}`,
      'inputSchema',
    );
  }
  const vendor = typeof standard.vendor === 'string' ? standard.vendor : 'unknown vendor';
  let producer: JsonSchemaProducer | undefined;
  let produced: unknown;
  try {
    producer = jsonSchemaProducer(record, standard);
    produced = producer?.produce();
  } catch (error) {
    throw new InvalidToolError(
      `inputSchema (${vendor}) cannot be converted to JSON Schema: ${errorMessage(error)}`,
      'inputSchema',
      { cause: error },
    );
  }
  if (producer === undefined) {
    throw new InvalidToolError(
      `inputSchema is a Standard Schema (${vendor}) that cannot produce JSON Schema: it implements neither Standard JSON Schema (~standard.jsonSchema) nor toJSONSchema(). Use a library version that does (e.g. zod >= 4.2) or pass a JSON Schema.`,
      'inputSchema',
    );
  }
  if (!isRecord(produced)) {
    throw new InvalidToolError(
      `inputSchema (${vendor}) ${producer.how} returned ${describeValue(produced)}, not a JSON Schema object`,
      'inputSchema',
    );
  }
  return withoutDialect(produced);
}

/** One reason arguments were rejected. */
export interface ValidationIssue {
  /** Where in the arguments, e.g. `location.city` or `items[2].name`; empty for the arguments as a whole. */
  path: string;
  /** What is wrong, from the schema library. */
  message: string;
}

/** The outcome of {@link validateInput}. */
export type ValidationResult = { success: true; value: unknown } | { success: false; issues: ValidationIssue[] };

/** Renders path segments as `a.b[0].c`; keys that are not identifiers as `["a b"]`. */
export function formatIssuePath(segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function standardPathSegments(path: StandardSchemaV1.Issue['path']): (string | number)[] {
  if (!path) return [];
  return path.map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'symbol' ? key.toString() : key;
  });
}

/** Turns a JSON pointer into segments, using the arguments to tell array indexes from object keys. */
function pointerSegments(pointer: string, value: unknown): (string | number)[] {
  const raw = pointer.replace(/^#/, '');
  if (raw === '' || raw === '/') return [];
  const segments: (string | number)[] = [];
  let current: unknown = value;
  for (const encoded of raw.slice(1).split('/')) {
    const key = decodeURIComponent(encoded).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^\d+$/.test(key)) {
      segments.push(Number(key));
      current = current[Number(key)];
    } else {
      segments.push(key);
      current = isRecord(current) ? current[key] : undefined;
    }
  }
  return segments;
}

/** Keywords whose errors only say "something below failed"; the errors below say what. */
const WRAPPER_KEYWORDS = new Set([
  'properties',
  'additionalProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);

function jsonSchemaIssues(errors: readonly OutputUnit[], args: unknown): ValidationIssue[] {
  const specific = errors.filter((unit) => !WRAPPER_KEYWORDS.has(unit.keyword));
  const chosen = specific.length > 0 ? specific : errors;
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const unit of chosen) {
    const segments = pointerSegments(unit.instanceLocation, args);
    let message = unit.error;
    const missing = unit.keyword === 'required' ? /required property "(.*)"/.exec(message) : null;
    if (missing) {
      segments.push(missing[1]!);
      message = 'Required property is missing.';
    } else if (unit.keyword === 'false') {
      message = 'Property is not allowed by the schema.';
    } else if (unit.keyword === 'format' && isPatternFormatError(message)) {
      message = 'String does not match pattern.';
    }
    const path = formatIssuePath(segments);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, message });
  }
  return issues;
}

const DRAFTS: readonly [string, SchemaDraft][] = [
  ['draft-04', '4'],
  ['draft-07', '7'],
  ['2019-09', '2019-09'],
  ['2020-12', '2020-12'],
];

function draftOf(schema: JsonSchema): SchemaDraft {
  const dialect = schema.$schema;
  if (typeof dialect === 'string') {
    for (const [marker, draft] of DRAFTS) if (dialect.includes(marker)) return draft;
  }
  return '2020-12';
}

/** One issue about the arguments as a whole. */
function refused(message: string): ValidationResult {
  return { success: false, issues: [{ path: '', message }] };
}

// Written out at first use: formatting the number at import would load the locale data (~10 ms).
const overBudget = () =>
  `the arguments could not be validated within the budget: checking them against the tool's schema would take more than ${VALIDATION_BUDGET.toLocaleString('en-US')} steps, so the call was refused. Send smaller or less deeply nested arguments.`;
const OUT_OF_STACK =
  "the arguments could not be validated: they are too deeply nested (or produce too many errors) for the tool's schema, so the call was refused. Send smaller or less deeply nested arguments.";

/** A UTF-16 surrogate that is not half of a pair (with the `u` flag, pairs read as one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** The kinds of value JSON data is made of (`typeof`). */
const JSON_KINDS = new Set(['string', 'number', 'boolean', 'object']);

/**
 * The first thing in `args` the validator cannot handle, with its path: a value that is not JSON
 * data (`undefined`, a function, a bigint...) or a property name that is not well-formed Unicode
 * (the validator cannot build a JSON pointer to it). Asked only after the validator threw, to tell
 * bad arguments from a broken schema.
 */
function argumentsProblem(args: unknown): ValidationIssue | undefined {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: args, path: [] }];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (!JSON_KINDS.has(typeof value)) {
      return {
        path: formatIssuePath(path),
        message: `Value is ${describeValue(value)}, which is not JSON data: the arguments could not be validated. Send JSON values only.`,
      };
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const steps = Object.keys(value).map((key) => (Array.isArray(value) ? Number(key) : key));
    const malformed = steps.find((step) => typeof step === 'string' && LONE_SURROGATE.test(step));
    if (malformed !== undefined) {
      return {
        path: formatIssuePath([...path, malformed]),
        message:
          'Property name is not well-formed Unicode (it holds a lone surrogate): the arguments could not be validated. Use property names of valid text.',
      };
    }
    for (let i = steps.length - 1; i >= 0; i--) {
      const step = steps[i]!;
      pending.push({ value: (value as Record<string | number, unknown>)[step], path: [...path, step] });
    }
  }
  return undefined;
}

/** Validates against a JSON Schema, within the budget (see `schema-graph.ts`). */
function validateJson(schema: JsonSchema, args: unknown): ValidationResult {
  let outcome: ReturnType<typeof validate>;
  try {
    const plan = schemaPlan(schema);
    const unresolved = plan.unresolved[0];
    if (unresolved !== undefined) {
      return refused(
        `the tool's JSON Schema could not be applied: its $ref ${JSON.stringify(unresolved)} names no part of the schema (references to other documents are not fetched).`,
      );
    }
    const problem = schemaCostProblem(plan);
    if (problem !== undefined) return refused(`the tool's JSON Schema ${problem}`);
    const cost = validationCost(plan, args);
    if (cost > VALIDATION_BUDGET) return refused(overBudget());
    const lookup = plan.lookup as Parameters<typeof validate>[3];
    outcome = withPatterns(plan.patterns, args, VALIDATION_BUDGET - cost, () =>
      validate(args, plan.schema as JsonSchema, draftOf(schema), lookup, false),
    );
  } catch (error) {
    if (error instanceof PatternNamesOverBudget) return refused(overBudget());
    if (error instanceof RangeError) return refused(OUT_OF_STACK);
    const problem = argumentsProblem(args);
    if (problem !== undefined) return { success: false, issues: [problem] };
    return refused(`the tool's JSON Schema could not be applied: ${errorMessage(error)}`);
  }
  if (outcome.valid) return { success: true, value: args };
  return { success: false, issues: jsonSchemaIssues(outcome.errors, args) };
}

/**
 * Validates a tool call's arguments. A tool whose `inputSchema` is a Standard Schema is validated
 * through `~standard.validate` (so transforms and defaults apply: `value` is the parsed output);
 * otherwise its `jsonSchema` is checked with @cfworker/json-schema (`value` is the arguments as given).
 *
 * The cost is bounded: `$ref`s are resolved within the schema (references to other documents are
 * not fetched), loops of subschemas applied to the same value are cut (`{ "$ref": "#" }` accepts
 * anything), and the steps the arguments would take (subschemas applied, required names and enum
 * members checked, unique items compared) are counted before validating, shared subschemas from a
 * memo: a call that would take more than `VALIDATION_BUDGET` (50,000) is refused with an issue that
 * says so. Every `pattern` and `patternProperties` pattern is matched by RE2 (re2js), in time linear
 * in the text, never by a backtracking `RegExp` (see `schema-pattern.ts`); a schema with a pattern
 * RE2 cannot match (a lookaround, a backreference) is refused. The plan behind this is made once
 * per schema object.
 *
 * Never throws for bad arguments: every problem comes back as an issue with a path like
 * `location.city`. A schema that throws while validating, or that is over the budget for any
 * value, is reported as an issue too (the call is refused).
 */
export async function validateInput(
  tool: { inputSchema?: SchemaLike; jsonSchema: JsonSchema },
  args: unknown,
): Promise<ValidationResult> {
  if (isStandardSchema(tool.inputSchema)) {
    let result: StandardSchemaV1.Result<unknown>;
    try {
      result = await tool.inputSchema['~standard'].validate(args);
    } catch (error) {
      return { success: false, issues: [{ path: '', message: `validation threw: ${errorMessage(error)}` }] };
    }
    if (result.issues === undefined) return { success: true, value: result.value };
    return {
      success: false,
      issues: result.issues.map((issue) => ({
        path: formatIssuePath(standardPathSegments(issue.path)),
        message: issue.message,
      })),
    };
  }
  const loading = loadPatternEngine();
  if (loading !== undefined) await loading;
  return validateJson(tool.jsonSchema, args);
}
