import {
  DuplicateToolError,
  InvalidOptionError,
  InvalidToolError,
  ToolNameConflictError,
  UnknownToolError,
} from '../errors.js';
import { isStandardSchema, toJsonSchema } from '../schema/schema.js';
import { costProblemOf } from '../schema/schema-graph.js';
import type { CatalogTool, JsonSchema, ToolDescriptor } from '../types.js';
import { describeNonText, describeValue, isRecord, isText } from '../values.js';
import { CatalogAliases, checkAliases } from './aliases.js';
import { freezeJson, invalidTool } from './freeze-json.js';
import { frozenTags } from './shared-tag-lists.js';
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

function optionalRecord(descriptor: Record<string, unknown>, field: string, toolLabel: string): void {
  const value = descriptor[field];
  if (value !== undefined && !isRecord(value)) {
    throw invalidTool(toolLabel, field, `must be an object, got ${describeValue(value)}`);
  }
}

function optionalString(descriptor: Record<string, unknown>, field: string, toolLabel: string): void {
  const value = descriptor[field];
  if (value !== undefined && typeof value !== 'string') {
    throw invalidTool(toolLabel, field, `must be a string, got ${describeValue(value)}`);
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
    throw invalidTool(
      toolLabel,
      'inputSchema',
      `must describe an object (type "object"): tool arguments are always an object, got type ${JSON.stringify(type)}`,
    );
  }
  if (schema.properties !== undefined && !isRecord(schema.properties)) {
    throw invalidTool(
      toolLabel,
      'inputSchema',
      `properties must be an object, got ${describeValue(schema.properties)}`,
    );
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && allStrings(schema.required))) {
    throw invalidTool(toolLabel, 'inputSchema', 'required must be an array of property names (strings)');
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
  if (problem !== undefined) throw invalidTool(toolLabel, 'inputSchema', problem);
}

/** ` (at index 3)` for a tool of a batch, for error messages. */
function at(position: number | undefined): string {
  return position === undefined ? '' : ` (at index ${position})`;
}

