import type { SchemaLike, ToolCatalog, ToolDescriptor } from '@toolscout/core';
import { InvalidToolError } from '@toolscout/core/errors';
import {
  describeValue,
  isRecord,
  isToolRecord,
  producesJsonSchema,
  toolsOption,
  upFrontDescription,
  validatorSchema,
} from '@toolscout/core/internal';
import { asSchema, type FlexibleSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';

/** Descriptor fields to set beside what an AI SDK tool declares (e.g. `pinned`, `tags`). */
export type ToolDescriptorExtras = Omit<ToolDescriptor<Tool>, 'id' | 'inputSchema' | 'execute' | 'tool'>;

/** The searchable tools: AI SDK tools by name, toolscout descriptors, or a catalog to follow as it changes. */
export type ToolSearchCatalog = ToolSet | Iterable<ToolDescriptor<Tool>> | ToolCatalog<Tool>;

const TOOL_SEARCH_MARKER = Symbol.for('vercel.ai.toolSearch');

/** Whether a value looks like an AI SDK tool (what `tool()` and `dynamicTool()` return). */
export function isAISDKTool(value: unknown): value is Tool {
  return (
    isRecord(value) && 'inputSchema' in value && (value.execute === undefined || typeof value.execute === 'function')
  );
}

/** A provider-defined tool (`type: 'provider'`): the provider declares it, and may run it. */
function isProviderTool(value: unknown): value is Tool {
  return isAISDKTool(value) && value.type === 'provider';
}

/** A Standard JSON Schema (zod 4, valibot) as it is; an AI SDK schema (`jsonSchema()`, zod 3) via core's `validatorSchema`. */
function descriptorSchema(name: string, schema: FlexibleSchema<unknown> | undefined): SchemaLike | undefined {
  if (schema == null || producesJsonSchema(schema)) return schema as SchemaLike | undefined;
  return validatorSchema(name, () => asSchema(schema), 'ai-sdk');
}

/** The AI SDK options of a call that came from a generation (`step.execute(..., { host })`). */
function isCallOptions(host: unknown): host is ToolExecutionOptions<unknown> {
  return isRecord(host) && typeof host.toolCallId === 'string' && Array.isArray(host.messages);
}

/** Why a value cannot be a searchable AI SDK tool, if it cannot. */
function unsearchable(name: string, tool: Tool): string | undefined {
  if (!isAISDKTool(tool)) {
    return `Tool "${name}" is not an AI SDK tool (an object with an inputSchema, as tool() and dynamicTool() return).`;
  }
  if (isProviderTool(tool)) {
    return `Tool "${name}" is a provider tool (${String((tool as { id?: unknown }).id)}): the provider defines it, so it cannot be searched or loaded. Pass it in the tools option to offer it at every step.`;
  }
  if ((tool as unknown as Record<symbol, unknown>)[TOOL_SEARCH_MARKER] === true) {
    return `Tool "${name}" is the AI SDK's toolSearch() tool. toolscout brings its own search; to rank deferred tools with toolscout, pass createSearchCallback() to toolSearch({ search }) instead.`;
  }
  return undefined;
}

/**
 * One AI SDK tool (`tool()`, `dynamicTool()`) as a toolscout descriptor whose id is `name`;
 * an `InvalidToolError` for a tool that cannot be searched (a provider tool, `toolSearch()`).
 */
export function fromAISDKTool(name: string, tool: Tool, extras: ToolDescriptorExtras = {}): ToolDescriptor<Tool> {
  if (typeof name !== 'string' || name === '') {
    throw new InvalidToolError(`An AI SDK tool needs a non-empty name; got ${JSON.stringify(name)}.`, 'id');
  }
  const problem = unsearchable(name, tool);
  if (problem !== undefined) throw new InvalidToolError(problem);
  const execute = tool.execute;
  const descriptor: ToolDescriptor<Tool> = {
    id: name,
    description: upFrontDescription(name, tool.description, { context: {} }),
    inputSchema: descriptorSchema(name, tool.inputSchema),
    tool,
    ...extras,
  };
  if (typeof execute === 'function') {
    descriptor.execute = (input, { host, toolId, abortSignal }) => {
      const options = isCallOptions(host)
        ? host
        : { toolCallId: `toolscout-${toolId}`, messages: [], context: undefined };
      return execute.call(tool, input, { ...options, abortSignal: abortSignal ?? options.abortSignal });
    };
  }
  return descriptor;
}

/** Converts a record of AI SDK tools (as `generateText` takes them) into descriptors; see {@link fromAISDKTool}. */
export function fromAISDKTools(tools: ToolSet): ToolDescriptor<Tool>[] {
  if (!isRecord(tools)) {
    throw new InvalidToolError(`Expected a record of AI SDK tools ({ name: tool(...) }); got ${describeValue(tools)}.`);
  }
  return Object.entries(tools).map(([name, tool]) => fromAISDKTool(name, tool));
}

/** The tools of an option as a session takes them (core's `toolsOption`), AI SDK tools converted. */
export function descriptorsOf(tools: unknown, option: string): ToolCatalog<Tool> | Iterable<ToolDescriptor<Tool>> {
  return toolsOption(tools, {
    option,
    expected: 'a record of AI SDK tools, an iterable of tool descriptors or a ToolCatalog',
    convert: (record) => fromAISDKTools(record as ToolSet),
    absent: `Give the tools as { ${option}: tools } (earlier versions of createToolSearch took them as the first argument).`,
  });
}

/** The `tools` option: provider tools by name (passed through as they are), and the rest as descriptors. */
export function directToolsOf(tools: unknown): { descriptors: ToolDescriptor<Tool>[]; provider: Map<string, Tool> } {
  const entries = isToolRecord(tools) ? Object.entries(tools as ToolSet) : [];
  const provider = new Map(entries.filter(([, tool]) => isProviderTool(tool)));
  const rest = provider.size > 0 ? Object.fromEntries(entries.filter(([name]) => !provider.has(name))) : tools;
  return { descriptors: rest === undefined ? [] : [...descriptorsOf(rest, 'tools')], provider };
}
