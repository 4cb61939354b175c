import type {
  ChatMiddleware,
  ChatMiddlewareConfig,
  ChatMiddlewareContext,
  ModelMessage,
  SystemPrompt,
} from '@tanstack/ai';
import type {
  StepRequest,
  ToolCatalog,
  ToolDescriptor,
  ToolSearchSession,
  ToolSearchSessionOptions,
  ToolSearchStep,
} from '@toolscout/core';
import {
  agentOwnTools,
  checkReturnedRequest,
  type HostRequest,
  hostSession,
  requestFromContext,
} from '@toolscout/core/internal';
import { conversationFromMessages, isPendingPlaceholder } from './conversation-from-messages.js';
import { fromTanStackTools, isOfferedBySession, type TanStackTool, toTanStackTool } from './tanstack-tool.js';
import { correctUnroutedCalls } from './unrouted-calls.js';

/** Options of {@link toolSearchMiddleware}: core's session options, and how the session meets `chat()`. */
export interface ToolSearchMiddlewareOptions extends Omit<ToolSearchSessionOptions<TanStackTool>, 'catalog' | 'tools'> {
  /** The searchable tools: TanStack AI tools, core descriptors, or a `ToolCatalog` (followed as it changes). */
  catalog: ToolCatalog<TanStackTool> | Iterable<TanStackTool | ToolDescriptor>;
  /** Tools offered at every step and never searched, their calls checked by the session. Default none. */
  tools?: Iterable<TanStackTool | ToolDescriptor>;
  /** Who a `chat()` run is for; default: `threadId` and `resourceId` of `chat({ context })`, which is the policy's context. */
  request?: (ctx: ChatMiddlewareContext) => HostRequest | undefined;
  /** Called with each step the session prepared (e.g. for `session.measureStep(step)`). */
  onStep?: (step: ToolSearchStep<TanStackTool>) => void | Promise<void>;
  /** The middleware's name, for TanStack AI's debugging. Default `toolscout`. */
  name?: string;
}

/** The middleware `chat({ middleware })` takes, with the session behind it. */
export interface ToolSearchChatMiddleware extends ChatMiddleware {
  /** The session all behaviour lives in: telemetry (`subscribe`), state (`clearState`), `measureStep`, `search`. */
  readonly session: ToolSearchSession<TanStackTool>;
  /** Releases the session (its index and in-memory store) and stops following the catalog. */
  dispose(): void;
}

/** Where an agent's tools are given, for the error when one has a name of the session's. */
const PLACES = { registered: "chat()'s tools", direct: "the middleware's tools" };

/** The default `request`: thread and resource ids from `chat({ context })`, which is the policy's context. */
const defaultRequest = (ctx: ChatMiddlewareContext): HostRequest => requestFromContext(ctx.context);

/** The text of a system prompt (a string, or `{ content }`). */
const promptText = (prompt: SystemPrompt): string => (typeof prompt === 'string' ? prompt : prompt.content);

/** Whether the latest assistant message has a tool call no tool message answers (an approved call resumed, say). */
function hasPendingCalls(messages: readonly ModelMessage[]): boolean {
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  const results = messages.slice(last + 1).filter((message) => !isPendingPlaceholder(message));
  const answered = new Set(results.map((message) => message.toolCallId));
  return (messages[last]?.toolCalls ?? []).some((call) => !answered.has(call.id));
}

/** The system prompts with the session's instructions last, once (a copy carried from the step before is dropped). */
function withInstructions(prompts: readonly SystemPrompt[], instructions: string): SystemPrompt[] {
  return [...prompts.filter((prompt) => promptText(prompt) !== instructions), instructions];
}

/**
 * Tool search for TanStack AI as `chat()` middleware (see the README): before each model call
 * (`onConfig` in the `beforeModel` phase) the model is offered the step's tools beside `chat()`'s own,
 * and the session's instructions as the last system prompt; each call of a session tool runs
 * through the step. Each bad option is an `InvalidOptionError` naming it.
 */
export function toolSearchMiddleware(options: ToolSearchMiddlewareOptions): ToolSearchChatMiddleware {
  const session = hostSession<TanStackTool>(options, {
    usage: 'toolSearchMiddleware takes one options object, { catalog, ... }',
    rules: { request: 'function', onStep: 'function', name: 'non-empty string' },
    convert: fromTanStackTools,
  });
  const { request = defaultRequest, onStep, name = 'toolscout' } = options;

  // A step's request: who the run is for, its conversation, and chat()'s own tools (not those the session offered
  // at the step before), which win over catalog tools of their names.
  const stepRequest = (ctx: ChatMiddlewareContext, config: ChatMiddlewareConfig, messages = config.messages) => {
    const own = agentOwnTools(
      session,
      config.tools.filter((tool) => !isOfferedBySession(tool)),
      PLACES,
    );
    const who = checkReturnedRequest('request', request(ctx));
    const conversation = conversationFromMessages(messages);
    return { own, request: { ...who, conversation, hostTools: own.names } satisfies StepRequest };
  };
  const toolsOf = (own: TanStackTool[], step: ToolSearchStep<TanStackTool>) => [
    ...own,
    ...step.tools.map((tool) => toTanStackTool(tool, step)),
  ];

  const prepare = async (ctx: ChatMiddlewareContext, config: ChatMiddlewareConfig) => {
    // The step the previous model call was offered (kept under the run's context) answers its unrouted calls.
    const previousStep = () => session.stepFor(ctx, stepRequest(ctx, config).request);
    const messages = await correctUnroutedCalls(config.messages, previousStep);
    const provider = config.providerMessages;
    const providerMessages: ModelMessage[] =
      provider === undefined || provider === config.messages
        ? messages
        : await correctUnroutedCalls(provider, previousStep);
    const { own, request: next } = stepRequest(ctx, config, messages);
    const step = await session.prepareStep(next, { keys: [ctx] });
    await onStep?.(step);
    const result: Partial<ChatMiddlewareConfig> = { messages, providerMessages, tools: toolsOf(own.tools, step) };
    if (step.instructions !== undefined)
      result.systemPrompts = withInstructions(config.systemPrompts, step.instructions);
    return result;
  };

  // Calls pending when a run starts (an approved call resumed) run before the first model call, with the tools of
  // a quiet step (no `step` event); each model call then gets a step of its own.
  const pendingCallTools = async (ctx: ChatMiddlewareContext, config: ChatMiddlewareConfig) => {
    const { own, request: pending } = stepRequest(ctx, config);
    return { tools: toolsOf(own.tools, await session.stepFor(ctx, pending)) };
  };

  const middleware: ChatMiddleware = {
    name,
    onConfig: (ctx, config) => {
      if (ctx.phase === 'beforeModel') return prepare(ctx, config);
      if (ctx.phase === 'init' && hasPendingCalls(config.messages)) return pendingCallTools(ctx, config);
      return undefined;
    },
  };
  return Object.defineProperties(middleware as ToolSearchChatMiddleware, {
    session: { value: session },
    dispose: { value: () => session.dispose() },
  });
}