/** Validates a descriptor and builds the frozen catalog entry (without checking for duplicates). */
function toCatalogTool<TTool>(input: ToolDescriptor<TTool>, position?: number): CatalogTool<TTool> {
  if (!isRecord(input)) {
    throw new InvalidToolError(`Tool${at(position)} must be an object, got ${describeValue(input)}`);
  }
  const descriptor = input as unknown as Record<string, unknown>;
  const id = descriptor.id;
  if (!isText(id)) {
    const hint = typeof descriptor.name === 'string' ? ` named "${descriptor.name}"` : '';
    throw new InvalidToolError(
      `Tool${hint}${at(position)}: id must be a non-empty string, got ${describeNonText(id)}`,
      'id',
    );
  }
  const label = `"${id}"`;
  optionalString(descriptor, 'name', label);
  if (descriptor.name === '') throw invalidTool(label, 'name', 'must not be empty (omit it to use the id)');
  optionalString(descriptor, 'description', label);
  optionalString(descriptor, 'source', label);
  if (descriptor.tags !== undefined) {
    if (!Array.isArray(descriptor.tags)) {
      throw invalidTool(label, 'tags', `must be an array of strings, got ${describeValue(descriptor.tags)}`);
    }
    const tags: unknown[] = descriptor.tags;
    for (let bad = 0; bad < tags.length; bad++) {
      if (typeof tags[bad] !== 'string') {
        throw invalidTool(label, `tags[${bad}]`, `must be a string, got ${describeValue(tags[bad])}`);
      }
    }
  }
  if (descriptor.pinned !== undefined && typeof descriptor.pinned !== 'boolean') {
    throw invalidTool(label, 'pinned', `must be a boolean, got ${describeValue(descriptor.pinned)}`);
  }
  if (descriptor.execute !== undefined && typeof descriptor.execute !== 'function') {
    throw invalidTool(label, 'execute', `must be a function, got ${describeValue(descriptor.execute)}`);
  }
  if (descriptor.resolve !== undefined && typeof descriptor.resolve !== 'function') {
    throw invalidTool(label, 'resolve', `must be a function, got ${describeValue(descriptor.resolve)}`);
  }
  optionalRecord(descriptor, 'annotations', label);
  optionalRecord(descriptor, 'metadata', label);
  if (descriptor.outputSchema !== undefined && !isRecord(descriptor.outputSchema)) {
    throw invalidTool(
      label,
      'outputSchema',
      `must be a JSON Schema object, got ${describeValue(descriptor.outputSchema)}`,
    );
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

  const toolName = toToolName(id);
  const aliases =
    descriptor.aliases === undefined ? undefined : checkAliases(descriptor.aliases, { id, toolName }, label);
  const tool: CatalogTool<TTool> = { ...input, id, name: input.name ?? id, toolName, jsonSchema };
  if (aliases === undefined) delete tool.aliases;
  else tool.aliases = aliases;
  if (inputSchema !== undefined) tool.inputSchema = inputSchema;
  if (input.tags !== undefined) tool.tags = frozenTags(input.tags);
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
 * so are tool names, which map back to tools through `getByToolName`, and aliases (`getByAlias`): no
 * name is two tools' id, tool name or alias.
 *
 * Schemas are untrusted input: their copy takes time linear in their objects (a sub-object used in
 * several places is copied once and stays shared), a cycle or nesting deeper than 128 levels is an
 * {@link InvalidToolError} naming the path, and so is an input schema that no call could be
 * validated against within the validation budget (see `validateInput`).
 */
export class ToolCatalog<TTool = unknown> implements Iterable<CatalogTool<TTool>> {
  readonly #tools = new Map<string, CatalogTool<TTool>>();
  readonly #idsByToolName = new Map<string, string>();
  readonly #aliases = new CatalogAliases<TTool>();
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
        this.#aliases.delete(entry);
      }
      throw error;
    }
    if (this.#listeners.size > 0)
      for (let i = 0; i < entries.length; i++) this.#emit({ type: 'add', tool: entries[i]! });
    return entries;
  }

  /** Replaces the tool with the same id, keeping its position (hot reload). {@link UnknownToolError} when absent. */
  replace(tool: ToolDescriptor<TTool>): CatalogTool<TTool> {
    const entry = toCatalogTool(tool);
    const previous = this.#tools.get(entry.id);
    if (!previous) throw new UnknownToolError(entry.id);
    this.#replaceWith(entry, previous);
    return entry;
  }

  /** Adds the tool, or replaces the one with the same id. */
  upsert(tool: ToolDescriptor<TTool>): CatalogTool<TTool> {
    const entry = toCatalogTool(tool);
    const previous = this.#tools.get(entry.id);
    if (previous) {
      this.#replaceWith(entry, previous);
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
    this.#aliases.delete(tool);
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

  /**
   * The tool one of whose `aliases` is `alias`, as offered under it: `toolName` is the alias and
   * `aliasOf` the tool's own tool name (everything else, `id` included, is the tool's).
   */
  getByAlias(alias: string): CatalogTool<TTool> | undefined {
    const id = this.#aliases.ownerOf(alias);
    const tool = id === undefined ? undefined : this.#tools.get(id);
    return tool === undefined ? undefined : this.#aliases.view(tool, alias);
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
    this.#checkAliases(entry);
  }

  /** See {@link CatalogAliases.check}. */
  #checkAliases(entry: CatalogTool<TTool>): void {
    this.#aliases.check(entry, (name) => {
      if (this.#tools.has(name)) return { id: name, as: 'id' };
      const id = this.#idsByToolName.get(name);
      return id === undefined ? undefined : { id, as: 'tool name' };
    });
  }

  #insert(entry: CatalogTool<TTool>): void {
    this.#tools.set(entry.id, entry);
    this.#idsByToolName.set(entry.toolName, entry.id);
    this.#aliases.insert(entry);
  }

  /** Puts `entry` in the place of `previous` (same id), its aliases checked first. */
  #replaceWith(entry: CatalogTool<TTool>, previous: CatalogTool<TTool>): void {
    this.#checkAliases(entry);
    this.#aliases.delete(previous);
    this.#aliases.insert(entry);
    this.#tools.set(entry.id, entry);
    this.#emit({ type: 'replace', tool: entry, previous });
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
