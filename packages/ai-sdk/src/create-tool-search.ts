import {
  type JsonSchema,
  type StepRequest,
  type ToolDescriptor,
  ToolSearchSession,
  type ToolSearchSessionOptions,
  type ToolSearchStep,
} from '@toolscout/core';
import { ToolCallFailedError } from '@toolscout/core/errors';
import {
  checkHookOptions,
  checkOptionsObject,
  checkReturnedRequest,
  createRefusalCarrier,
  createToolRecord,
  requestFromContext,
  withInstructions,
} from '@toolscout/core/internal';
import {
  type Instructions,
  type ModelMessage,
  NoSuchToolError,
  type PrepareStepFunction,
  type PrepareStepResult,
  type SystemModelMessage,
  type Tool,
  type ToolCallRepairFunction,
  type ToolInputRefinement,
  type ToolSet,
} from 'ai';
import { conversationFromMessages } from './conversation-from-messages.js';
import { descriptorsOf, directToolsOf, type ToolSearchCatalog } from './from-ai-sdk-tool.js';
import { type RunCall, toAISDKMetaTool, toAISDKTool } from './to-ai-sdk-tool.js';

/** Who a generation is for: its thread and resource (for the stores) and the policy's context. */
export type GenerationRequest = Pick<StepRequest, 'threadId' | 'resourceId' | 'context'>;

/** What {@link CreateToolSearchOptions.request} is given at each step. */
export interface GenerationRequestInfo {
  /** The runtime context of the generation (`generateText({ runtimeContext })`, or set by `prepareCall`). */
  runtimeContext: Record<string, unknown>;
  /** The messages the model is about to receive. */
  messages: ModelMessage[];
}

/** Options of {@link createToolSearch}: the session's options, plus how it meets the AI SDK (see the README). */
export interface CreateToolSearchOptions<
  CATALOG extends ToolSearchCatalog = ToolSearchCatalog,
  DIRECT extends ToolSet = ToolSet,
> extends Omit<ToolSearchSessionOptions<Tool>, 'catalog' | 'tools'> {
  /** The searchable tools: AI SDK tools by name, toolscout descriptors, or a `ToolCatalog` to follow. */
  catalog: CATALOG;
  /** Tools offered at every step, never searched: AI SDK tools by name (provider tools passed through) or descriptors. */
  tools?: DIRECT | Iterable<ToolDescriptor<Tool>>;
  /** Who a generation is for; default: `threadId` and `resourceId` of the runtime context, which is the policy's context. */
  request?: (info: GenerationRequestInfo) => GenerationRequest | undefined;
  /** Your own `prepareStep`: it runs first, its `activeTools` narrow the session's offer, the rest is kept. */
  prepareStep?: PrepareStepFunction<ToolSet>;
  /** Your own repair, for the calls the session leaves alone (input that is not valid JSON). */
  repairToolCall?: ToolCallRepairFunction<ToolSet>;
  /** Your own input refinements by tool name (`experimental_refineToolInput`); they run after toolscout's. */
  refineToolInput?: ToolInputRefinement<ToolSet>;
  /** Called with each step the session prepared (e.g. for `session.measureStep(step)`). */
  onStep?: (step: ToolSearchStep<Tool>) => void | Promise<void>;
}

/**
 * What `generateText`, `streamText` and `new ToolLoopAgent` take, to spread into their options;
 * `session` and `dispose` are not enumerable, so they stay out of the spread.
 */
export interface AISDKToolSearch<TOOLS extends ToolSet = ToolSet> {
  /** Every tool the session may offer, by provider-safe tool name; made again when the catalog changes. */
  readonly tools: TOOLS & ToolSet;
  /** Sets `activeTools` and `toolOrder` to the session's offer at each step, and appends its `instructions`. */
  readonly prepareStep: PrepareStepFunction<TOOLS & ToolSet>;
  /** Answers calls of tools that are not offered with the session's instructive error (not loaded, unknown, ...). */
  readonly repairToolCall: ToolCallRepairFunction<TOOLS & ToolSet>;
  /** Delivers the errors `repairToolCall` prepared to the model, under the name it called. */
  readonly experimental_refineToolInput: ToolInputRefinement<TOOLS & ToolSet>;
  /** The session behind it all: telemetry (`subscribe`), state (`clearState`), `measureStep`, `search`. */
  readonly session: ToolSearchSession<Tool>;
  /** Releases the session (its index and in-memory store) and stops following the catalog. */
  dispose(): void;
}

/** The default `request`: thread and resource ids from the runtime context, which is the policy's context. */
const defaultRequest = ({ runtimeContext }: GenerationRequestInfo) => requestFromContext(runtimeContext);

/**
 * Tool search for the Vercel AI SDK: the catalog's tools stay out of the prompt until the model
 * searches and loads them; one spread wires it into `generateText`, `streamText` or a `ToolLoopAgent`
 * (`{ ...createToolSearch({ catalog }) }`). Each bad option is an `InvalidOptionError` naming it.
 */
