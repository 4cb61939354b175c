import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { Command, isCommand, isGraphBubbleUp } from '@langchain/langgraph';
import {
  type CatalogTool,
  type ConversationEntry,
  type LoadedStateStrategy,
  type OfferedTool,
  type StepRequest,
  type ToolCallOutcome,
  ToolCatalog,
  type ToolDescriptor,
  ToolSearchSession,
  type ToolSearchSessionOptions,
  type ToolSearchStep,
} from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { describeValue, loadedNamesFromConversation } from '@toolscout/core/internal';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import { conversationFromMessages } from './conversation-from-messages.js';
import {
  fromLangChainTools,
  isLangChainTool,
  type LangChainTool,
  type LangChainToolLike,
  toLangChainTool,
} from './langchain-tool.js';
import {
  createLoadedToolsStateSchema,
  LOADED_TOOLS_STATE_KEY,
  type LoadedToolsStateSchema,
  loadedToolsOf,
} from './loaded-tools-state.js';
import type { LangChainCallHost, RunLangChainTool } from './tool-call-bridge.js';

/**
 * Where loaded tools are remembered between steps: core's strategies (`memory`, the default;
 * `conversation`; a `LoadedToolStore`), or `agent-state`: in the `createAgent` state (the
 * `toolscoutLoadedTools` field), so the agent's checkpointer persists them with the thread. `agent-state`
 * works through the middleware only.
 */
export type LangChainStateStrategy = LoadedStateStrategy | 'agent-state';

/** The parts of a LangChain/LangGraph run config that tool search reads (a node's `config`, a middleware's `runtime`). */
export interface ToolSearchRunConfig {
  /** `thread_id` names the conversation thread (as for a checkpointer). */
  configurable?: { thread_id?: unknown; [key: string]: unknown };
  /** The run's context (`invoke(input, { context })`); handed to the policy filter and to executed tools. */
  context?: unknown;
  /** Aborts the run. */
  signal?: AbortSignal;
}

/** Options of {@link LangChainToolSearch} (and of `toolSearchMiddleware`). */
export interface LangChainToolSearchOptions<TState extends LangChainStateStrategy = LangChainStateStrategy>
  extends Omit<ToolSearchSessionOptions, 'catalog' | 'tools' | 'state'> {
  /**
   * The searchable tools: LangChain tools (`tool()`, `DynamicStructuredTool`, ...), core descriptors,
   * or a core `ToolCatalog` (followed as it changes). Do not also give them to `createAgent`'s
   * `tools`: the middleware offers them when they are loaded.
   */
  catalog: ToolCatalog | Iterable<LangChainToolLike | ToolDescriptor>;
  /**
   * Tools offered at every step beside the meta-tools and never searched; their calls are validated
   * by the session like catalog tools. (Tools given to `createAgent`'s own `tools` are offered too,
   * and run by LangChain untouched.)
   */
  tools?: Iterable<LangChainToolLike | ToolDescriptor>;
  /** Where loaded tools live; see {@link LangChainStateStrategy}. Default `memory`. */
  state?: TState;
  /**
   * The user or tenant a run belongs to, from its config (e.g. `(config) => config.context?.userId`):
   * part of the state key, and handed to the policy. Default: none.
   */
  resourceId?: (config: ToolSearchRunConfig) => string | undefined;
}

/** Which request a step is prepared for, in a custom graph. */
export interface ToolSearchRequest {
  /** The conversation thread. Default: `config.configurable.thread_id`. */
  threadId?: string;
  /** The user or tenant. Default: the `resourceId` option applied to `config`. */
  resourceId?: string;
  /** The host's request context for the policy. Default: `config.context`. */
  context?: unknown;
  /** The node's run config, where the thread id and context are read from when not given. */
  config?: ToolSearchRunConfig;
}

/** A prepared step: core's step, and its tools as LangChain tools, ready for `bindTools`. */
export interface PreparedToolSearchStep {
  /** The session's step: what is offered, and the handler of its calls. */
  step: ToolSearchStep;
  /** The offered tools as LangChain tools, in the order offered. */
  tools: LangChainTool[];
}

