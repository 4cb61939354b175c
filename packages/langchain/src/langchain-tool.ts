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
  descriptorsOfList,
  executeOutsideSession,
  requestId,
} from '@toolscout/core/internal';

/** A LangChain tool as agents and chat models take it (`tool()`, `DynamicStructuredTool`, `RunnableToolLike`, ...). */
export type LangChainTool = ClientTool;

/** Any tool object LangChain runs (see {@link isLangChainTool}); wider than {@link LangChainTool}'s generics. */
export interface LangChainToolLike {
  /** The name the model calls the tool by. */
  readonly name: string;
  /** Runs the tool (LangChain's `Runnable.invoke`). */
  invoke(input: never, config?: never): Promise<unknown>;
}

/** Options of {@link fromLangChainTool}: fields of the descriptor (`id` defaults to the tool's `name`). */
export type FromLangChainToolOptions = Partial<
  Pick<ToolDescriptor, 'id' | 'tags' | 'source' | 'pinned' | 'annotations' | 'metadata'>
>;

/** Options of {@link toLangChainTool}: the `name` (default: the provider-safe `toolName`) and `description`. */
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
 * A core {@link ToolDescriptor} of a LangChain tool (kept in `tool`); in the middleware or tool node
 * LangChain runs it with its `ToolRuntime` once core has checked the call, elsewhere `tool.invoke`.
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

/** Converts several LangChain tools ({@link fromLangChainTool}); core descriptors in the list pass through. */
export function fromLangChainTools(
  tools: Iterable<LangChainToolLike | ToolDescriptor>,
  options: Pick<FromLangChainToolOptions, 'source' | 'tags'> = {},
): ToolDescriptor[] {
  return descriptorsOfList(tools, 'LangChain tool', isLangChainTool, (tool) => fromLangChainTool(tool, options));
}

/**
 * A LangChain tool of a core descriptor or catalog tool: the original one of a converted tool (name and
 * description unchanged), else a `DynamicStructuredTool` running `execute`; `InvalidToolError` if unusable.
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
