import type { ProcessInputStepArgs, ProcessInputStepResult, Processor } from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import type { Tool } from '@mastra/core/tools';
import { ToolSearchSession } from '@toolscout/core';
import {
  activeStepTools,
  agentToolsOfRequest,
  correctUnroutedCalls,
  keptTools,
  RequestToolDescriptors,
  runStateEntry,
  stepToolRecord,
  toolInvocationsOf,
  type UnroutedCallsMemo,
} from '@toolscout/core/internal';
import { conversationFromMessages } from './conversation-from-messages.js';
import { fromMastraTool, type MastraTool } from './from-mastra-tools.js';
import { stepRequest } from './request-ids.js';
import { toMastraTool } from './to-mastra-tool.js';
import { type ToolSearchProcessorOptions, toSessionOptions } from './tool-search-processor-options.js';

/** A request's tools as Mastra hands them to processors, by name. */
type RequestTools = Readonly<Record<string, unknown>>;

/** How Mastra reports a call of a tool that is not in the step's tools. */
function isToolNotFound(toolName: string, errorText: string): boolean {
  return errorText.startsWith(`Tool "${toolName}" not found.`);
}

/** Where the processor keeps its part of a run's processor state. */
const RUN_STATE_KEY = 'toolscout';

/**
 * Tool search for Mastra agents: a drop-in for Mastra's own `ToolSearchProcessor` (same options, meta-tools and result
 * shapes) over toolscout's session. The README lists what it adds and where it differs.
 *
 * @example
 * ```ts
 * const toolSearch = new ToolSearchProcessor({ tools: await mcp.listTools(), search: { topK: 5 } });
 * const agent = new Agent({ id: 'assistant', name: 'Assistant', instructions, model, inputProcessors: [toolSearch] });
 * ```
 */
export class ToolSearchProcessor implements Processor<'tool-search'> {
  /** The same id as Mastra's own processor, so configuration keyed by it keeps working. */
  readonly id = 'tool-search';
  readonly name = 'Tool Search Processor';
  readonly description = 'Enables dynamic tool discovery and loading via search (toolscout)';
  /** The toolscout session: `search`, `subscribe` to telemetry, `measureStep`, the catalog. */
  readonly session: ToolSearchSession<MastraTool>;
  /** With `includeResolvedTools`: the request's tools as searchable descriptors, converted once per tool. */
  readonly #resolved?: RequestToolDescriptors<MastraTool, unknown>;
  /** Each request's own tools (Mastra's steps see them with the session's loaded wrappers mixed in). */
  readonly #requestTools = new WeakMap<RequestContext, RequestTools>();

  /** @throws InvalidOptionError for a bad option (`option` names it); the errors of `fromMastraTools`. */
  constructor(options: ToolSearchProcessorOptions) {
    this.session = new ToolSearchSession(toSessionOptions(options));
    if (options.includeResolvedTools)
      this.#resolved = new RequestToolDescriptors((tool, key) => fromMastraTool(tool as MastraTool, key));
  }

  /**
   * Prepares a step: corrects Mastra's "not found" errors of the previous step, adds the system message about tool
   * search (once per request), then offers the meta-tools, the agent's own tools (which win over catalog tools of their
   * names; searchable instead with `includeResolvedTools`) and the pinned and loaded tools, each bound to this step.
   */
  async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult> {
    const runState = runStateEntry<UnroutedCallsMemo<MastraTool>>(args.state, RUN_STATE_KEY);
    // Mastra answers a call of a tool the step did not offer itself; the step the call was made at knows better.
    await correctUnroutedCalls(toolInvocationsOf(args.messages), runState, isToolNotFound);
    const requestTools = (args.requestContext && this.#requestTools.get(args.requestContext)) ?? args.tools;
    const { step, own } = await this.#prepare(args.requestContext, requestTools, args.messages);
    runState.step = step;
    if (step.instructions !== undefined) args.messageList.addSystem(step.instructions, 'tool-search');
    const tools = stepToolRecord<MastraTool, unknown>(step, own, (offered) => toMastraTool(offered, step));
    if (!Array.isArray(args.activeTools)) return { tools };
    return { tools, activeTools: activeStepTools(step, Object.keys(tools), args.activeTools) };
  }

  /** A step of a request whose agent has `tools` (searchable with `includeResolvedTools`, else its own, which win). */
  async #prepare(
    requestContext: RequestContext | undefined,
    tools?: RequestTools,
    messages?: unknown[],
    quiet = false,
  ) {
    const { own, request } = agentToolsOfRequest(tools, (name) => this.session.isMetaTool(name), this.#resolved);
    const conversation = messages && conversationFromMessages(messages);
    const step = await this.session.prepareStep(
      { ...stepRequest(requestContext, conversation), ...request },
      { quiet },
    );
    return { step, own };
  }

  /**
   * The pinned and loaded tools of a request, as Mastra tools. Mastra calls it when a run starts and when an approved
   * (or resumed) call runs, so a loaded tool that needs approval resumes with its executor: its call runs through the
   * step prepared here (quietly: it is not a model step). With `stepArgs`, loaded tools are read from those messages;
   * without them (a resumed approval under `storage: 'context'`), the session offers the tools loaded at the thread's
   * last step. `tools` (the request's own tools) are kept for the request's steps, where Mastra mixes in these.
   */
  async getLoadedToolsForRequestContext(
    args: { requestContext?: RequestContext; stepArgs?: ProcessInputStepArgs; tools?: Record<string, unknown> } = {},
  ): Promise<Record<string, Tool>> {
    const requestContext = args.requestContext ?? args.stepArgs?.requestContext;
    if (requestContext && args.tools) this.#requestTools.set(requestContext, args.tools);
    const tools = args.tools ?? args.stepArgs?.tools;
    const { step } = await this.#prepare(requestContext, tools, args.stepArgs?.messages, true);
    return keptTools(step, (offered) => toMastraTool(offered, step));
  }

  /**
   * Forgets the loaded tools of one thread (of one resource, when threads are per resource). With `storage: 'context'`
   * the conversation is the state: it forgets only the loads kept for an approval resumed without its messages.
   */
  async clearState(threadId?: string, resourceId?: string): Promise<void> {
    if (threadId !== undefined) await this.session.clearState(threadId, resourceId);
  }

  /** Forgets the loaded tools of every thread. */
  async clearAllState(): Promise<void> {
    await this.session.clearAllState();
  }

  /** Threads held by the in-memory store and when the least recently used one was last touched (ms epoch). */
  getStateStats(): { threadCount: number; oldestAccessTime: number | null } {
    const { threads = 0, oldestAccessMs } = this.session.memoryStore?.stats() ?? {};
    const oldest = threads > 0 && oldestAccessMs !== undefined ? Date.now() - oldestAccessMs : null;
    return { threadCount: threads, oldestAccessTime: oldest };
  }

  /** Drops expired threads from the in-memory store now; returns how many. 0 for other storage. */
  cleanupNow(): number {
    return this.session.memoryStore?.cleanupNow() ?? 0;
  }

  /** Releases the session (index, in-memory store and its timer). */
  dispose(): void {
    this.session.dispose();
  }
}
