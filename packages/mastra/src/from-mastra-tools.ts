import { toStandardSchema } from '@mastra/core/schema';
import type { SchemaLike, ToolAnnotations, ToolDescriptor, ToolExecutionContext } from '@toolscout/core';
import {
  descriptorsOfToolInput,
  isIterable,
  isRecord,
  type ToolLikeReader,
  toolLikeDescriptor,
  valueAt,
  withKeyAliases,
} from '@toolscout/core/internal';

/**
 * A tool as Mastra agents take it: a `createTool(...)` tool, a tool an `MCPClient` from `@mastra/mcp` returns
 * (`listTools()`, `listToolsets()`), or an AI SDK tool (`tool(...)`).
 */
export interface MastraTool {
  /** The tool's id: what the model sees and loads. A tool given in a record without one takes its key. */
  id?: string;
  /** What the tool does; searched, and shown to the model. (AI SDK descriptions computed per call are not searchable.) */
  description?: string | ((...args: never[]) => unknown);
  /** Its input: zod (3 or 4), JSON Schema, an AI SDK schema, or any Standard Schema. */
  inputSchema?: unknown;
  /** The input of AI SDK 4 tools (`parameters`), read when there is no `inputSchema`. */
  parameters?: unknown;
  /** Runs the tool: `(input, context)`. */
  execute?: (...args: never[]) => unknown;
}

/**
 * The searchable tools, in either of two forms:
 * - a record of Mastra tools by name, as Mastra's own `ToolSearchProcessor` takes them (a tool without an `id` is known
 *   by its key);
 * - a list of Mastra tools (each with an `id`) and toolscout `ToolDescriptor`s. A descriptor without `execute` whose
 *   `tool` is a Mastra tool runs through that tool, so a descriptor can add `tags`, `source` or `pinned` to a Mastra
 *   tool.
 */
export type MastraToolInput = Readonly<Record<string, MastraTool>> | Iterable<MastraTool | ToolDescriptor<MastraTool>>;

/** Mastra marks its `Tool` instances with this symbol (it survives duplicated module instances). */
const MASTRA_TOOL_MARKER = Symbol.for('mastra.core.tool.Tool');

/** Whether a value is a Mastra `Tool` instance (`createTool`, MCP tools). */
export function isMastraToolInstance(value: unknown): boolean {
  return isRecord(value) && (value as Record<symbol, unknown>)[MASTRA_TOOL_MARKER] === true;
}

/**
 * Runs a Mastra (or AI SDK) tool for the session, with the context Mastra gave the call (its `host`); outside an agent
 * call (a direct `step.execute`), with the request context and abort signal.
 */
async function runFrameworkTool(tool: MastraTool, input: unknown, context: ToolExecutionContext): Promise<unknown> {
  const execute = tool.execute as unknown as (input: unknown, context: unknown) => unknown;
  // What Mastra gave the call (requestContext, abortSignal, writer, agent: { toolCallId, messages, suspend }, ...).
  const mastraContext: Record<string, unknown> = isRecord(context.host)
    ? context.host
    : { requestContext: context.context, abortSignal: context.abortSignal };
  if (isMastraToolInstance(tool)) return execute.call(tool, input, mastraContext);
  // AI SDK tools read `{ toolCallId, messages, abortSignal }`; Mastra's own fields ride along.
  const agent = isRecord(mastraContext.agent) ? mastraContext.agent : {};
  return execute.call(tool, input, {
    ...mastraContext,
    toolCallId: typeof agent.toolCallId === 'string' ? agent.toolCallId : '',
    messages: Array.isArray(agent.messages) ? agent.messages : [],
    abortSignal: mastraContext.abortSignal ?? context.abortSignal,
    experimental_context: mastraContext.requestContext,
  });
}

/** How core reads a Mastra tool: schemas through Mastra's own `toStandardSchema`, MCP server and annotations. */
const MASTRA_TOOLS: ToolLikeReader<MastraTool> = {
  noun: 'Mastra tool',
  isTool: isMastraToolInstance,
  kind: 'a tool (createTool(...), an MCP tool or an AI SDK tool)',
  idHint:
    'Give it one (createTool({ id, ... })), or pass the tools as a record: a tool without an id is known by its key.',
  readSchema(tool) {
    const schema = tool.inputSchema ?? tool.parameters;
    if (schema === undefined) return undefined;
    return toStandardSchema(schema as Parameters<typeof toStandardSchema>[0]) as unknown as SchemaLike;
  },
  run: runFrameworkTool,
  extras(tool) {
    const server = valueAt(tool, 'mcpMetadata.serverName');
    const annotations = valueAt(tool, 'mcp.annotations');
    return {
      source: typeof server === 'string' && server !== '' ? server : undefined,
      annotations: isRecord(annotations) ? (annotations as ToolAnnotations) : undefined,
    };
  },
};

/**
 * Converts one Mastra (or AI SDK) tool into a toolscout descriptor (`tool` keeps the original, and `execute` runs it
 * with the context Mastra gives the call). Its id is the tool's own, else `key` (the tool's key in a record of tools);
 * its MCP server, when it has one, is its `source`. `label` is how error messages name the tool.
 *
 * @throws InvalidToolError for a value that is not a tool, a tool without an id (and no `key`), a description computed
 * per call, or a schema that cannot be read.
 */
export function fromMastraTool(tool: MastraTool, key?: string, label?: string): ToolDescriptor<MastraTool> {
  return toolLikeDescriptor(tool, MASTRA_TOOLS, key, label);
}

/**
 * Converts the tools given to the processor into toolscout descriptors (`tool` keeps the original Mastra tool). Ids are
 * the tools' own ids, or their record keys when they have none; a record key that differs from the id is an alias. Two tools with one id are rejected: loading one of them
 * must never load the other. A descriptor given in a list is kept as it is; without an `execute`, it runs through its
 * `tool` when that is a Mastra tool.
 *
 * @throws DuplicateToolError when two tools of a record share an id; InvalidToolError for a value that is not a tool,
 * or a listed tool without an id.
 */
export function fromMastraTools(tools: MastraToolInput): ToolDescriptor<MastraTool>[] {
  const descriptors = descriptorsOfToolInput(tools, MASTRA_TOOLS);
  if (isIterable(tools)) return descriptors;
  return withKeyAliases(Object.keys(tools).map((key, index) => [key, descriptors[index]!] as const));
}
