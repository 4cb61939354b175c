import { AIMessage, type BaseMessage, type SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { Command, isCommand, isGraphBubbleUp, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import type {
  LoadedStateStrategy,
  OfferedTool,
  ToolCatalog,
  ToolDescriptor,
  ToolSearchSession,
  ToolSearchSessionOptions,
  ToolSearchStep,
} from '@toolscout/core';
import { InvalidArgumentError, InvalidOptionError } from '@toolscout/core/errors';
import {
  agentOwnTools,
  describeValue,
  HostToolRunner,
  hostSession,
  loadedStateRule,
  outputText,
  runHostCall,
} from '@toolscout/core/internal';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { conversationFromMessages } from './conversation-from-messages.js';
import {
  fromLangChainTools,
  type LangChainTool,
  type LangChainToolLike,
  threadIdOf,
  toLangChainTool,
} from './langchain-tool.js';
import {
  LOADED_TOOLS_STATE_KEY,
  type LoadedToolsStateSchema,
  loadedToolsOf,
  loadedToolsStateSchema,
} from './loaded-tools-state.js';

/**
 * Where loaded tools are remembered: core's strategies, or `agent-state`, the `createAgent` state
 * (`toolscoutLoadedTools`, checkpointed with the thread; middleware only).
 */
export type LangChainStateStrategy = LoadedStateStrategy | 'agent-state';

/** Options of {@link LangChainToolSearch} and `toolSearchMiddleware`: core's session options, and these. */
export interface LangChainToolSearchOptions<TState extends LangChainStateStrategy = LangChainStateStrategy>
  extends Omit<ToolSearchSessionOptions, 'catalog' | 'tools' | 'state'> {
  /** The searchable tools: LangChain tools, core descriptors, or a `ToolCatalog` (followed as it changes). */
  catalog: ToolCatalog | Iterable<LangChainToolLike | ToolDescriptor>;
  /** Tools offered at every step and never searched, their calls checked by the session. Default none. */
  tools?: Iterable<LangChainToolLike | ToolDescriptor>;
  /** Where loaded tools live ({@link LangChainStateStrategy}). Default `memory`. */
  state?: TState;
  /** The user or tenant of a run, read from its config: part of the state key, handed to the policy. Default none. */
  resourceId?: (config: LangGraphRunnableConfig) => string | undefined;
  /** The middleware's name, unique among an agent's middleware. Default `toolscout`. */
  name?: string;
}

/** The middleware's type: with `state: 'agent-state'` the agent state has `toolscoutLoadedTools`. */
export type ToolSearchAgentMiddleware<TState extends LangChainStateStrategy = LangChainStateStrategy> = AgentMiddleware<
  [TState] extends ['agent-state'] ? LoadedToolsStateSchema : undefined
>;

/** Where an agent's tools are given, for the error when one has a name of the session's. */
const PLACES = { registered: "createAgent's tools", direct: "the middleware's tools" };

/** Runs a checked call's LangChain tool as the host runs its own (with LangChain's `ToolRuntime`). */
type RunTool = (tool: LangChainTool, call: ToolCall) => Promise<unknown>;

/** The ToolMessage answering a call. */
function toolMessage(call: ToolCall, status: 'success' | 'error', content: ToolMessage['content'], artifact?: unknown) {
  return new ToolMessage({ content, artifact, status, tool_call_id: call.id ?? '', name: call.name });
}

/** The ToolMessage of a successful call: the tool's own for this call, or another call's re-addressed (`call_tool`). */
function resultMessage(output: unknown, call: ToolCall): ToolMessage {
  if (!ToolMessage.isInstance(output)) return toolMessage(call, 'success', outputText(output));
  if (output.tool_call_id === (call.id ?? '') && output.name === call.name) return output;
  return toolMessage(call, output.status ?? 'success', output.content, output.artifact);
}

/** The messages the model saw when it made this call: those before its AIMessage (`messages[before.length]`), or all. */
function messagesBefore(messages: readonly BaseMessage[], toolCallId: string | undefined): readonly BaseMessage[] {
  const index = messages.findLastIndex(
    (message) => AIMessage.isInstance(message) && message.tool_calls?.some((call) => call.id === toolCallId),
  );
  return index < 0 ? messages : messages.slice(0, index);
}

/** The messages of a tool node's state, which must hold an AIMessage (the node runs after a model call). */
function messagesOf(state: unknown): BaseMessage[] {
  const messages = (state as { messages?: unknown } | undefined)?.messages;
  if (Array.isArray(messages) && messages.some((message) => AIMessage.isInstance(message))) return messages;
  const got = Array.isArray(messages) ? 'messages with no AIMessage' : describeValue(messages);
  const message = `The toolscout tool node runs after a model call, on a state whose "messages" array holds its AIMessage; got ${got}.`;
  throw new InvalidArgumentError('state.messages', message);
}

/** A step's tool as the model is offered it: a LangChain tool as that very object; a meta-tool as its definition. */
function toLangChain({ tool, name, description, inputSchema }: OfferedTool): LangChainTool {
  return toLangChainTool(tool ?? { id: name, name, description, inputSchema });
}

/** The agent's system message with the session's instructions after the user's own text (as it is without). */
function withInstructions(system: SystemMessage, instructions: string | undefined): SystemMessage {
  if (instructions === undefined) return system;
  return system.concat(system.text === '' ? instructions : `\n\n${instructions}`);
}

/**
 * Tool search for LangChain JS: one {@link ToolSearchSession} wired to `createAgent`
 * ({@link LangChainToolSearch.middleware}) or to a custom LangGraph graph ({@link LangChainToolSearch.toolsFor},
 * {@link LangChainToolSearch.toolNode}); all behaviour is the session's (see the README).
 */
export class LangChainToolSearch<TState extends LangChainStateStrategy = LangChainStateStrategy> {
  /** The session all behaviour lives in (telemetry, token figures, `instructions`). */
  readonly session: ToolSearchSession;
  /** Whether loaded tools live in the agent state (`state: 'agent-state'`). */
  readonly usesAgentState: boolean;
  private readonly options: LangChainToolSearchOptions<TState>;

  constructor(options: LangChainToolSearchOptions<TState>) {
    this.session = hostSession(options, {
      usage: 'Tool search needs options with a catalog, e.g. { catalog: [weatherTool] }',
      rules: { state: loadedStateRule('agent-state'), resourceId: 'function', name: 'non-empty string' },
      convert: fromLangChainTools,
      // With `agent-state` the loaded tools come from the agent state, as `StepRequest.loaded`.
      states: { 'agent-state': 'conversation' },
    });
    this.options = options;
    this.usesAgentState = options.state === 'agent-state';
  }

  /** Whether a tool name belongs to the session: a meta-tool, a direct tool or a catalog tool. */
  handles(name: string): boolean {
    return this.session.isMetaTool(name) || this.session.resolve(name) !== undefined;
  }

  /**
   * The tools to bind for the next model call of a custom graph, given its messages and run config
   * (`model.bindTools(await search.toolsFor(state.messages, config))`).
   */
  async toolsFor(messages: readonly BaseMessage[], config?: LangGraphRunnableConfig): Promise<LangChainTool[]> {
    this.assertSessionState('toolsFor');
    const step = await this.session.prepareStep(this.stepRequest(messages, config));
    return step.tools.map(toLangChain);
  }

  /**
   * A tool node for custom graphs: LangGraph's own `ToolNode`, running each call of the last
   * AIMessage through the step the model was offered when it made it.
   */
  toolNode(): ToolNode {
    this.assertSessionState('toolNode');
    const search = this;
    return new (class ToolSearchNode extends ToolNode {
      protected override async run(input: unknown, config: LangGraphRunnableConfig): Promise<unknown> {
        const messages = messagesOf(input);
        const index = messages.findLastIndex((message) => AIMessage.isInstance(message));
        // The step of the last AIMessage, kept under it for its calls (prepared first: they run in order).
        const request = search.stepRequest(messages.slice(0, index), config);
        await search.session.prepareStep(request, { keys: [messages[index]!] });
        return super.run(input, config);
      }

      protected override async runTool(call: ToolCall, config: LangGraphRunnableConfig, state: unknown) {
        const messages = (state as { messages: BaseMessage[] }).messages;
        const before = messagesBefore(messages, call.id);
        // The step `run` kept under the AIMessage that made the call.
        const step = await search.session.stepFor(messages[before.length], search.stepRequest(before, config));
        // A checked tool runs as this ToolNode's own, with its `ToolRuntime`; `runTool` reads `tools` at once.
        return search.runCall(step, call, config.signal, (tool, checked) => {
          this.tools = [tool];
          return super.runTool(checked, config, state);
        });
      }
    })([], { handleToolErrors: false });
  }

  /**
   * The `createAgent` middleware: `wrapModelCall` offers the step's tools beside the agent's own and
   * adds the session's instructions to the system message; `wrapToolCall` runs the session's calls
   * through the step. Tool errors reach the model as ToolMessages with `status: 'error'`.
   */
  middleware(): ToolSearchAgentMiddleware<TState> {
    const middleware = createMiddleware({
      name: this.options.name ?? 'toolscout',
      stateSchema: this.usesAgentState ? loadedToolsStateSchema : undefined,
      wrapModelCall: async (request, handler) => {
        // The agent's own tools win over catalog tools of their names; the session offers its own objects.
        const own = agentOwnTools(this.session, request.tools, PLACES);
        const runConfig = request.runtime as LangGraphRunnableConfig;
        const stepRequest = this.stepRequest(request.messages, runConfig, request.state);
        const step = await this.session.prepareStep({ ...stepRequest, hostTools: own.names });
        const response = await handler({
          ...request,
          systemMessage: withInstructions(request.systemMessage, step.instructions),
          tools: [...own.tools, ...step.tools.map(toLangChain)],
        });
        // Parallel calls run as separate tasks; each is judged against this step (`stepForCall`).
        step.expectCalls((response.tool_calls ?? []).flatMap((call) => (call.id ? [call.id] : [])));
        return response;
      },
      wrapToolCall: async (request, handler) => {
        const call = request.toolCall;
        // The agent's own tools run as LangChain runs them (a tool of the session's is its very object).
        if (request.tool !== undefined && this.session.resolve(call.name)?.tool !== request.tool)
          return handler(request);
        const runConfig = request.runtime as LangGraphRunnableConfig;
        // The step of the model call that made it; when gone (a resumed interrupt), one from the messages before.
        const before = messagesBefore(request.state.messages, call.id);
        const step = await this.session.stepForCall(this.stepRequest(before, runConfig, request.state), call.id);
        return this.runCall(step, call, runConfig.signal, async (tool, checked) =>
          handler({ ...request, toolCall: checked, tool }),
        );
      },
    });
    // The state schema is there exactly when TState is 'agent-state'.
    return middleware as unknown as ToolSearchAgentMiddleware<TState>;
  }

  private assertSessionState(method: string): void {
    if (!this.usesAgentState) return;
    throw new InvalidOptionError(
      'state',
      `${method}() cannot be used with state 'agent-state': that strategy keeps loaded tools in createAgent's state and works through the middleware only. In a custom graph use 'conversation', 'memory' or a LoadedToolStore.`,
    );
  }

  /** The request for a step: thread, resource and context from the run config; loaded tools from the agent state. */
  private stepRequest(messages: readonly BaseMessage[], config: LangGraphRunnableConfig = {}, state?: unknown) {
    return {
      threadId: threadIdOf(config),
      resourceId: this.options.resourceId?.(config),
      context: config.context,
      conversation: conversationFromMessages(messages),
      loaded: this.usesAgentState ? loadedToolsOf(state) : undefined,
    };
  }

  /** Runs one tool call through the step; never throws for a tool's or the model's error (interrupts are the graph's). */
  private async runCall(step: ToolSearchStep, call: ToolCall, abortSignal: AbortSignal | undefined, run: RunTool) {
    const host = new HostToolRunner<LangChainTool>((tool, args) =>
      run(tool, { ...call, name: tool.name, args: args as Record<string, unknown> }),
    );
    const result = await runHostCall(step, call.name, call.args, { abortSignal, host, isControlFlow: isGraphBubbleUp });
    if (!result.ok) return toolMessage(call, 'error', result.message);
    if (isCommand(result.output)) return result.output;
    const message = resultMessage(result.output, call);
    if (!this.usesAgentState || result.loaded === undefined) return message;
    return new Command({ update: { messages: [message], [LOADED_TOOLS_STATE_KEY]: [...result.loaded] } });
  }
}

/**
 * Tool search as `createAgent` middleware (see the README): the model starts with the meta-tools
 * beside the agent's own tools. Give a {@link LangChainToolSearch} instead of options to share its session.
 */
export function toolSearchMiddleware<TState extends LangChainStateStrategy = LangChainStateStrategy>(
  options: LangChainToolSearchOptions<TState> | LangChainToolSearch<TState>,
): ToolSearchAgentMiddleware<TState> {
  return (options instanceof LangChainToolSearch ? options : new LangChainToolSearch<TState>(options)).middleware();
}
