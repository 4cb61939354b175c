import type { JsonSchema, SchemaLike, ToolDescriptor, ToolExecutionContext } from '@toolscout/core';
import { InvalidToolError } from '@toolscout/core/errors';
import { isRecord, isStandardSchema } from '@toolscout/core/internal';
import { asSchema, type FlexibleSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import { callOptionsFor } from './tool-call-options.js';

/** Descriptor fields to set beside what an AI SDK tool declares (e.g. `pinned`, `tags`). */
export type ToolDescriptorExtras = Omit<ToolDescriptor<Tool>, 'id' | 'inputSchema' | 'execute' | 'tool'>;

const TOOL_SEARCH_MARKER = Symbol.for('vercel.ai.toolSearch');

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A provider-defined tool (`type: 'provider'`): the provider declares it, and may run it. */
export function isProviderTool(tool: Tool): boolean {
  return tool.type === 'provider';
}

/** The AI SDK's own `toolSearch()` tool. */
export function isToolSearchTool(tool: Tool): boolean {
  return (tool as unknown as Record<symbol, unknown>)[TOOL_SEARCH_MARKER] === true;
}

/** Whether a value looks like an AI SDK tool (what `tool()` and `dynamicTool()` return). */
export function isAISDKTool(value: unknown): value is Tool {
  return (
    isRecord(value) && 'inputSchema' in value && (value.execute === undefined || typeof value.execute === 'function')
  );
}

function hasJsonSchemaConverter(schema: unknown): boolean {
  if (!isStandardSchema(schema)) return false;
  const standard = schema['~standard'] as { jsonSchema?: { input?: unknown } };
  return (
    typeof standard.jsonSchema?.input === 'function' ||
    typeof (schema as { toJSONSchema?: unknown }).toJSONSchema === 'function'
  );
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return isRecord(value) && typeof value.then === 'function';
}

/** The issues of a failed AI SDK validation: the library's own issues when it kept them (zod). */
function issuesOf(error: unknown): { message: string; path?: PropertyKey[] }[] {
  const cause = isRecord(error) ? error.cause : undefined;
  const source =
    isRecord(error) && Array.isArray(error.issues)
      ? error
      : isRecord(cause) && Array.isArray(cause.issues)
        ? cause
        : undefined;
  if (source) {
    return (source.issues as unknown[]).map((issue) => {
      const record = isRecord(issue) ? issue : {};
      return {
        message: typeof record.message === 'string' ? record.message : String(issue),
        path: Array.isArray(record.path) ? (record.path as PropertyKey[]) : undefined,
      };
    });
  }
  return [{ message: cause instanceof Error ? cause.message : errorMessage(error) }];
}

/**
 * The input schema as core takes it: a Standard JSON Schema (zod 4, valibot, arktype) as it is;
 * an AI SDK schema (`jsonSchema()`, `zodSchema()`, zod 3) as its JSON Schema, wrapped in a Standard
 * Schema when it validates, so core validates with the tool's own rules.
 */
function descriptorSchema(name: string, schema: FlexibleSchema<unknown> | undefined): SchemaLike | undefined {
  if (schema == null) return undefined;
  if (hasJsonSchemaConverter(schema)) return schema as SchemaLike;
  let resolved: ReturnType<typeof asSchema<unknown>>;
  let json: unknown;
  try {
    resolved = asSchema(schema);
    json = resolved.jsonSchema;
  } catch (error) {
    throw new InvalidToolError(
      `Tool "${name}": its inputSchema cannot be read: ${errorMessage(error)}`,
      'inputSchema',
      {
        cause: error,
      },
    );
  }
  if (isPromiseLike(json)) {
    throw new InvalidToolError(
      `Tool "${name}": its inputSchema resolves asynchronously, but toolscout indexes tools up front. Await the JSON Schema and pass jsonSchema(resolvedSchema).`,
      'inputSchema',
    );
  }
  if (!isRecord(json)) {
    throw new InvalidToolError(`Tool "${name}": its inputSchema is not a JSON Schema object.`, 'inputSchema');
  }
  const validate = resolved.validate;
  if (validate === undefined) return json as JsonSchema;
  const converter = { input: () => json as Record<string, unknown>, output: () => json as Record<string, unknown> };
  return {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      validate: async (value: unknown) => {
        const result = await validate(value);
        return result.success ? { value: result.value } : { issues: issuesOf(result.error) };
      },
      jsonSchema: converter,
    },
  } as SchemaLike;
}