/** The state a {@link ToolSearchNode} reads: a LangGraph messages state. */
export interface ToolSearchNodeState {
  /** The conversation; the last AIMessage holds the tool calls to run. */
  messages: BaseMessage[];
}

/** The update a {@link ToolSearchNode} returns: one ToolMessage per tool call. */
export interface ToolSearchNodeUpdate {
  /** The tool results, in the order of the calls. */
  messages: ToolMessage[];
}

/**
 * A LangGraph node for custom graphs that runs the tool calls of the last AIMessage: meta-tools,
 * loaded catalog tools and direct tools, each through the session. Returns the ToolMessages, or, when
 * a tool returned a `Command`, a list of Commands and updates (as LangGraph's `ToolNode` does).
 */
export type ToolSearchNode = (
  state: ToolSearchNodeState,
  config?: ToolSearchRunConfig,
) => Promise<ToolSearchNodeUpdate | (Command | ToolSearchNodeUpdate)[]>;

/**
 * The middleware's type: with `state: 'agent-state'` the agent state (input and result) has the
 * `toolscoutLoadedTools` field.
 */
export type ToolSearchAgentMiddleware<TState extends LangChainStateStrategy = LangChainStateStrategy> = AgentMiddleware<
  [TState] extends ['agent-state'] ? LoadedToolsStateSchema : undefined
>;

/** Options of {@link LangChainToolSearch.middleware}. */
export interface ToolSearchMiddlewareConfig {
  /** The middleware's name; unique among an agent's middleware. Default `toolscout`. */
  name?: string;
}

const DEFAULT_MIDDLEWARE_NAME = 'toolscout';
/** Threads whose last model call's step is kept for its tool calls; older ones fall back to a new step. */
const MAX_PENDING_THREADS = 1000;

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof (value as Partial<Iterable<unknown>> | null | undefined)?.[Symbol.iterator] === 'function';
}

function threadIdOf(config: ToolSearchRunConfig | undefined): string | undefined {
  const threadId = config?.configurable?.thread_id;
  if (typeof threadId === 'string' && threadId !== '') return threadId;
  return typeof threadId === 'number' ? String(threadId) : undefined;
}

