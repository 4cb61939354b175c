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
import { conversationFromMessages } from './conversation-from-messages.js';
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

  const prepare = async (ctx: ChatMiddlewareContext, config: ChatMiddlewareConfig) => {
    const who: StepRequest = checkReturnedRequest('request', request(ctx));
    // The step the previous model call was offered (kept under the run's context) answers its unrouted calls.
    const previousStep = () =>
      session.stepFor(ctx, { ...who, conversation: conversationFromMessages(config.messages) });
    const messages = await correctUnroutedCalls(config.messages, previousStep);
    const provider = config.providerMessages;
    const providerMessages: ModelMessage[] =
      provider === undefined || provider === config.messages
        ? messages
        : await correctUnroutedCalls(provider, previousStep);
    // chat()'s own tools (not those the session offered at the step before) win over catalog tools of their names.
    const own = agentOwnTools(
      session,
      config.tools.filter((tool) => !isOfferedBySession(tool)),
      PLACES,
    );
    const conversation = conversationFromMessages(messages);
    const step = await session.prepareStep({ ...who, conversation, hostTools: own.names }, { keys: [ctx] });
    await onStep?.(step);
    const result: Partial<ChatMiddlewareConfig> = {
      messages,
      providerMessages,
      tools: [...own.tools, ...step.tools.map((tool) => toTanStackTool(tool, step))],
    };
    if (step.instructions !== undefined)
      result.systemPrompts = withInstructions(config.systemPrompts, step.instructions);
    return result;
  };

  const middleware: ChatMiddleware = {
    name,
    onConfig: (ctx, config) => (ctx.phase === 'beforeModel' ? prepare(ctx, config) : undefined),
  };
  return Object.defineProperties(middleware as ToolSearchChatMiddleware, {
    session: { value: session },
    dispose: { value: () => session.dispose() },
  });
}