function descriptionOf(name: string, tool: Tool): string | undefined {
  const description = tool.description;
  if (typeof description !== 'function') return description;
  try {
    return description({ context: {} });
  } catch (error) {
    throw new InvalidToolError(
      `Tool "${name}": its description is a function that failed without a tool context (${errorMessage(error)}); toolscout indexes descriptions up front. Give a string, or a function that works with an empty context.`,
      'description',
      { cause: error },
    );
  }
}

/** Runs an AI SDK tool for core, with the AI SDK options of the call when it came from a generation. */
function runAISDKTool(
  tool: Tool,
  execute: NonNullable<Tool['execute']>,
  input: unknown,
  context: ToolExecutionContext,
) {
  const options: ToolExecutionOptions<unknown> = callOptionsFor(context.abortSignal) ?? {
    toolCallId: `toolscout-${context.toolId}`,
    messages: [],
    context: undefined,
  };
  return execute.call(tool, input, { ...options, abortSignal: context.abortSignal ?? options.abortSignal });
}

/**
 * Converts one AI SDK tool (made with `tool()` or `dynamicTool()`) into a toolscout descriptor:
 * the name is its id, its description and input schema are indexed, and `execute` runs the tool with
 * the AI SDK options of the call. The original tool is kept in `tool`.
 *
 * Throws `InvalidToolError` for a provider tool or the AI SDK's `toolSearch()` tool (neither can be
 * searched), and for an input schema or description that cannot be read up front.
 *
 * @example
 * ```ts
 * const descriptor = toToolDescriptor('getTime', getTime, { pinned: true, tags: ['time'] });
 * ```
 */
export function toToolDescriptor(name: string, tool: Tool, extras: ToolDescriptorExtras = {}): ToolDescriptor<Tool> {
  if (typeof name !== 'string' || name === '') {
    throw new InvalidToolError(`An AI SDK tool needs a non-empty name; got ${JSON.stringify(name)}.`, 'id');
  }
  if (!isAISDKTool(tool)) {
    throw new InvalidToolError(
      `Tool "${name}" is not an AI SDK tool (an object with an inputSchema, as tool() and dynamicTool() return).`,
    );
  }
  if (isProviderTool(tool)) {
    throw new InvalidToolError(
      `Tool "${name}" is a provider tool (${String((tool as { id?: unknown }).id)}): the provider defines it, so it cannot be searched or loaded. Pass it in the tools option to offer it at every step.`,
    );
  }
  if (isToolSearchTool(tool)) {
    throw new InvalidToolError(
      `Tool "${name}" is the AI SDK's toolSearch() tool. toolscout brings its own search; to rank deferred tools with toolscout, pass createSearchCallback() to toolSearch({ search }) instead.`,
    );
  }
  const execute = tool.execute;
  const descriptor: ToolDescriptor<Tool> = {
    id: name,
    description: descriptionOf(name, tool),
    inputSchema: descriptorSchema(name, tool.inputSchema),
    tool,
    ...extras,
  };
  if (typeof execute === 'function') {
    descriptor.execute = (input, context) => runAISDKTool(tool, execute, input, context);
  }
  return descriptor;
}

/** Converts a record of AI SDK tools (as `generateText` takes them) into descriptors; see {@link toToolDescriptor}. */
export function toToolDescriptors(tools: ToolSet): ToolDescriptor<Tool>[] {
  if (!isRecord(tools)) {
    throw new InvalidToolError(
      `Expected a record of AI SDK tools ({ name: tool(...) }); got ${tools === null ? 'null' : typeof tools}.`,
    );
  }
  return Object.entries(tools).map(([name, tool]) => toToolDescriptor(name, tool));
}
