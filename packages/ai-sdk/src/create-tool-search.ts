import {
  type CatalogTool,
  type MetaToolDefinition,
  type StepRequest,
  type ToolCallError,
  ToolCatalog,
  type ToolDescriptor,
  ToolSearchSession,
  type ToolSearchSessionOptions,
  type ToolSearchStep,
} from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { describeValue, isRecord } from '@toolscout/core/internal';
import {
  dynamicTool,
  type JSONSchema7,
  jsonSchema,
  type ModelMessage,
  NoSuchToolError,
  type PrepareStepFunction,
  type PrepareStepResult,
  type Tool,
  type ToolCallRepairFunction,
  type ToolExecutionOptions,
  type ToolInputRefinement,
  type ToolSet,
} from 'ai';
import { conversationFromMessages } from './conversation-from-messages.js';
import { isAISDKTool, isProviderTool, toToolDescriptor, toToolDescriptors } from './to-tool-descriptor.js';
import { ToolCallFailedError } from './tool-call-failed-error.js';
import { bindCallOptions } from './tool-call-options.js';

/** The AI SDK's runtime context: a record of your own. */
type RuntimeContext = Record<string, unknown>;

/** Who a generation is for, as the session needs to know it. */
export interface GenerationRequest {
  /** The conversation thread: loaded tools are remembered per thread (and resource) by the stores. */
  threadId?: string;
  /** The user or tenant the thread belongs to; part of the state key. */
  resourceId?: string;
  /** What the policy (`filter`) receives as `context`, and what core-descriptor tools receive. */
  context?: unknown;
}

/** What {@link CreateToolSearchOptions.request} is given at each step. */
export interface GenerationRequestInfo {
  /** The runtime context of the generation (`generateText({ runtimeContext })`, or set by `prepareCall`). */
  runtimeContext: RuntimeContext;
  /** The messages the model is about to receive. */
  messages: ModelMessage[];
}

/** The searchable tools: AI SDK tools by name, toolscout descriptors, or a catalog to follow as it changes. */
export type ToolSearchCatalog = ToolSet | Iterable<ToolDescriptor<Tool>> | ToolCatalog<Tool>;

/** Options of {@link createToolSearch}: the session's options, plus how it meets the AI SDK. */
export interface CreateToolSearchOptions<DIRECT extends ToolSet = ToolSet>
  extends Omit<ToolSearchSessionOptions<Tool>, 'catalog' | 'tools'> {
  /**
   * Tools offered at every step beside the meta-tools, never searched: AI SDK tools by name (provider
   * tools included, which are passed through as they are) or descriptors. Put your always-on tools
   * here rather than beside the spread `tools`: a tool the session does not know is never active.
   */
  tools?: DIRECT | Iterable<ToolDescriptor<Tool>>;
  /**
   * Who a generation is for: its thread and resource (for the stores) and the policy's context.
   * Default: `threadId` and `resourceId` from the runtime context when they are strings, and the
   * runtime context as the policy's context. Without a thread id, loaded tools are derived from the
   * messages of the generation.
   */
  request?: (info: GenerationRequestInfo) => GenerationRequest | undefined;
  /**
   * Your own `prepareStep`. It runs first; its `messages` and `runtimeContext` are the ones the
   * session reads, its `activeTools` narrow what the session offers, and everything else it returns
   * is kept.
   */
  prepareStep?: PrepareStepFunction<ToolSet>;
  /**
   * Your own repair, for the calls toolscout leaves alone (input that is not valid JSON). Calls of
   * tools that are not offered at the step are always answered by the session.
   */
  repairToolCall?: ToolCallRepairFunction<ToolSet>;
  /** Your own input refinements by tool name (`experimental_refineToolInput`); they run after toolscout's. */
  refineToolInput?: ToolInputRefinement<ToolSet>;
  /** Called with each step the session prepared (e.g. for `session.measureStep(step)`). */
  onStep?: (step: ToolSearchStep<Tool>) => void | Promise<void>;
}

