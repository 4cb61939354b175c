import { DuplicateToolError, InvalidOptionError, InvalidToolError } from '../errors.js';
import type { SchemaLike, ToolDescriptor, ToolExecutionContext } from '../types.js';
import { describeValue, isIterable, isRecord } from '../values.js';

/** What most frameworks' tools have: an id, a description, an input schema and a function that runs them. */
export interface ToolLike {
  id?: unknown;
  description?: unknown;
  execute?: unknown;
}

/** How {@link toolLikeDescriptor} reads the tools of one framework. */
export interface ToolLikeReader<TTool extends ToolLike> {
  /** The framework's tools in a few words, for errors about a list or record of them: `Mastra tool`. */
  noun: string;
  /** Whether a value in a list of tools is one of the framework's tools (not a descriptor). */
  isTool(value: unknown): boolean;
  /** What a tool is, for the error about a value that is not one: `a tool (createTool(...) or ...)`. */
  kind: string;
  /** How to give a tool an id, for the error about a tool without one. */
  idHint: string;
  /** The tool's input schema as core takes it, or undefined; may throw for a schema it cannot read. */
  readSchema(tool: TTool): SchemaLike | undefined;
  /** Runs the tool for the session (for a tool with an `execute`). */
  run(tool: TTool, input: unknown, context: ToolExecutionContext): unknown;
  /** More fields of the descriptor, read from the tool (`source`, `annotations`, ...); undefined ones are left out. */
  extras?(tool: TTool): Partial<ToolDescriptor<TTool>>;
}

/**
 * Converts a framework's tool into a descriptor: its id (its own, else `key`, e.g. its key in a record
 * of tools), description and input schema; `execute` runs it through `reader.run`; `tool` keeps it.
 *
 * @param label How error messages name the tool (`tools["search"]`, `Tool at index 2`).
 * @throws InvalidToolError for a value that is not an object, a tool without an id (and no `key`), a
 * description computed per call (which cannot be searched), an `execute` that is not a function, or
 * an input schema that cannot be read.
 */
export function toolLikeDescriptor<TTool extends ToolLike>(
  tool: TTool,
  reader: ToolLikeReader<TTool>,
  key?: string,
  label = key === undefined ? 'The tool' : `tools[${JSON.stringify(key)}]`,
): ToolDescriptor<TTool> {
  if (!isRecord(tool)) throw new InvalidToolError(`${label} must be ${reader.kind}, got ${describeValue(tool)}.`);
  const id = typeof tool.id === 'string' && tool.id.trim() !== '' ? tool.id : key;
  if (id === undefined) throw new InvalidToolError(`${label} has no id. ${reader.idHint}`, 'id');
  if (typeof tool.description === 'function') {
    throw new InvalidToolError(
      `${label}: description is a function (computed per call), which cannot be searched. Give the tool a string description.`,
      'description',
    );
  }
  if (tool.execute !== undefined && typeof tool.execute !== 'function') {
    throw new InvalidToolError(`${label}: execute must be a function, got ${describeValue(tool.execute)}.`, 'execute');
  }
  // The catalog checks the rest (a description that is not a string, ...) when the tool enters it.
  const descriptor: ToolDescriptor<TTool> = { id, tool, description: tool.description as string | undefined };
  const inputSchema = readToolSchema(label, () => reader.readSchema(tool));
  if (inputSchema !== undefined) descriptor.inputSchema = inputSchema;
  for (const [field, value] of Object.entries(reader.extras?.(tool) ?? {})) {
    if (value !== undefined) Object.assign(descriptor, { [field]: value });
  }
  return runsThroughTool(descriptor, reader.run);
}

/**
 * A descriptor that runs through its framework tool (`descriptor.tool.execute`) with `run`, unless it
 * has an `execute` of its own or its tool has none.
 */
