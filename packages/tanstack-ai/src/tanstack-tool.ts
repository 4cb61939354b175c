import type { AnyTool, ToolExecutionContext as TanStackToolContext } from '@tanstack/ai';
import type { OfferedTool, SchemaLike, ToolDescriptor, ToolExecutionContext, ToolSearchStep } from '@toolscout/core';
import {
  carrySettings,
  descriptorsOfList,
  executeThroughStep,
  isRecord,
  type ToolLikeReader,
  toolLikeDescriptor,
} from '@toolscout/core/internal';

/** A TanStack AI tool as `chat({ tools })` takes it: `toolDefinition(...).server(...)` or a plain `Tool` object. */
export type TanStackTool = AnyTool;

/** Options of {@link fromTanStackTool}: fields of the descriptor (`id` defaults to the tool's `name`). */
export type FromTanStackToolOptions = Partial<
  Pick<ToolDescriptor, 'id' | 'tags' | 'source' | 'pinned' | 'aliases' | 'annotations' | 'metadata'>
>;

/** Whether a value is a TanStack AI tool (an object with a string `name`), not a core descriptor (which has an `id`). */
export function isTanStackTool(value: unknown): value is TanStackTool {
  return isRecord(value) && typeof value.name === 'string' && !('id' in value);
}

/**
 * Runs a TanStack tool for the session, with the context TanStack AI gave the call (the `host`);
 * outside `chat()` (a direct `session.execute`), with the request context and abort signal.
 */
function runTanStackTool(tool: TanStackTool, input: unknown, context: ToolExecutionContext): unknown {
  const fromChat = isRecord(context.host) && typeof context.host.emitCustomEvent === 'function';
  const tanstackContext = fromChat
    ? (context.host as TanStackToolContext<unknown>)
    : { context: context.context, abortSignal: context.abortSignal, emitCustomEvent() {} };
  return (tool.execute as (input: unknown, context: TanStackToolContext<unknown>) => unknown)(input, tanstackContext);
}

/** How core reads a TanStack tool: its name is its id, its input schema (zod 4, any Standard Schema, JSON Schema) as it is. */
const TANSTACK_TOOLS: ToolLikeReader<TanStackTool> = {
  noun: 'TanStack AI tool',
  isTool: isTanStackTool,
  kind: 'a TanStack AI tool (toolDefinition(...).server(...) or { name, description, inputSchema, execute })',
  idHint: 'Give it a name.',
  readSchema: (tool) => tool.inputSchema as SchemaLike | undefined,
  run: runTanStackTool,
};

/**
 * A core {@link ToolDescriptor} of a TanStack AI tool (kept in `tool`): its `name` as id, its input
 * schema kept for validation (a Standard Schema such as zod 4 validates as itself), and an `execute`
 * that runs the tool with the context TanStack AI gives the call.
 */
export function fromTanStackTool(
  tool: TanStackTool,
  options: FromTanStackToolOptions = {},
): ToolDescriptor<TanStackTool> {
  const name = isRecord(tool) && typeof tool.name === 'string' ? tool.name : undefined;
  const label = name === undefined ? 'The TanStack AI tool' : `TanStack AI tool "${name}"`;
  const descriptor = toolLikeDescriptor(tool, TANSTACK_TOOLS, name, label);
  return { ...descriptor, ...options, id: options.id ?? descriptor.id };
}

/** Converts several TanStack AI tools ({@link fromTanStackTool}); core descriptors in the list pass through. */
export function fromTanStackTools(
  tools: Iterable<TanStackTool | ToolDescriptor>,
  options: Pick<FromTanStackToolOptions, 'source' | 'tags'> = {},
): ToolDescriptor<TanStackTool>[] {
  return descriptorsOfList(tools, 'TanStack AI tool', isTanStackTool, (tool) => fromTanStackTool(tool, options));
}

/** The tools {@link toTanStackTool} made, so a later step tells the session's tools from the agent's own. */
const offeredBySession = new WeakSet<object>();

/** Whether a tool of a `chat()` config is one the session offered (not one of the agent's own tools). */
export function isOfferedBySession(tool: unknown): boolean {
  return isRecord(tool) && offeredBySession.has(tool);
}

/**
 * The TanStack AI tool of one of a step's tools: its provider-safe `name`, description and JSON
 * Schema as offered, and an `execute` that runs each call through the step (policy, validation, the
 * tool itself). A refused or failed call throws a `ToolCallFailedError`, which TanStack AI gives the
 * model as the call's error. A TanStack tool's `needsApproval` is kept: TanStack AI asks before the call runs.
 */
export function toTanStackTool<TTool>(offered: OfferedTool<TTool>, step: ToolSearchStep<TTool>): TanStackTool {
  const tool: TanStackTool = {
    name: offered.name,
    description: offered.description,
    inputSchema: offered.inputSchema,
    execute: executeThroughStep(step, offered.name),
  };
  carrySettings(offered.tool?.tool, tool, ['needsApproval']);
  offeredBySession.add(tool);
  return tool;
}
