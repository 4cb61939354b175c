import { type JsonSchema, type SchemaLike, ToolCatalog, type ToolDescriptor } from '@toolscout/core';
import { InvalidOptionError, InvalidToolError } from '@toolscout/core/errors';
import { describeValue, failureReason, isRecord, producesJsonSchema } from '@toolscout/core/internal';
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

/** A record of tools by name (`ToolSet`), as opposed to an iterable of descriptors or a catalog. */
function isToolSet(value: unknown): value is ToolSet {
  return isRecord(value) && !(Symbol.iterator in value);
}

/** The issues of a failed AI SDK validation: the library's own issues when it kept them (zod). */
function issuesOf(error: unknown): { message: string; path?: PropertyKey[] }[] {
  const cause = isRecord(error) ? error.cause : undefined;
  const source = [error, cause].find((value) => isRecord(value) && Array.isArray(value.issues));
  if (!isRecord(source)) return [{ message: failureReason(cause instanceof Error ? cause : error) }];
  return (source.issues as unknown[]).map((issue) => {
    const record = isRecord(issue) ? issue : {};
    return {
      message: typeof record.message === 'string' ? record.message : String(issue),
      path: Array.isArray(record.path) ? (record.path as PropertyKey[]) : undefined,
    };
  });
}

/** An AI SDK schema and its JSON Schema, read up front (toolscout indexes tools before any generation). */
function readSchema(name: string, schema: FlexibleSchema<unknown>) {
  let resolved: ReturnType<typeof asSchema<unknown>>;
  let json: unknown;
  try {
    resolved = asSchema(schema);
    json = resolved.jsonSchema;
  } catch (error) {
    const message = `Tool "${name}": its inputSchema cannot be read: ${failureReason(error)}`;
    throw new InvalidToolError(message, 'inputSchema', { cause: error });
  }
  if (isRecord(json) && typeof json.then === 'function') {
    throw new InvalidToolError(
      `Tool "${name}": its inputSchema resolves asynchronously, but toolscout indexes tools up front. Await the JSON Schema and pass jsonSchema(resolvedSchema).`,
      'inputSchema',
    );
  }
  if (!isRecord(json)) {
    throw new InvalidToolError(`Tool "${name}": its inputSchema is not a JSON Schema object.`, 'inputSchema');
  }
  return { json: json as JsonSchema, validate: resolved.validate };
}

/**
 * The input schema as core takes it: a Standard JSON Schema (zod 4, valibot, arktype) as it is;
 * an AI SDK schema (`jsonSchema()`, `zodSchema()`, zod 3) as its JSON Schema, wrapped in a Standard
 * Schema when it validates, so core validates with the tool's own rules.
 */
function descriptorSchema(name: string, schema: FlexibleSchema<unknown> | undefined): SchemaLike | undefined {
  if (schema == null) return undefined;
  if (producesJsonSchema(schema)) return schema as SchemaLike;
  const { json, validate } = readSchema(name, schema);
  if (validate === undefined) return json;
  return {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      validate: async (value: unknown) => {
        const result = await validate(value);
        return result.success ? { value: result.value } : { issues: issuesOf(result.error) };
      },
      jsonSchema: { input: () => json, output: () => json },
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
      `Tool "${name}": its description is a function that failed without a tool context (${failureReason(error)}); toolscout indexes descriptions up front. Give a string, or a function that works with an empty context.`,
      'description',
      { cause: error },
    );
  }
}

/** The AI SDK options of a call that came from a generation (`step.execute(..., { host })`). */
function isCallOptions(host: unknown): host is ToolExecutionOptions<unknown> {
  return isRecord(host) && typeof host.toolCallId === 'string' && Array.isArray(host.messages);
}

function checkConvertible(name: string, tool: Tool): void {
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
  if ((tool as unknown as Record<symbol, unknown>)[TOOL_SEARCH_MARKER] === true) {
    throw new InvalidToolError(
      `Tool "${name}" is the AI SDK's toolSearch() tool. toolscout brings its own search; to rank deferred tools with toolscout, pass createSearchCallback() to toolSearch({ search }) instead.`,
    );
  }
}

/**
 * Converts one AI SDK tool (made with `tool()` or `dynamicTool()`) into a toolscout descriptor:
 * the name is its id, its description and input schema are indexed, and `execute` runs the tool with
 * the AI SDK options of the call (outside a generation: a call id of its own, no messages). The
 * original tool is kept in `tool`.
 *
 * Throws `InvalidToolError` for a provider tool or the AI SDK's `toolSearch()` tool (neither can be
 * searched), and for an input schema or description that cannot be read up front.
 *
 * @example
 * ```ts
 * const descriptor = fromAISDKTool('getTime', getTime, { pinned: true, tags: ['time'] });
 * ```
 */
export function fromAISDKTool(name: string, tool: Tool, extras: ToolDescriptorExtras = {}): ToolDescriptor<Tool> {
  checkConvertible(name, tool);
  const execute = tool.execute;
  const descriptor: ToolDescriptor<Tool> = {
    id: name,
    description: descriptionOf(name, tool),
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

/**
 * The tools of an option as a session takes them: a catalog as it is (the session follows it),
 * descriptors as they are, AI SDK tools converted. Anything else is an `InvalidOptionError` naming
 * the option.
 */
export function descriptorsOf(tools: unknown, option: string): ToolCatalog<Tool> | Iterable<ToolDescriptor<Tool>> {
  if (tools instanceof ToolCatalog) return tools;
  if (isToolSet(tools)) return fromAISDKTools(tools);
  if (isRecord(tools) || Array.isArray(tools)) return tools as Iterable<ToolDescriptor<Tool>>;
  throw new InvalidOptionError(
    option,
    `${option} must be a record of AI SDK tools, an iterable of tool descriptors or a ToolCatalog; got ${describeValue(tools)}.${tools === undefined ? ` Give the tools as { ${option}: tools } (earlier versions of createToolSearch took them as the first argument).` : ''}`,
  );
}

/**
 * The direct tools of the `tools` option: provider tools by name, which pass through as they are
 * (the provider defines and runs them), and the rest as the session takes them.
 */
export function directToolsOf(tools: unknown): { descriptors: ToolDescriptor<Tool>[]; provider: Map<string, Tool> } {
  if (tools === undefined) return { descriptors: [], provider: new Map() };
  if (!isToolSet(tools)) return { descriptors: [...descriptorsOf(tools, 'tools')], provider: new Map() };
  const entries = Object.entries(tools);
  const provider = new Map(entries.filter(([, tool]) => isProviderTool(tool)));
  const rest = Object.fromEntries(entries.filter(([name]) => !provider.has(name)));
  return { descriptors: fromAISDKTools(rest), provider };
}