/**
 * What `generateText`, `streamText` and `new ToolLoopAgent` take, to spread into their options:
 * `tools` (every tool, plus the meta-tools), `prepareStep` (which sets `activeTools` and `toolOrder`
 * to what the session offers at the step), `repairToolCall` and `experimental_refineToolInput` (so a
 * call of a tool that is not offered reaches the model as the session's instructive error).
 * `session` and `dispose` are not enumerable: they stay out of the spread.
 *
 * @typeParam TOOLS - the AI SDK tools given (catalog and direct), so that `toolsContext` stays typed.
 */
export interface AISDKToolSearch<TOOLS extends ToolSet = ToolSet> {
  /**
   * Every tool the session may offer, by provider-safe tool name (a name that already is one is
   * kept). Rebuilt when the catalog has changed: spread again (or set `tools` in a `prepareCall`)
   * to pick up a hot-reloaded catalog.
   */
  readonly tools: TOOLS & ToolSet;
  /** Sets `activeTools` and `toolOrder` to the session's offer at each step. */
  readonly prepareStep: PrepareStepFunction<TOOLS & ToolSet>;
  /** Answers calls of tools that are not offered with the session's error (not loaded, unknown, ...). */
  readonly repairToolCall: ToolCallRepairFunction<TOOLS & ToolSet>;
  /** Delivers the errors `repairToolCall` prepared to the model, under the name it called. */
  readonly experimental_refineToolInput: ToolInputRefinement<TOOLS & ToolSet>;
  /** The session behind it all: telemetry (`subscribe`), state (`clearState`), `measureStep`, `search`. */
  readonly session: ToolSearchSession<Tool>;
  /** Releases the session (its index and in-memory store) and stops following the catalog. */
  dispose(): void;
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function'
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

function isAsyncGeneratorFunction(value: unknown): boolean {
  return typeof value === 'function' && Object.prototype.toString.call(value) === '[object AsyncGeneratorFunction]';
}

/** The last value of a streaming output (what the AI SDK sends the model for a streaming tool). */
async function lastValue(output: unknown): Promise<unknown> {
  if (!isAsyncIterable(output)) return output;
  let last: unknown;
  for await (const value of output) last = value;
  return last;
}

function catalogDescriptors(catalog: ToolSearchCatalog): ToolCatalog<Tool> | Iterable<ToolDescriptor<Tool>> {
  if (catalog instanceof ToolCatalog) return catalog;
  if (isIterable(catalog)) return catalog as Iterable<ToolDescriptor<Tool>>;
  if (isRecord(catalog)) return toToolDescriptors(catalog as ToolSet);
  throw new InvalidOptionError(
    'catalog',
    `The catalog must be a record of AI SDK tools, an iterable of tool descriptors or a ToolCatalog; got ${describeValue(catalog)}.`,
  );
}

function defaultRequest({ runtimeContext }: GenerationRequestInfo): GenerationRequest {
  const threadId = runtimeContext?.threadId;
  const resourceId = runtimeContext?.resourceId;
  return {
    threadId: typeof threadId === 'string' ? threadId : undefined,
    resourceId: typeof resourceId === 'string' ? resourceId : undefined,
    context: runtimeContext,
  };
}

function checkRequest(request: GenerationRequest | undefined): GenerationRequest {
  if (request === undefined) return {};
  if (!isRecord(request)) {
    throw new InvalidOptionError(
      'request',
      `request() must return an object or undefined; got ${describeValue(request)}.`,
    );
  }
  for (const field of ['threadId', 'resourceId'] as const) {
    if (request[field] !== undefined && typeof request[field] !== 'string') {
      throw new InvalidOptionError(
        'request',
        `request() returned a ${field} that is ${describeValue(request[field])}, not a string.`,
      );
    }
  }
  return request;
}

function parseInput(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return {};
  }
}