function toolNameOf(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function stringify(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

/** The model-facing ToolMessage of a successful call. */
function resultMessage(output: unknown, call: ToolCall): ToolMessage {
  const toolCallId = call.id ?? '';
  if (ToolMessage.isInstance(output)) {
    if (output.tool_call_id === toolCallId && output.name === call.name) return output;
    // E.g. `call_tool` in proxy mode: the target tool's result, answering the call_tool call.
    return new ToolMessage({
      content: output.content,
      artifact: output.artifact,
      status: output.status ?? 'success',
      tool_call_id: toolCallId,
      name: call.name,
    });
  }
  return new ToolMessage({ content: stringify(output), tool_call_id: toolCallId, name: call.name, status: 'success' });
}

function errorMessage(message: string, call: ToolCall): ToolMessage {
  return new ToolMessage({ content: message, tool_call_id: call.id ?? '', name: call.name, status: 'error' });
}

/** The messages before the AIMessage that made this call: what the model saw when it made it. */
function messagesBefore(messages: readonly BaseMessage[], toolCallId: string | undefined): readonly BaseMessage[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (AIMessage.isInstance(message) && message.tool_calls?.some((call) => call.id === toolCallId)) {
      return messages.slice(0, index);
    }
  }
  return messages;
}

/**
 * Tool search for LangChain JS: one {@link ToolSearchSession} wired to `createAgent` (through
 * {@link LangChainToolSearch.middleware}) or to a custom LangGraph graph (through
 * {@link LangChainToolSearch.toolsFor} and {@link LangChainToolSearch.toolNode}). All behaviour
 * (ranking, meta-tools, loaded state, policy, errors) is the session's; this class converts tools and
 * messages and routes every call through `step.execute`.
 *
 * @example
 * ```ts
 * const search = new LangChainToolSearch({ catalog: [weatherTool, emailTool, ...manyMore] });
 * const agent = createAgent({ model, tools: [], middleware: [search.middleware()] });
 * ```
 */
export class LangChainToolSearch<TState extends LangChainStateStrategy = LangChainStateStrategy> {
  /** The session all behaviour lives in (telemetry: `session.subscribe`; tokens: `session.measureStep`). */
  readonly session: ToolSearchSession;
  /** Whether loaded tools live in the agent state (`state: 'agent-state'`). */
  readonly usesAgentState: boolean;
  private readonly resourceIdOf: ((config: ToolSearchRunConfig) => string | undefined) | undefined;
  private readonly metaNames: ReadonlySet<string>;
  private readonly directTools: ReadonlyMap<string, CatalogTool>;
  private readonly recordingToolName: string | undefined;
  private readonly langChainTools = new WeakMap<CatalogTool, LangChainTool>();
  private readonly metaTools = new Map<string, LangChainTool>();
  private readonly pendingSteps = new Map<string, { step: ToolSearchStep; callIds: Set<string> }>();

  constructor(options: LangChainToolSearchOptions<TState>) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidOptionError(
        'options',
        `Tool search needs options with a catalog, e.g. { catalog: [weatherTool] }; got ${describeValue(options)}.`,
      );
    }
    const { catalog, tools, state, resourceId, ...sessionOptions } = options;
    if (!(catalog instanceof ToolCatalog) && !isIterable(catalog)) {
      throw new InvalidOptionError(
        'catalog',
        `catalog must be a ToolCatalog or an iterable of LangChain tools or tool descriptors; got ${describeValue(catalog)}.`,
      );
    }
    if (tools !== undefined && !isIterable(tools)) {
      throw new InvalidOptionError(
        'tools',
        `tools must be an iterable of LangChain tools or tool descriptors; got ${describeValue(tools)}.`,
      );
    }
    if (resourceId !== undefined && typeof resourceId !== 'function') {
      throw new InvalidOptionError(
        'resourceId',
        `resourceId must be a function of the run config; got ${describeValue(resourceId)}.`,
      );
    }
    this.usesAgentState = state === 'agent-state';
    this.resourceIdOf = resourceId;
    const directDescriptors = tools === undefined ? [] : fromLangChainTools(tools);
    this.session = new ToolSearchSession({
      ...sessionOptions,
      catalog: catalog instanceof ToolCatalog ? catalog : fromLangChainTools(catalog),
      tools: directDescriptors,
      // With `agent-state`, the step's loaded tools come from the state, given as a load record.
      state: state === 'agent-state' ? 'conversation' : (state as LoadedStateStrategy | undefined),
    });
    this.directTools = new Map(new ToolCatalog(directDescriptors).list().map((tool) => [tool.toolName, tool]));
    this.metaNames = new Set(this.session.metaTools.map((tool) => tool.name));
    this.recordingToolName =
      this.session.mode === 'auto-load'
        ? this.session.metaToolName('search')
        : (this.session.metaToolName('load') ?? this.session.metaToolName('discover'));
  }

  /** Whether a tool name belongs to the session: a meta-tool, a direct tool or a catalog tool. */
  handles(name: string): boolean {
    const { catalog } = this.session;
    return (
      this.metaNames.has(name) ||
      this.directTools.has(name) ||
      catalog.getByToolName(name) !== undefined ||
      catalog.has(name)
    );
  }

  /**
   * Prepares a step for a custom graph: the tools to bind for the next model call, given the
   * conversation so far (`state.messages`). Use {@link toolsFor} when the tools are all you need.
   */
  async prepareStep(
    messages: readonly BaseMessage[],
    request: ToolSearchRequest = {},
  ): Promise<PreparedToolSearchStep> {
    this.assertSessionState('prepareStep');
    return this.prepare(messages, request, undefined, new Map());
  }

  /**
   * The tools to bind for the next model call of a custom graph:
   * `model.bindTools(await search.toolsFor(state.messages, { config }))`.
   */
  async toolsFor(messages: readonly BaseMessage[], request: ToolSearchRequest = {}): Promise<LangChainTool[]> {
    return (await this.prepareStep(messages, request)).tools;
  }

  /**
   * A node for custom graphs that runs the last AIMessage's tool calls through the session (see
   * {@link ToolSearchNode}): `graph.addNode('tools', search.toolNode())`. The step is prepared from
   * the messages before that AIMessage, so the calls are judged against what the model was offered.
   */
  toolNode(): ToolSearchNode {
    this.assertSessionState('toolNode');
    return async (state, config) => {
      const messages = (state as Partial<ToolSearchNodeState> | undefined)?.messages;
      if (!Array.isArray(messages)) {
        throw new TypeError(
          `The toolscout tool node expects a state with a "messages" array; got ${describeValue(messages)}.`,
        );
      }
      let index = messages.length - 1;
      while (index >= 0 && !AIMessage.isInstance(messages[index])) index--;
      if (index < 0)
        throw new Error('The toolscout tool node runs after a model call, but the messages hold no AIMessage.');
      const message = messages[index] as AIMessage;
      const answered = new Set(
        messages.slice(index + 1).flatMap((item) => (ToolMessage.isInstance(item) ? [item.tool_call_id] : [])),
      );
      const calls = (message.tool_calls ?? []).filter((call) => call.id === undefined || !answered.has(call.id));
      if (calls.length === 0) return { messages: [] };
      const step = await this.session.prepareStep(this.stepRequest(messages.slice(0, index), { config }, undefined));
      const outputs = await Promise.all(
        calls.map((call) =>
          this.runCall(step, call, (tool, input) => invokeTool(tool, call, input, config, state), config?.signal),
        ),
      );
      if (!outputs.some((output) => isCommand(output))) return { messages: outputs as ToolMessage[] };
      return outputs.map((output) => (isCommand(output) ? output : { messages: [output] }));
    };
  }

  /**
   * The `createAgent` middleware: `wrapModelCall` offers the step's tools (beside the agent's own),
   * and `wrapToolCall` runs calls of meta-tools, direct and catalog tools through the step, supplying
   * the loaded catalog tools that were never registered with the agent. Tool errors reach the model
   * as ToolMessages with `status: 'error'`.
   */
  middleware(config: ToolSearchMiddlewareConfig = {}): ToolSearchAgentMiddleware<TState> {
    const stateSchema = this.usesAgentState ? createLoadedToolsStateSchema() : undefined;
    const middleware = createMiddleware({
      name: config.name ?? DEFAULT_MIDDLEWARE_NAME,
      stateSchema,
      wrapModelCall: async (request, handler) => {
        const runConfig = request.runtime as ToolSearchRunConfig;
        const registered = new Map<string, LangChainTool>();
        const others: typeof request.tools = [];
        for (const tool of request.tools) {
          const name = toolNameOf(tool);
          if (name !== undefined && isLangChainTool(tool) && this.handles(name)) {
            this.checkRegistered(name, tool);
            registered.set(name, tool);
          } else {
            others.push(tool);
          }
        }
        const loaded = this.usesAgentState ? loadedToolsOf(request.state) : undefined;
        const { step, tools } = await this.prepare(request.messages, { config: runConfig }, loaded, registered);
        const response = await handler({ ...request, tools: [...others, ...tools] });
        this.rememberStep(runConfig, step, response);
        return response;
      },
      wrapToolCall: async (request, handler) => {
        const call = request.toolCall;
        // The agent's own tools run as LangChain runs them.
        if (!this.handles(call.name) && request.tool !== undefined) return handler(request);
        const runConfig = request.runtime as ToolSearchRunConfig;
        // The step of the model call that made this call; a new one from the messages before it when
        // that step is gone (a resumed interrupt, another process).
        const step =
          this.takeStep(runConfig, call.id) ??
          (await this.session.prepareStep(
            this.stepRequest(
              messagesBefore(request.state.messages, call.id),
              { config: runConfig },
              this.usesAgentState ? loadedToolsOf(request.state) : undefined,
            ),
          ));
        const runInAgent: RunLangChainTool = async (tool, input) =>
          handler({ ...request, toolCall: { ...call, name: tool.name, args: input as Record<string, unknown> }, tool });
        return this.runCall(step, call, runInAgent, runConfig.signal);
      },
    });
    // The state schema is there exactly when TState is 'agent-state'.
    return middleware as unknown as ToolSearchAgentMiddleware<TState>;
  }

  private assertSessionState(method: string): void {
    if (this.usesAgentState) {
      throw new InvalidOptionError(
        'state',
        `${method}() cannot be used with state 'agent-state': that strategy keeps loaded tools in createAgent's state and works through the middleware only. In a custom graph use 'conversation', 'memory' or a LoadedToolStore.`,
      );
    }
  }

  /** A tool registered with the agent under a session name must be the session's own object. */
  private checkRegistered(name: string, tool: LangChainTool): void {
    const own =
      this.directTools.get(name) ?? this.session.catalog.getByToolName(name) ?? this.session.catalog.get(name);
    if (own !== undefined && own.tool === tool) return;
    const what = this.metaNames.has(name)
      ? 'a toolscout meta-tool'
      : 'a different tool in the toolscout catalog or tools';
    throw new InvalidOptionError(
      'tools',
      `createAgent's tools include a tool named "${name}", and ${what} has that name. Give each tool once: in the toolscout catalog (searchable) or the middleware's tools (always offered), or rename it.`,
    );
  }

  private stepRequest(
    messages: readonly BaseMessage[],
    request: ToolSearchRequest,
    loaded: readonly string[] | undefined,
  ): StepRequest {
    const { config } = request;
    return {
      threadId: request.threadId ?? threadIdOf(config),
      resourceId: request.resourceId ?? this.resourceIdOf?.(config ?? {}),
      context: request.context !== undefined ? request.context : config?.context,
      conversation: loaded === undefined ? conversationFromMessages(messages) : this.loadRecord(loaded),
    };
  }

  /** The agent state's loaded tools, as the one load result core reads them from. */
  private loadRecord(loaded: readonly string[]): ConversationEntry[] {
    if (loaded.length === 0 || this.recordingToolName === undefined) return [];
    return [{ type: 'tool-result', toolName: this.recordingToolName, output: { loaded: [...loaded] } }];
  }

  /** The tool names a meta-tool result loaded (or found already loaded), as core reads them. */
  private loadsIn(toolName: string, output: unknown): string[] {
    if (!this.metaNames.has(toolName)) return [];
    const { session } = this;
    return loadedNamesFromConversation([{ type: 'tool-result', toolName, output }], {
      load: session.metaToolName('load'),
      autoLoadSearch: session.mode === 'auto-load' ? session.metaToolName('search') : undefined,
      discover: session.metaToolName('discover'),
    });
  }

  private async prepare(
    messages: readonly BaseMessage[],
    request: ToolSearchRequest,
    loaded: readonly string[] | undefined,
    registered: ReadonlyMap<string, LangChainTool>,
  ): Promise<PreparedToolSearchStep> {
    const step = await this.session.prepareStep(this.stepRequest(messages, request, loaded));
    return { step, tools: step.tools.map((offered) => this.toLangChain(offered, registered)) };
  }

  /** The LangChain tool the model is offered for one of the step's tools. */
  private toLangChain(offered: OfferedTool, registered: ReadonlyMap<string, LangChainTool>): LangChainTool {
    if (offered.kind === 'meta' || offered.tool === undefined) {
      const cached = this.metaTools.get(offered.name);
      if (cached !== undefined && cached.description === offered.description) return cached;
      const name = offered.name;
      const tool = new DynamicStructuredTool({
        name,
        description: offered.description,
        schema: structuredClone(offered.inputSchema),
        func: async () => {
          throw new Error(
            `"${name}" is a toolscout meta-tool: it runs through the toolscout middleware or tool node only.`,
          );
        },
      });
      this.metaTools.set(name, tool);
      return tool;
    }
    // A tool the agent registered up front must be offered as that very object.
    const own = registered.get(offered.name);
    if (own !== undefined) return own;
    let tool = this.langChainTools.get(offered.tool);
    if (tool === undefined) {
      tool = toLangChainTool(offered.tool);
      this.langChainTools.set(offered.tool, tool);
    }
    return tool;
  }

  private threadKey(config: ToolSearchRunConfig): string | undefined {
    const threadId = threadIdOf(config);
    if (threadId === undefined) return undefined;
    return `${this.resourceIdOf?.(config) ?? ''}\u0000${threadId}`;
  }

  /**
   * Keeps a thread's step for the tool calls of the model's response: parallel calls run as separate
   * tasks and must all be judged against the step the model was offered (not a later one that
   * already holds a sibling call's load).
   */
  private rememberStep(config: ToolSearchRunConfig, step: ToolSearchStep, response: unknown): void {
    const key = this.threadKey(config);
    if (key === undefined) return;
    this.pendingSteps.delete(key);
    if (!AIMessage.isInstance(response)) return;
    const callIds = new Set((response.tool_calls ?? []).flatMap((call) => (call.id ? [call.id] : [])));
    if (callIds.size === 0) return;
    this.pendingSteps.set(key, { step, callIds });
    if (this.pendingSteps.size > MAX_PENDING_THREADS) {
      const oldest = this.pendingSteps.keys().next().value;
      if (oldest !== undefined) this.pendingSteps.delete(oldest);
    }
  }

  private takeStep(config: ToolSearchRunConfig, callId: string | undefined): ToolSearchStep | undefined {
    const key = this.threadKey(config);
    if (key === undefined || callId === undefined) return undefined;
    const pending = this.pendingSteps.get(key);
    if (!pending?.callIds.delete(callId)) return undefined;
    if (pending.callIds.size === 0) this.pendingSteps.delete(key);
    return pending.step;
  }

  /** Runs one tool call through the step; never throws for a tool's or the model's error. */
  private async runCall(
    step: ToolSearchStep,
    call: ToolCall,
    runTool: RunLangChainTool,
    signal: AbortSignal | undefined,
  ): Promise<ToolMessage | Command> {
    let outcome: ToolCallOutcome;
    try {
      const host: LangChainCallHost = { runLangChainTool: runTool };
      outcome = await step.execute(call.name, call.args, { abortSignal: signal, host });
    } catch (error) {
      if (isGraphBubbleUp(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return errorMessage(`Tool "${call.name}" could not run: ${reason}`, call);
    }
    if (!outcome.ok) {
      const { cause } = outcome.error;
      // Interrupts (human in the loop), parent-graph commands and aborts are the graph's, not errors.
      if (outcome.error.code === 'execution-failed' && (isGraphBubbleUp(cause) || signal?.aborted)) throw cause;
      return errorMessage(outcome.error.message, call);
    }
    const { output } = outcome;
    if (isCommand(output)) return output;
    const message = resultMessage(output, call);
    if (this.usesAgentState) {
      const loads = this.loadsIn(call.name, output);
      if (loads.length > 0) return new Command({ update: { messages: [message], [LOADED_TOOLS_STATE_KEY]: loads } });
    }
    return message;
  }
}

/** Runs a LangChain tool for a call in a custom graph, with the `ToolRuntime` LangGraph's ToolNode gives. */
async function invokeTool(
  tool: LangChainTool,
  call: ToolCall,
  input: unknown,
  config: ToolSearchRunConfig | undefined,
  state: ToolSearchNodeState,
): Promise<unknown> {
  const invoke = tool.invoke.bind(tool) as (input: unknown, config?: Record<string, unknown>) => Promise<unknown>;
  const runConfig = (config ?? {}) as ToolSearchRunConfig & { store?: unknown; writer?: unknown };
  const runtime = {
    ...runConfig,
    state,
    toolCallId: call.id ?? '',
    config: runConfig,
    context: runConfig.context,
    store: runConfig.store ?? null,
    writer: runConfig.writer ?? runConfig.configurable?.writer ?? null,
  };
  return invoke({ ...call, name: tool.name, args: input, type: 'tool_call' }, runtime);
}
