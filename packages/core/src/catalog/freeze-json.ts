// Tool data as the catalog keeps it: deep-copied, frozen, checked to be plain JSON of bounded size
// and depth (see {@link freezeJson}).
import { InvalidToolError } from '../errors.js';
import { VALIDATION_BUDGET } from '../schema/schema-graph.js';
import { describeValue, setOwn } from '../values.js';

/** The error of a tool whose descriptor is not valid: `Tool <label>: <field> <problem>`. */
export function invalidTool(toolLabel: string, field: string, problem: string): InvalidToolError {
  return new InvalidToolError(`Tool ${toolLabel}: ${field} ${problem}`, field);
}

/** Raised inside {@link copyJson} when the value is not plain JSON data (or nests too deep). */
const NOT_JSON = Symbol('not JSON');
/**
 * How deep a tool's JSON data (its schemas, with their defaults and examples) may nest. Deeper data
 * is rejected: no real schema comes near it, and a validator walks a schema by recursion.
 */
const MAX_JSON_DEPTH = 128;
/**
 * How many values (objects, arrays, strings, numbers...) a tool's JSON data may hold when written out,
 * as it is for a model provider or a token count: a sub-object used in several places counts at each
 * use. Reuse at every level doubles the size per level (24 levels: 16 million values).
 */
const MAX_JSON_VALUES = 1_000_000;
/**
 * Deeper than this, or past this many values, {@link freezeJson} takes the slow path, which tells a
 * cycle from legitimately deep or large data (a cycle would otherwise be followed round and round)
 * and keeps shared objects shared (copying a shared object at each of its uses can take exponential
 * time).
 */
const FAST_COPY_DEPTH = 64;
const FAST_COPY_VALUES = 250_000;
let fastCopyBudget = 0;
/**
 * Whether the fast path met a `$ref` or `$recursiveRef` key (references make validation costlier),
 * or a `pattern` or `patternProperties` key (a pattern RE2 cannot match is rejected).
 */
let fastCopySawCheckedKey = false;
const CHECKED_KEYS = new Set(['$ref', '$recursiveRef', 'pattern', 'patternProperties']);

/** The fast path of {@link freezeJson}: throws {@link NOT_JSON} for anything it does not copy. */
function copyJson(value: unknown, depth: number): unknown {
  if (--fastCopyBudget < 0) throw NOT_JSON;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw NOT_JSON;
  }
  if (typeof value !== 'object' || depth > FAST_COPY_DEPTH) throw NOT_JSON;
  if (Array.isArray(value)) return copyJsonArray(value, depth);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw NOT_JSON;
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  // (for-in, not Object.keys: no array of keys per object; the own check skips enumerable keys
  // inherited from a polluted Object.prototype, so the same keys as Object.keys, in the same order)
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const item = source[key];
    if (item === undefined) continue;
    if (key === '__proto__') throw NOT_JSON;
    if (CHECKED_KEYS.has(key)) fastCopySawCheckedKey = true;
    copy[key] = copyJson(item, depth + 1);
  }
  return Object.freeze(copy);
}

/** {@link copyJson} of an array (apart, so that the object path's property accesses see objects only). */
function copyJsonArray(value: readonly unknown[], depth: number): unknown {
  const copy: unknown[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) copy[i] = copyJson(value[i], depth + 1);
  return Object.freeze(copy);
}

/** The extent of a string, number, boolean or null: one value, no levels below. */
const LEAF = { values: 1, levels: 0 };

/** A frozen copy of JSON data, and whether validating against it as a schema needs a cost check. */
export interface FrozenJson {
  value: unknown;
  /** It holds `$ref`s, shared objects or very many values (see `schemaCostProblem`). */
  needsCostCheck: boolean;
}

/** `root.a[0].b`, with the middle of a very long path left out. */
function formatPath(root: string, steps: readonly (string | number)[]): string {
  const render = (list: readonly (string | number)[]) =>
    list.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');
  if (steps.length <= 12) return root + render(steps);
  return `${root}${render(steps.slice(0, 6))}…(${steps.length - 10} more levels)…${render(steps.slice(-4))}`;
}