/** The context the discovery tool reads its per-step description from. */
interface DiscoveryContext {
  description: string;
}

/**
 * Tool search for the Vercel AI SDK: the catalog's tools stay out of the prompt until the model
 * searches and loads them; one spread wires it into `generateText`, `streamText` or a `ToolLoopAgent`.
 *
 * The AI SDK cannot add tools per step, so every tool is given up front in `tools`, and `prepareStep`
 * sets `activeTools` to what the session offers at each step (meta-tools first, then direct, pinned
 * and loaded tools, in a stable order). Every call runs through the step's `execute`: policy,
 * argument validation and the session's instructive errors apply, and a refused or failed call
 * reaches the model as a tool error, never as an exception out of the loop.
 *
 * @example
 * ```ts
 * const search = createToolSearch({ getWeather, sendEmail, ...manyMore });
 * const result = await generateText({
 *   model,
 *   prompt: 'What is the weather in Paris?',
 *   stopWhen: stepCountIs(6),
 *   runtimeContext: { threadId: 'thread-1' },
 *   ...search,
 * });
 * ```
 */
export function createToolSearch<CATALOG extends ToolSet, DIRECT extends ToolSet = Record<never, never>>(
  catalog: CATALOG,
  options?: CreateToolSearchOptions<DIRECT>,
): AISDKToolSearch<CATALOG & DIRECT>;
export function createToolSearch<DIRECT extends ToolSet = Record<never, never>>(
  catalog: Iterable<ToolDescriptor<Tool>> | ToolCatalog<Tool>,
  options?: CreateToolSearchOptions<DIRECT>,
): AISDKToolSearch<ToolSet & DIRECT>;
export function createToolSearch(catalog: ToolSearchCatalog, options: CreateToolSearchOptions = {}): AISDKToolSearch {
  const {
    tools: directOption,
    request: requestOption,
    prepareStep: ownPrepareStep,
    repairToolCall: ownRepairToolCall,
    refineToolInput: ownRefineToolInput,
    onStep,
    ...sessionOptions
  } = options;
  if (requestOption !== undefined && typeof requestOption !== 'function') {
    throw new InvalidOptionError('request', `request must be a function; got ${describeValue(requestOption)}.`);
  }
  for (const [name, value] of [
    ['prepareStep', ownPrepareStep],
    ['repairToolCall', ownRepairToolCall],
    ['onStep', onStep],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidOptionError(name, `${name} must be a function; got ${describeValue(value)}.`);
    }
  }

  // Direct tools: provider tools pass through untouched (always active); the rest become descriptors.
  const passthrough = new Map<string, Tool>();
  let directDescriptors: ToolDescriptor<Tool>[] = [];
  if (directOption !== undefined) {
    if (isIterable(directOption)) {
      directDescriptors = [...(directOption as Iterable<ToolDescriptor<Tool>>)];
    } else if (isRecord(directOption)) {
      for (const [name, tool] of Object.entries(directOption as ToolSet)) {
        if (isAISDKTool(tool) && isProviderTool(tool)) passthrough.set(name, tool);
        else directDescriptors.push(toToolDescriptor(name, tool));
      }
    } else {
      throw new InvalidOptionError(
        'tools',
        `tools must be a record of AI SDK tools or an iterable of tool descriptors; got ${describeValue(directOption)}.`,
      );
    }
  }
  const directTools = new ToolCatalog(directDescriptors).list();
  const session = new ToolSearchSession<Tool>({
    ...sessionOptions,
    catalog: catalogDescriptors(catalog),
    tools: directDescriptors,
  });
  const resolveRequest = requestOption ?? defaultRequest;
  const markerKey = `__toolscout_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;

  // ---- per-generation steps ----
  // A step belongs to the messages array `prepareStep` saw: the AI SDK hands that same array to
  // the step's tool executions and to `repairToolCall`, so concurrent generations never mix.
  const generations = new WeakMap<ModelMessage[], Promise<ToolSearchStep<Tool>>>();

  const stepFor = (messages: ModelMessage[] | undefined): Promise<ToolSearchStep<Tool>> => {
    const known = messages ? generations.get(messages) : undefined;
    if (known) return known;
    // A call outside a prepared step (e.g. a tool approved in an earlier request, run before the
    // first step): a step derived from the messages alone, without a thread or context.
    const step = session.prepareStep({ conversation: conversationFromMessages(messages) });
    if (messages) generations.set(messages, step);
    return step;
  };

  const markedError = (input: unknown): ToolCallError | undefined => {
    if (!isRecord(input)) return undefined;
    const marked = input[markerKey];
    return isRecord(marked) && typeof marked.message === 'string' ? (marked as unknown as ToolCallError) : undefined;
  };

  /** Runs one call through the step of its generation; a refused or failed call throws for the model. */
  const run = async (name: string, input: unknown, callOptions: ToolExecutionOptions<unknown>): Promise<unknown> => {
    const marked = markedError(input);
    if (marked) throw new ToolCallFailedError(marked);
    const step = await stepFor(callOptions.messages);
    const outcome = await step.execute(name, input, { abortSignal: bindCallOptions(callOptions) });
    if (!outcome.ok) throw new ToolCallFailedError(outcome.error);
    return outcome.output;
  };

  // ---- the tools record ----
  const metaTool = (meta: MetaToolDefinition): Tool =>
    dynamicTool({
      description:
        meta.role === 'discover'
          ? ({ context }) => (context as Partial<DiscoveryContext> | undefined)?.description ?? meta.description
          : meta.description,
      inputSchema: jsonSchema(meta.inputSchema as JSONSchema7),
      execute: async (input, callOptions) => lastValue(await run(meta.name, input, callOptions)),
    });

  const catalogTool = (tool: CatalogTool<Tool>): Tool => {
    const original = isAISDKTool(tool.tool) ? tool.tool : undefined;
    const inputSchema = jsonSchema(() => structuredClone(tool.jsonSchema) as JSONSchema7);
    const execute = (input: unknown, callOptions: ToolExecutionOptions<unknown>) =>
      run(tool.toolName, input, callOptions);
    const streamingExecute = async function* (input: unknown, callOptions: ToolExecutionOptions<unknown>) {
      const output = await run(tool.toolName, input, callOptions);
      if (isAsyncIterable(output)) yield* output;
      else yield output;
    };
    const executable = typeof tool.execute === 'function';
    if (!original) {
      return dynamicTool({
        description: tool.description,
        inputSchema,
        ...(executable ? { execute } : {}),
      } as Parameters<typeof dynamicTool>[0]);
    }
    const { execute: originalExecute, inputSchema: _schema, deferLoading: _defer, ...rest } = original;
    const wrapper: Record<string, unknown> = { ...rest, inputSchema };
    if (executable) wrapper.execute = isAsyncGeneratorFunction(originalExecute) ? streamingExecute : execute;
    return wrapper as Tool;
  };

  let built: { version: number; tools: ToolSet; refine: ToolInputRefinement<ToolSet> } | undefined;
  let catalogVersion = 0;
  const unsubscribe = session.catalog.subscribe(() => {
    catalogVersion++;
  });
  const ownNames = new Set<string>();

  const build = () => {
    if (built?.version === catalogVersion) return built;
    const tools: ToolSet = {};
    ownNames.clear();
    const add = (name: string, tool: Tool) => {
      tools[name] = tool;
      ownNames.add(name);
    };
    for (const meta of session.metaTools) add(meta.name, metaTool(meta));
    for (const tool of directTools) add(tool.toolName, catalogTool(tool));
    for (const tool of session.catalog) add(tool.toolName, catalogTool(tool));
    for (const [name, tool] of passthrough) {
      if (name in tools) {
        throw new InvalidOptionError(
          'tools',
          `The provider tool "${name}" has the name of another tool; rename one of them.`,
        );
      }
      tools[name] = tool;
    }
    const refine: ToolInputRefinement<ToolSet> = { ...ownRefineToolInput };
    for (const name of ownNames) {
      const own = ownRefineToolInput?.[name];
      refine[name] = (input: unknown) => {
        const marked = markedError(input);
        if (marked) throw new ToolCallFailedError(marked);
        return own ? own(input) : input;
      };
    }
    built = { version: catalogVersion, tools, refine };
    return built;
  };
  build(); // a clash among tool names fails here, not at the first generation

  // ---- the hooks ----
  const prepareStep: PrepareStepFunction<ToolSet> = async (stepOptions) => {
    const own = await ownPrepareStep?.(stepOptions);
    const messages = own?.messages ?? stepOptions.messages;
    const runtimeContext = own?.runtimeContext ?? stepOptions.runtimeContext;
    const request: StepRequest = {
      ...checkRequest(resolveRequest({ runtimeContext, messages })),
      conversation: conversationFromMessages(messages),
    };
    const pending = session.prepareStep(request);
    generations.set(messages, pending);
    if (messages !== stepOptions.messages) generations.set(stepOptions.messages, pending);
    const step = await pending;
    await onStep?.(step);
    let active = [...step.toolNames, ...passthrough.keys()];
    if (own?.activeTools) {
      const allowed = new Set<string>(own.activeTools);
      active = active.filter((name) => allowed.has(name));
    }
    const result: NonNullable<PrepareStepResult<ToolSet>> = {
      ...own,
      activeTools: active,
      toolOrder: own?.toolOrder ?? active,
    };
    const discovery = step.tools.find((tool) => tool.kind === 'meta' && tool.role === 'discover');
    if (discovery) {
      const context: DiscoveryContext = { description: discovery.description };
      result.toolsContext = { ...(own?.toolsContext ?? stepOptions.toolsContext), [discovery.name]: context };
    }
    return result;
  };

  const repairToolCall: ToolCallRepairFunction<ToolSet> = async (repair) => {
    if (!NoSuchToolError.isInstance(repair.error)) return ownRepairToolCall ? ownRepairToolCall(repair) : null;
    const { toolCall } = repair;
    const step = await stepFor(repair.messages);
    const authorization = await step.authorize(toolCall.toolName, parseInput(toolCall.input));
    const error: ToolCallError = authorization.ok
      ? {
          code: 'unknown-tool',
          toolName: toolCall.toolName,
          message: `Tool "${toolCall.toolName}" is not available at this step. Call one of the tools you were given.`,
        }
      : authorization.error;
    // The AI SDK parses a repaired call against the active tools and keeps the original name when the
    // refinement of the repaired call throws: the model then reads the session's message as the
    // result of the call it made. Without an active tool of ours to stand in, the repair fails, and
    // the model reads the same message after the AI SDK's "Error repairing tool call: ".
    const standIn = Object.keys(repair.tools).find((name) => ownNames.has(name));
    if (standIn === undefined) throw new ToolCallFailedError(error);
    const { cause: _cause, ...serializable } = error;
    return { ...toolCall, toolName: standIn, input: JSON.stringify({ [markerKey]: serializable }) };
  };

  const search = {} as AISDKToolSearch;
  Object.defineProperties(search, {
    tools: { enumerable: true, get: () => build().tools },
    prepareStep: { enumerable: true, value: prepareStep },
    repairToolCall: { enumerable: true, value: repairToolCall },
    experimental_refineToolInput: { enumerable: true, get: () => build().refine },
    session: { enumerable: false, value: session },
    dispose: {
      enumerable: false,
      value: () => {
        unsubscribe();
        session.dispose();
      },
    },
  });
  return search;
}
