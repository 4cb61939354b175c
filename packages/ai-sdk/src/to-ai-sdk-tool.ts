import type { CatalogTool, JsonSchema, MetaToolDefinition } from '@toolscout/core';
import { isAsyncGeneratorFunction, lastValue, streamOf } from '@toolscout/core/internal';
import { dynamicTool, type JSONSchema7, jsonSchema, type Tool, type ToolExecutionOptions } from 'ai';
import { isAISDKTool } from './from-ai-sdk-tool.js';

/** Runs one call through the session's step; a refused or failed call throws for the model. */
export type RunCall = (name: string, input: unknown, options: ToolExecutionOptions<unknown>) => Promise<unknown>;

/** The input schema a tool was last offered with, by tool name (a deferred tool's is its resolved one). */
export type OfferedSchema = (toolName: string) => JsonSchema | undefined;

/**
 * A meta-tool of the session as an AI SDK tool whose calls go through `run`; the discovery tool of
 * `catalog` mode reads its per-step description from its tool context (`{ description }`).
 */
export function toAISDKMetaTool(meta: MetaToolDefinition, run: RunCall): Tool {
  return dynamicTool({
    description:
      meta.role === 'discover'
        ? ({ context }) => (context as { description?: string } | undefined)?.description ?? meta.description
        : meta.description,
    inputSchema: jsonSchema(meta.inputSchema as JSONSchema7),
    // `call_tool` (proxy mode) may run a streaming tool: the model gets its last value.
    execute: async (input, options) => lastValue(await run(meta.name, input, options)),
  });
}

/**
 * A catalog (or direct) tool as the AI SDK runs it: the original AI SDK tool (tool context,
 * `toModelOutput`, approval, streaming `execute`, ...) with the schema the session offers and an
 * `execute` through `run`; a descriptor without an AI SDK tool becomes a dynamic tool.
 */
export function toAISDKTool(tool: CatalogTool<Tool>, run: RunCall, offeredSchema: OfferedSchema): Tool {
  const original: Tool = isAISDKTool(tool.tool)
    ? tool.tool
    : dynamicTool({ description: tool.description } as Parameters<typeof dynamicTool>[0]);
  const { execute: originalExecute, inputSchema: _schema, deferLoading: _defer, ...rest } = original;
  // Read at every step (the record is made once): a deferred tool's schema is known once it is resolved.
  const inputSchema = () => jsonSchema(structuredClone(offeredSchema(tool.toolName) ?? tool.jsonSchema) as JSONSchema7);
  if (typeof tool.execute !== 'function' && tool.resolve === undefined) return { ...rest, inputSchema } as Tool;
  const execute = (input: unknown, options: ToolExecutionOptions<unknown>) => run(tool.toolName, input, options);
  const stream = (input: unknown, options: ToolExecutionOptions<unknown>) => streamOf(execute(input, options));
  return { ...rest, inputSchema, execute: isAsyncGeneratorFunction(originalExecute) ? stream : execute } as Tool;
}