export function createToolSearch<CATALOG extends ToolSearchCatalog, DIRECT extends ToolSet = Record<never, never>>(
  options: CreateToolSearchOptions<CATALOG, DIRECT>,
  // The tools are typed when the catalog is a record of AI SDK tools (descriptors and catalogs are not).
): AISDKToolSearch<(CATALOG extends ToolSet ? CATALOG : ToolSet) & DIRECT>;
export function createToolSearch(options: CreateToolSearchOptions): AISDKToolSearch {
  checkOptionsObject(options, 'createToolSearch takes one options object, { catalog, ... }');
  checkHookOptions(options, ['request', 'prepareStep', 'repairToolCall', 'onStep'], ['refineToolInput']);
  const { catalog, tools, request = defaultRequest, prepareStep: ownPrepareStep, onStep, ...rest } = options;
  const { repairToolCall: ownRepairToolCall, refineToolInput: ownRefineToolInput, ...sessionOptions } = rest;
  const { descriptors, provider } = directToolsOf(tools);
  const session = new ToolSearchSession<Tool>({
    ...sessionOptions,
    catalog: descriptorsOf(catalog, 'catalog'),
    tools: descriptors,
  });
  const refusals = createRefusalCarrier();

  // A step is kept under the messages array `prepareStep` saw, which the AI SDK hands the step's calls
  // and `repairToolCall`; a call outside a prepared step (a resumed approval) gets one from the messages.
  const stepFor = (messages: ModelMessage[] | undefined): Promise<ToolSearchStep<Tool>> =>
    session.stepFor(messages, { conversation: conversationFromMessages(messages) });

  const run: RunCall = async (name, input, callOptions) => {
    refusals.rethrow(input);
    const step = await stepFor(callOptions.messages);
    const outcome = await step.execute(name, input, { abortSignal: callOptions.abortSignal, host: callOptions });
    if (!outcome.ok) throw new ToolCallFailedError(outcome.error);
    return outcome.output;
  };

  // The schema each tool was last offered with, by name; forgotten when the catalog changes (so bounded by it).
  const offeredSchemas = new Map<string, JsonSchema>();
  const forgetSchemas = session.catalog.subscribe(() => offeredSchemas.clear());
  const toolRecord = createToolRecord<Tool, Tool>(session, {
    meta: (meta) => toAISDKMetaTool(meta, run),
    tool: (tool) => toAISDKTool(tool, run, (name) => offeredSchemas.get(name)),
    passThrough: provider,
  });
  // Our tools' refinements throw the refusal `repairToolCall` put in a call's input, then run yours.
  const refineToolInput = (): ToolInputRefinement<ToolSet> => {
    const refine: ToolInputRefinement<ToolSet> = { ...ownRefineToolInput };
    for (const name of Object.keys(toolRecord.get()).filter((name) => !provider.has(name))) {
      const own = ownRefineToolInput?.[name];
      refine[name] = (input: unknown) => {
        refusals.rethrow(input);
        return own ? own(input) : input;
      };
    }
    return refine;
  };

  const prepareStep: PrepareStepFunction<ToolSet> = async (stepOptions) => {
    const own = await ownPrepareStep?.(stepOptions);
    const messages = own?.messages ?? stepOptions.messages;
    const runtimeContext = own?.runtimeContext ?? stepOptions.runtimeContext;
    const step = await session.prepareStep(
      {
        ...checkReturnedRequest('request', request({ runtimeContext, messages })),
        conversation: conversationFromMessages(messages),
        // Provider tools are the only tools the model has beside the session's: load_tool calls them available.
        hostTools: [...provider.keys()],
      },
      { keys: [messages, stepOptions.messages] },
    );
    await onStep?.(step);
    for (const tool of step.tools) if (tool.kind !== 'meta') offeredSchemas.set(tool.name, tool.inputSchema);
    const narrowed = own?.activeTools ? new Set<string>(own.activeTools) : undefined;
    const active = [...step.toolNames, ...provider.keys()].filter((name) => narrowed?.has(name) ?? true);
    const result: NonNullable<PrepareStepResult<ToolSet>> = {
      ...own,
      activeTools: active,
      toolOrder: own?.toolOrder ?? active,
    };
    if (step.instructions !== undefined) {
      const ownInstructions = own?.instructions ?? own?.system ?? stepOptions.instructions;
      result.instructions = withInstructions<SystemModelMessage>(ownInstructions, step.instructions) as Instructions;
    }
    const discovery = step.tools.find((tool) => tool.role === 'discover');
    if (discovery) {
      const context = { description: discovery.description };
      result.toolsContext = { ...(own?.toolsContext ?? stepOptions.toolsContext), [discovery.name]: context };
    }
    return result;
  };

  const repairToolCall: ToolCallRepairFunction<ToolSet> = async (repair) => {
    if (!NoSuchToolError.isInstance(repair.error)) return ownRepairToolCall ? ownRepairToolCall(repair) : null;
    const { toolCall } = repair;
    const error = await (await stepFor(repair.messages)).refuseUnrouted(toolCall.toolName);
    // The AI SDK keeps the called name when the refinement of the repaired call throws, so the model reads
    // the session's message as the result of its call; without an active tool of ours, the repair fails.
    const standIn = Object.keys(repair.tools).find((name) => !provider.has(name) && name in toolRecord.get());
    if (standIn === undefined) throw new ToolCallFailedError(error);
    return { ...toolCall, toolName: standIn, input: refusals.carry(error) };
  };

  // Spread into generateText: `tools` and the hooks; `session` and `dispose` stay out of the spread.
  return Object.defineProperties({ prepareStep, repairToolCall } as unknown as AISDKToolSearch, {
    tools: { enumerable: true, get: toolRecord.get },
    experimental_refineToolInput: { enumerable: true, get: refineToolInput },
    session: { value: session },
    dispose: {
      value: () => {
        toolRecord.dispose();
        forgetSchemas();
        session.dispose();
      },
    },
  });
}