export function runsThroughTool<TTool extends ToolLike>(
  descriptor: ToolDescriptor<TTool>,
  run: ToolLikeReader<TTool>['run'],
): ToolDescriptor<TTool> {
  const tool = descriptor.tool;
  if (descriptor.execute !== undefined || !isRecord(tool) || typeof tool.execute !== 'function') return descriptor;
  return { ...descriptor, execute: (input, context) => run(tool, input, context) };
}

/**
 * Reads a tool's input schema with `read` (a framework's own conversion).
 *
 * @throws InvalidToolError naming the tool (`label`) and why, when `read` throws.
 */
export function readToolSchema(label: string, read: () => SchemaLike | undefined): SchemaLike | undefined {
  try {
    return read();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidToolError(
      `${label}: inputSchema cannot be read (${reason}). Use zod, JSON Schema or another Standard Schema.`,
      'inputSchema',
      { cause: error },
    );
  }
}

/**
 * Converts a record of tools by name with `convert` (given each tool and its key), refusing two
 * tools with one id: loading one of them must never load the other.
 *
 * @throws DuplicateToolError naming both keys (`tools["a"]`, `tools["b"]`); whatever `convert` throws.
 */
export function descriptorsOfRecord<TTool, TInput>(
  tools: Readonly<Record<string, TInput>>,
  convert: (tool: TInput, key: string) => ToolDescriptor<TTool>,
): ToolDescriptor<TTool>[] {
  const keysById = new Map<string, string>();
  return Object.entries(tools).map(([key, tool]) => {
    const descriptor = convert(tool, key);
    const previous = keysById.get(descriptor.id);
    if (previous !== undefined) {
      throw new DuplicateToolError(
        descriptor.id,
        `tools[${JSON.stringify(previous)}]`,
        `tools[${JSON.stringify(key)}]`,
      );
    }
    keysById.set(descriptor.id, key);
    return descriptor;
  });
}

/**
 * The descriptors of a host's tools, given as a record of the framework's tools by name (see
 * {@link descriptorsOfRecord}), or as a list of its tools and descriptors, where a descriptor without
 * `execute` runs through its `tool` with `reader.run`.
 *
 * @throws InvalidToolError for anything else, naming it (`Tool at index 2`); the errors of
 * {@link toolLikeDescriptor} and {@link descriptorsOfRecord}.
 */
export function descriptorsOfToolInput<TTool extends ToolLike>(
  tools: unknown,
  reader: ToolLikeReader<TTool>,
): ToolDescriptor<TTool>[] {
  const { noun } = reader;
  if (isIterable(tools)) {
    return [...tools].map((item, index) => {
      const label = `Tool at index ${index}`;
      if (reader.isTool(item)) return toolLikeDescriptor(item as TTool, reader, undefined, label);
      if (isRecord(item)) return runsThroughTool(item as unknown as ToolDescriptor<TTool>, reader.run);
      throw new InvalidToolError(`${label} must be a ${noun} or a tool descriptor, got ${describeValue(item)}.`);
    });
  }
  if (!isRecord(tools)) {
    const message = `tools must be a record of ${noun}s by name or a list of tools, got ${describeValue(tools)}.`;
    throw new InvalidToolError(message, 'tools');
  }
  return descriptorsOfRecord(tools, (tool, key) => toolLikeDescriptor(tool as TTool, reader, key));
}

/**
 * The descriptors with those whose ids are in `pinned` marked as pinned (offered at every step), for a
 * host option that pins tools by id.
 *
 * @throws InvalidOptionError naming `option` when `pinned` names ids that are not among the tools.
 */
export function markPinned<TTool>(
  descriptors: readonly ToolDescriptor<TTool>[],
  pinned: readonly string[],
  option = 'pinned',
): ToolDescriptor<TTool>[] {
  const ids = new Set(pinned);
  const unknown = pinned.filter((id) => !descriptors.some((descriptor) => descriptor.id === id));
  if (unknown.length > 0) {
    throw new InvalidOptionError(option, `${option} names tools that are not in tools: ${unknown.join(', ')}.`);
  }
  return descriptors.map((descriptor) => (ids.has(descriptor.id) ? { ...descriptor, pinned: true } : descriptor));
}
