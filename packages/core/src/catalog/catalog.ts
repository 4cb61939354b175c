import {
  DuplicateToolError,
  InvalidOptionError,
  InvalidToolError,
  ToolNameConflictError,
  UnknownToolError,
} from '../errors.js';
import { isStandardSchema, toJsonSchema } from '../schema/schema.js';
import { costProblemOf, VALIDATION_BUDGET } from '../schema/schema-graph.js';
import type { CatalogTool, JsonSchema, ToolDescriptor } from '../types.js';
import { describeNonText, describeValue, isRecord, isText, setOwn } from '../values.js';
import { toToolName } from './tool-name.js';

/** What changed in a catalog; sent to {@link ToolCatalog.subscribe} listeners after the change. */
export type CatalogChange<T> =
  | { type: 'add'; tool: CatalogTool<T> }
  | { type: 'remove'; tool: CatalogTool<T> }
  | { type: 'replace'; tool: CatalogTool<T>; previous: CatalogTool<T> };

/** Options for a {@link ToolCatalog}. */
export interface ToolCatalogOptions<TTool = unknown> {
  /**
   * Called when a `subscribe` listener throws. The catalog and the other listeners carry on either
   * way. Default: `console.error`.
   */
  onListenerError?: (error: unknown, change: CatalogChange<TTool>) => void;
}

function invalid(toolLabel: string, field: string, problem: string): InvalidToolError {
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
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyJson(value[i], depth + 1);
    return Object.freeze(copy);
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw NOT_JSON;
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const item = source[key];
    if (item === undefined) continue;
    if (key === '__proto__') throw NOT_JSON;
    if (CHECKED_KEYS.has(key)) fastCopySawCheckedKey = true;
    copy[key] = copyJson(item, depth + 1);
  }
  return Object.freeze(copy);
}

/** The extent of a string, number, boolean or null: one value, no levels below. */
const LEAF = { values: 1, levels: 0 };