/**
 * Deep-copies JSON data (plain objects, arrays, strings, finite numbers, booleans, null) and freezes
 * the copy. Anything else (functions, class instances, cycles, NaN, nesting deeper than
 * {@link MAX_JSON_DEPTH}) is an error naming its path (`root`, then `.key` and `[index]` steps).
 * Plain JSON takes a fast path; anything else (or very deep or large data) is walked again with the
 * bookkeeping that makes the error precise, copying an object used in several places once (so a
 * schema that reuses one sub-object at every level copies in time linear in its objects, and stays
 * shared). Written out as JSON (for a provider, a token count) a reused object counts at each use:
 * data that would hold more than {@link MAX_JSON_VALUES} values or nest deeper than
 * {@link MAX_JSON_DEPTH} levels that way is an error too.
 */
export function freezeJson(value: unknown, root: string, toolLabel: string, field: string): FrozenJson {
  try {
    fastCopyBudget = FAST_COPY_VALUES;
    fastCopySawCheckedKey = false;
    const copy = copyJson(value, 0);
    const needsCostCheck = fastCopySawCheckedKey || FAST_COPY_VALUES - fastCopyBudget > VALIDATION_BUDGET;
    return { value: copy, needsCostCheck };
  } catch (error) {
    if (error !== NOT_JSON) throw error;
  }
  const copies = new Map<object, unknown>();
  /** Of each object copied: its values and levels written out as JSON (shared objects in full). */
  const extents = new Map<object, { values: number; levels: number }>();
  const open = new Set<object>();
  const steps: (string | number)[] = [];
  const fail = (problem: string): never => {
    throw invalidTool(toolLabel, field, `is not JSON data: ${formatPath(root, steps)} ${problem}`);
  };
  /** Fails at the current path: deeper than the limit on it, or through reused sub-objects below it. */
  const tooDeep = (reusedLevels?: number): never => {
    const how =
      reusedLevels === undefined
        ? `is deeper than ${MAX_JSON_DEPTH} levels (the limit)`
        : `reaches ${reusedLevels} levels through sub-objects it reuses (the limit is ${MAX_JSON_DEPTH})`;
    throw invalidTool(
      toolLabel,
      field,
      `nests too deeply: ${formatPath(root, steps)} ${how}. Flatten it, or name repeated parts once in $defs.`,
    );
  };
  const extentOf = (item: unknown) => (typeof item === 'object' && item !== null && extents.get(item)) || LEAF;
  const visit = (value: unknown): unknown => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : fail(`is ${value}`);
    if (typeof value !== 'object') return fail(`is ${describeValue(value)}`);
    const done = copies.get(value);
    if (done !== undefined) return done;
    if (open.has(value)) return fail('refers back to itself (a cycle)');
    if (steps.length >= MAX_JSON_DEPTH) tooDeep();
    open.add(value);
    let copy: unknown[] | Record<string, unknown>;
    let memberValues = 0;
    let memberLevels = 0;
    const member = (item: unknown): unknown => {
      const result = visit(item);
      const extent = extentOf(item);
      memberValues = Math.min(memberValues + extent.values, MAX_JSON_VALUES + 1);
      memberLevels = Math.max(memberLevels, extent.levels);
      return result;
    };
    if (Array.isArray(value)) {
      const array: unknown[] = new Array(value.length);
      for (let index = 0; index < value.length; index++) {
        steps.push(index);
        array[index] = member(value[index]);
        steps.pop();
      }
      copy = array;
    } else {
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) {
        fail(`is a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'class instance'}`);
      }
      const object: Record<string, unknown> = {};
      const source = value as Record<string, unknown>;
      for (const key of Object.keys(source)) {
        const item = source[key];
        if (item === undefined) continue;
        steps.push(key);
        const result = member(item);
        steps.pop();
        if (key === '__proto__') setOwn(object, key, result);
        else object[key] = result;
      }
      copy = object;
    }
    open.delete(value);
    const extent = { values: memberValues + 1, levels: memberLevels + 1 };
    if (steps.length + extent.levels > MAX_JSON_DEPTH) tooDeep(steps.length + extent.levels);
    if (extent.values > MAX_JSON_VALUES) {
      throw invalidTool(
        toolLabel,
        field,
        `is too large: written out as JSON, ${formatPath(root, steps)} would hold more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values (the limit), through sub-objects it reuses or its sheer size. Name a repeated part once in $defs and refer to it with $ref.`,
      );
    }
    extents.set(value, extent);
    Object.freeze(copy);
    copies.set(value, copy);
    return copy;
  };
  return { value: visit(value), needsCostCheck: true };
}
