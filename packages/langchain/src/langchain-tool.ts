import type { StructuredToolInterface } from '@langchain/core/tools';
import { type ClientTool, DynamicStructuredTool, isRunnableToolLike, isStructuredTool } from '@langchain/core/tools';
import { toJsonSchema as toLangChainJsonSchema } from '@langchain/core/utils/json_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';
import type { CatalogTool, ToolDescriptor } from '@toolscout/core';
import { InvalidToolError } from '@toolscout/core/errors';
import {
  catalogToolOf,
  type DeclaredTool,
  declaredToolDescriptor,
  describeValue,
  executeOutsideSession,
  isIterable,
  requestId,
} from '@toolscout/core/internal';

/**
 * A LangChain tool as agents and chat models take it: `tool(...)`, a `DynamicStructuredTool`, a
 * `StructuredTool` subclass, a `DynamicTool`, or a `RunnableToolLike` (`runnable.asTool(...)`).
 */
export type LangChainTool = ClientTool;

/**
 * What tool search accepts where it takes LangChain tools: any tool object LangChain runs (checked at
 * runtime with {@link isLangChainTool}). Wider than {@link LangChainTool}, whose generics reject some
 * tools, e.g. a `DynamicStructuredTool` built with a JSON Schema literal.
 */
export interface LangChainToolLike {
  /** The name the model calls the tool by. */
  readonly name: string;
  /** Runs the tool (LangChain's `Runnable.invoke`). */
  invoke(input: never, config?: never): Promise<unknown>;
}

/**
 * Options of {@link fromLangChainTool}: fields of the descriptor, as core documents them (`id`
 * defaults to the tool's `name`; `tags` and `source` are searchable; `pinned` tools are always offered).
 */
export type FromLangChainToolOptions = Partial<
  Pick<ToolDescriptor, 'id' | 'tags' | 'source' | 'pinned' | 'annotations' | 'metadata'>
>;

/**
 * Options of {@link toLangChainTool}: the `name` the model sees (default: the catalog tool's
 * provider-safe `toolName`) and the `description` (default: the descriptor's).
 */
export type ToLangChainToolOptions = Pick<ToolDescriptor, 'name' | 'description'>;

/** The thread id of a LangChain run config (`configurable.thread_id`: a non-empty string or a number), if any. */
export function threadIdOf(config: unknown): string | undefined {
  return requestId((config as { configurable?: { thread_id?: unknown } } | undefined)?.configurable?.thread_id);
}

/** Whether a value is a LangChain tool object (not a core descriptor, not a provider's server tool). */
export function isLangChainTool(value: unknown): value is LangChainTool {
  const record = value as { name?: unknown; invoke?: unknown } | null | undefined;
  if (typeof record !== 'object' || typeof record?.name !== 'string' || typeof record.invoke !== 'function')
    return false;
  return isRunnableToolLike(value) || isStructuredTool(value as StructuredToolInterface);
}

/**
 * Converts a LangChain tool into a core {@link ToolDescriptor} (the tool itself kept in `tool`), so
 * it can go in a toolscout catalog.
 *
 * When the descriptor runs inside the toolscout middleware or tool node, the tool is run by the
 * host (LangChain's tool handler, with its `ToolRuntime`: state, context, tool call id) after core has
 * checked the call; elsewhere `execute` calls `tool.invoke(input)`.
 *
 * @example
 * ```ts
 * const weather = tool(({ city }) => `Sunny in ${city}`, {
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   schema: z.object({ city: z.string() }),
 * });
 * const descriptor = fromLangChainTool(weather, { tags: ['weather'] });
 * ```
 */
export function fromLangChainTool(
  tool: LangChainToolLike,
  options: FromLangChainToolOptions = {},
): ToolDescriptor<LangChainTool> {
  if (!isLangChainTool(tool)) {
    throw new InvalidToolError(
      `fromLangChainTool expects a LangChain tool (tool(), DynamicStructuredTool, StructuredTool, DynamicTool or RunnableToolLike), got ${describeValue(tool)}`,
    );
  }
  const invoke = tool.invoke.bind(tool) as (input: unknown, config?: Record<string, unknown>) => Promise<unknown>;
  const like: DeclaredTool<LangChainTool> = {
    tool,
    kind: 'LangChain tool',
    name: tool.name,
    description: (tool as { description?: unknown }).description,
    schema: (tool as { schema?: unknown }).schema,
    // zod 3, and zod 4 before Standard JSON Schema (4.2), through LangChain's own conversion.
    convertSchema: (schema) => (isInteropZodSchema(schema) ? toLangChainJsonSchema(schema) : undefined),
    execute: (input, { abortSignal, threadId, context }) =>
      invoke(input, {
        signal: abortSignal,
        configurable: threadId === undefined ? {} : { thread_id: threadId },
        context,
      }),
  };
  return declaredToolDescriptor(like, options);
}

/**
 * Converts several LangChain tools (see {@link fromLangChainTool}); core descriptors in the list are
 * passed through, so a catalog can mix both.
 */
export function fromLangChainTools(
  tools: Iterable<LangChainToolLike | ToolDescriptor>,
  options: Pick<FromLangChainToolOptions, 'source' | 'tags'> = {},
): ToolDescriptor[] {
  if (!isIterable(tools)) {
    throw new InvalidToolError(
      `Expected an iterable of LangChain tools or tool descriptors, got ${describeValue(tools)}`,
    );
  }
  return [...tools].map((tool) =>
    isLangChainTool(tool) ? fromLangChainTool(tool, options) : (tool as ToolDescriptor),
  );
}

/**
 * Converts a core descriptor (or a catalog tool) into a LangChain tool for `bindTools`, `createAgent`
 * or a `ToolNode`. A descriptor that came from {@link fromLangChainTool} gives back its original
 * tool when the name and description are unchanged. Otherwise the result is a
 * `DynamicStructuredTool` whose input schema is the descriptor's zod schema (validated by LangChain)
 * or its JSON Schema, and which runs the descriptor's `execute` with the thread id, context and abort
 * signal of the run.
 *
 * Throws `InvalidToolError` for an unusable descriptor (as a catalog would).
 */
export function toLangChainTool(
  tool: ToolDescriptor | CatalogTool,
  options: ToLangChainToolOptions = {},
): LangChainTool {
  const entry = catalogToolOf(tool);
  const name = options.name ?? entry.toolName;
  const original = entry.tool;
  if (isLangChainTool(original) && original.name === name && options.description === undefined) return original;
  const zodSchema = isInteropZodSchema(entry.inputSchema) ? entry.inputSchema : undefined;
  return new DynamicStructuredTool({
    name,
    description: options.description ?? entry.description ?? '',
    // A private copy: the catalog's schema is frozen, and LangChain's validator annotates schemas.
    schema: zodSchema ?? structuredClone(entry.jsonSchema),
    func: (input: unknown, _runManager?: unknown, config?: { context?: unknown; signal?: AbortSignal }) =>
      executeOutsideSession(entry, input, {
        threadId: threadIdOf(config),
        context: config?.context,
        abortSignal: config?.signal,
      }),
  });
}