/** A frozen copy of JSON data, and whether validating against it as a schema needs a cost check. */
interface FrozenJson {
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
function freezeJson(value: unknown, root: string, toolLabel: string, field: string): FrozenJson {
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
    throw invalid(toolLabel, field, `is not JSON data: ${formatPath(root, steps)} ${problem}`);
  };
  /** Fails at the current path: deeper than the limit on it, or through reused sub-objects below it. */
  const tooDeep = (reusedLevels?: number): never => {
    const how =
      reusedLevels === undefined
        ? `is deeper than ${MAX_JSON_DEPTH} levels (the limit)`
        : `reaches ${reusedLevels} levels through sub-objects it reuses (the limit is ${MAX_JSON_DEPTH})`;
    throw invalid(
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
      throw invalid(
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

function optionalRecord(descriptor: Record<string, unknown>, field: string, toolLabel: string): void {
  const value = descriptor[field];
  if (value !== undefined && !isRecord(value)) {
    throw invalid(toolLabel, field, `must be an object, got ${describeValue(value)}`);
  }
}

function optionalString(descriptor: Record<string, unknown>, field: string, toolLabel: string): void {
  const value = descriptor[field];
  if (value !== undefined && typeof value !== 'string') {
    throw invalid(toolLabel, field, `must be a string, got ${describeValue(value)}`);
  }
}

function allStrings(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (typeof items[i] !== 'string') return false;
  return true;
}

/** Checks that a resolved input schema describes an object, and gives it `type: 'object'` if it had no type. */
function objectSchema(schema: JsonSchema, toolLabel: string): JsonSchema {
  const type = schema.type;
  if (type !== undefined && type !== 'object') {
    throw invalid(
      toolLabel,
      'inputSchema',
      `must describe an object (type "object"): tool arguments are always an object, got type ${JSON.stringify(type)}`,
    );
  }
  if (schema.properties !== undefined && !isRecord(schema.properties)) {
    throw invalid(toolLabel, 'inputSchema', `properties must be an object, got ${describeValue(schema.properties)}`);
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && allStrings(schema.required))) {
    throw invalid(toolLabel, 'inputSchema', 'required must be an array of property names (strings)');
  }
  if (type !== undefined) return schema;
  const { type: _missing, ...rest } = schema;
  return { type: 'object', ...rest };
}

/**
 * Rejects an input schema that no call could be validated against within the budget (see
 * `validateInput`): one that applies too many subschemas to a single value, too deep a chain of
 * them, or a pattern that cannot be matched in linear time (a lookaround, a backreference). Checked
 * when the tool enters the catalog, so the tool fails where it is declared, not at every call.
 */
function checkSchemaCost(schema: JsonSchema, toolLabel: string): void {
  const problem = costProblemOf(schema);
  if (problem !== undefined) throw invalid(toolLabel, 'inputSchema', problem);
}

/** Validates a descriptor and builds the frozen catalog entry (without checking for duplicates). */
function toCatalogTool<TTool>(input: ToolDescriptor<TTool>, position?: number): CatalogTool<TTool> {
  const at = () => (position === undefined ? '' : ` (at index ${position})`);
  if (!isRecord(input)) {
    throw new InvalidToolError(`Tool${at()} must be an object, got ${describeValue(input)}`);
  }
  const descriptor = input as unknown as Record<string, unknown>;
  const id = descriptor.id;
  if (!isText(id)) {
    const hint = typeof descriptor.name === 'string' ? ` named "${descriptor.name}"` : '';
    throw new InvalidToolError(`Tool${hint}${at()}: id must be a non-empty string, got ${describeNonText(id)}`, 'id');
  }
  const label = `"${id}"`;
  optionalString(descriptor, 'name', label);
  if (descriptor.name === '') throw invalid(label, 'name', 'must not be empty (omit it to use the id)');
  optionalString(descriptor, 'description', label);
  optionalString(descriptor, 'source', label);
  if (descriptor.tags !== undefined) {
    if (!Array.isArray(descriptor.tags)) {
      throw invalid(label, 'tags', `must be an array of strings, got ${describeValue(descriptor.tags)}`);
    }
    const tags: unknown[] = descriptor.tags;
    for (let bad = 0; bad < tags.length; bad++) {
      if (typeof tags[bad] !== 'string') {
        throw invalid(label, `tags[${bad}]`, `must be a string, got ${describeValue(tags[bad])}`);
      }
    }
  }
  if (descriptor.pinned !== undefined && typeof descriptor.pinned !== 'boolean') {
    throw invalid(label, 'pinned', `must be a boolean, got ${describeValue(descriptor.pinned)}`);
  }
  if (descriptor.execute !== undefined && typeof descriptor.execute !== 'function') {
    throw invalid(label, 'execute', `must be a function, got ${describeValue(descriptor.execute)}`);
  }
  optionalRecord(descriptor, 'annotations', label);
  optionalRecord(descriptor, 'metadata', label);
  if (descriptor.outputSchema !== undefined && !isRecord(descriptor.outputSchema)) {
    throw invalid(label, 'outputSchema', `must be a JSON Schema object, got ${describeValue(descriptor.outputSchema)}`);
  }

  let resolved: JsonSchema;
  try {
    resolved = toJsonSchema(input.inputSchema);
  } catch (error) {
    if (!InvalidToolError.isInstance(error)) throw error;
    throw new InvalidToolError(`Tool ${label}: ${error.message}`, error.field ?? 'inputSchema', { cause: error });
  }
  const standard = isStandardSchema(input.inputSchema);
  const objectResolved = objectSchema(resolved, label);
  const frozen = freezeJson(objectResolved, 'inputSchema', label, 'inputSchema');
  const jsonSchema = frozen.value as JsonSchema;
  if (frozen.needsCostCheck) checkSchemaCost(jsonSchema, label);
  // A JSON Schema given as it is needed is copied once and serves as both.
  const inputSchema =
    input.inputSchema === undefined || standard
      ? input.inputSchema
      : objectResolved === input.inputSchema
        ? jsonSchema
        : (freezeJson(input.inputSchema, 'inputSchema', label, 'inputSchema').value as JsonSchema);

  const tool: CatalogTool<TTool> = {
    ...input,
    id,
    name: input.name ?? id,
    toolName: toToolName(id),
    jsonSchema,
  };
  if (inputSchema !== undefined) tool.inputSchema = inputSchema;
  if (input.tags !== undefined) tool.tags = Object.freeze([...input.tags]);
  if (input.outputSchema !== undefined) {
    tool.outputSchema = freezeJson(input.outputSchema, 'outputSchema', label, 'outputSchema').value as JsonSchema;
  }
  if (input.annotations !== undefined) tool.annotations = Object.freeze({ ...input.annotations });
  if (input.metadata !== undefined) tool.metadata = Object.freeze({ ...input.metadata });
  return Object.freeze(tool);
}

/**
 * The tools an agent can search, load and call: validated, frozen descriptors, each with a
 * provider-safe `toolName` (see `toToolName`) and its input schema resolved to JSON Schema.
 *
 * Iterates (and `list()`s) in insertion order; `replace` keeps a tool's position. Ids are unique, and
 * so are tool names, which map back to tools through `getByToolName`.
 *
 * Schemas are untrusted input: their copy takes time linear in their objects (a sub-object used in
 * several places is copied once and stays shared), a cycle or nesting deeper than 128 levels is an
 * {@link InvalidToolError} naming the path, and so is an input schema that no call could be
 * validated against within the validation budget (see `validateInput`).
 */
export class ToolCatalog<TTool = unknown> implements Iterable<CatalogTool<TTool>> {
  readonly #tools = new Map<string, CatalogTool<TTool>>();
  readonly #idsByToolName = new Map<string, string>();
  readonly #listeners = new Set<(change: CatalogChange<TTool>) => void>();
  readonly #onListenerError: (error: unknown, change: CatalogChange<TTool>) => void;

  constructor(tools?: Iterable<ToolDescriptor<TTool>>, options: ToolCatalogOptions<TTool> = {}) {
    this.#onListenerError =
      options.onListenerError ??
      ((error, change) => {
        console.error(`toolscout: a catalog listener threw on "${change.type}" of tool "${change.tool.id}":`, error);
      });
    if (tools !== undefined) this.addAll(tools);
  }

  /** How many tools the catalog holds. */
  get size(): number {
    return this.#tools.size;
  }

  /**
   * Adds a tool. Throws {@link InvalidToolError} for an unusable descriptor, {@link DuplicateToolError}
   * when the id is taken, {@link ToolNameConflictError} when its tool name is another id's.
   */
  add(tool: ToolDescriptor<TTool>): CatalogTool<TTool> {
    const entry = toCatalogTool(tool);
    this.#checkNew(entry);
    this.#insert(entry);
    this.#emit({ type: 'add', tool: entry });
    return entry;
  }

  /**
   * Adds several tools, all or nothing: when any is invalid or clashes (with the catalog or with
   * another in the batch), nothing is added and the error names it.
   */
  addAll(tools: Iterable<ToolDescriptor<TTool>>): CatalogTool<TTool>[] {
    if (tools === null || typeof (tools as Partial<Iterable<unknown>>)?.[Symbol.iterator] !== 'function') {
      throw new InvalidToolError(`addAll expects an iterable of tool descriptors, got ${describeValue(tools)}`);
    }
    // Inserted as they come (a duplicate within the batch meets its twin in the catalog), and all
    // taken out again if one fails: the batch is all or nothing. Listeners hear of it once it is in.
    const entries: CatalogTool<TTool>[] = [];
    let position = 0;
    const add = (tool: ToolDescriptor<TTool>) => {
      const entry = toCatalogTool(tool, position++);
      this.#checkNew(entry);
      this.#insert(entry);
      entries.push(entry);
    };
    try {
      // (an indexed loop over an array: large batches run largely before the JIT optimises them)
      if (Array.isArray(tools)) for (let i = 0; i < tools.length; i++) add(tools[i]);
      else for (const tool of tools) add(tool);
    } catch (error) {
      for (const entry of entries) {
        this.#tools.delete(entry.id);
        this.#idsByToolName.delete(entry.toolName);
      }
      throw error;
    }
    for (let i = 0; i < entries.length; i++) this.#emit({ type: 'add', tool: entries[i]! });
    return entries;
  }

  /** Replaces the tool with the same id, keeping its position (hot reload). {@link UnknownToolError} when absent. */
  replace(tool: ToolDescriptor<TTool>): CatalogTool<TTool> {
    const entry = toCatalogTool(tool);
    const previous = this.#tools.get(entry.id);
    if (!previous) throw new UnknownToolError(entry.id);
    this.#tools.set(entry.id, entry);
    this.#emit({ type: 'replace', tool: entry, previous });
    return entry;
  }

  /** Adds the tool, or replaces the one with the same id. */
  upsert(tool: ToolDescriptor<TTool>): CatalogTool<TTool> {
    const entry = toCatalogTool(tool);
    const previous = this.#tools.get(entry.id);
    if (previous) {
      this.#tools.set(entry.id, entry);
      this.#emit({ type: 'replace', tool: entry, previous });
    } else {
      this.#checkNew(entry);
      this.#insert(entry);
      this.#emit({ type: 'add', tool: entry });
    }
    return entry;
  }

  /** Removes a tool; `false` when there was none with this id. */
  remove(id: string): boolean {
    const tool = this.#tools.get(id);
    if (!tool) return false;
    this.#tools.delete(id);
    this.#idsByToolName.delete(tool.toolName);
    this.#emit({ type: 'remove', tool });
    return true;
  }

  /** The tool with this id. */
  get(id: string): CatalogTool<TTool> | undefined {
    return this.#tools.get(id);
  }

  /** The tool with this provider-safe tool name (the reverse of `toToolName`). */
  getByToolName(toolName: string): CatalogTool<TTool> | undefined {
    const id = this.#idsByToolName.get(toolName);
    return id === undefined ? undefined : this.#tools.get(id);
  }

  /** Whether a tool with this id is in the catalog. */
  has(id: string): boolean {
    return this.#tools.has(id);
  }

  /** All tools in insertion order (a new array each call). */
  list(): CatalogTool<TTool>[] {
    return [...this.#tools.values()];
  }

  [Symbol.iterator](): Iterator<CatalogTool<TTool>> {
    return this.#tools.values();
  }

  /**
   * Calls `listener` after every change. Returns the function that unsubscribes it. A listener that
   * throws does not undo the change or keep other listeners from running (see `onListenerError`).
   */
  subscribe(listener: (change: CatalogChange<TTool>) => void): () => void {
    if (typeof listener !== 'function') {
      throw new InvalidOptionError('listener', `subscribe expects a function, got ${describeValue(listener)}`);
    }
    const subscription = (change: CatalogChange<TTool>) => listener(change);
    this.#listeners.add(subscription);
    return () => {
      this.#listeners.delete(subscription);
    };
  }

  #checkNew(entry: CatalogTool<TTool>): void {
    const existing = this.#tools.get(entry.id);
    if (existing) throw new DuplicateToolError(entry.id, existing.source, entry.source);
    const nameOwner = this.#idsByToolName.get(entry.toolName);
    if (nameOwner !== undefined) throw new ToolNameConflictError(entry.toolName, entry.id, nameOwner);
  }

  #insert(entry: CatalogTool<TTool>): void {
    this.#tools.set(entry.id, entry);
    this.#idsByToolName.set(entry.toolName, entry.id);
  }

  #emit(change: CatalogChange<TTool>): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        try {
          this.#onListenerError(error, change);
        } catch {
          // The error handler itself failed; the catalog has already changed and must stay usable.
        }
      }
    }
  }
}
