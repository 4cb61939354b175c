import type { ProcessInputStepArgs, ProcessInputStepResult, Processor } from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import type { Tool } from '@mastra/core/tools';
import {
  type CatalogTool,
  type ConversationEntry,
  type Embedder,
  type LoadedToolStore,
  type MetaToolsConfig,
  type OfferedTool,
  type PolicyPhase,
  type StepRequest,
  type ToolSearchEventListener,
  type ToolSearchMode,
  ToolSearchSession,
  type ToolSearchSessionOptions,
  type ToolSearchStep,
} from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { isRecord } from '@toolscout/core/internal';
import { conversationFromMessages, toolInvocationsOf } from './conversation-from-messages.js';
import { fromMastraTools, type MastraTool, type MastraToolInput } from './from-mastra-tools.js';
import { requestIds } from './request-ids.js';
import { toMastraTool } from './to-mastra-tool.js';

/**
 * When the filter is asked: `search` (may the tool appear in results?), `load` (may it be loaded?),
 * `active` (may a loaded or pinned tool be offered at this step?) — the phases of Mastra's processor —
 * and `call` (may this call run? asked with the call's `input`), which Mastra's processor lacks.
 */
export type ToolSearchFilterPhase = PolicyPhase;

/** What the `filter` option is asked about. A superset of Mastra's `ToolSearchFilterArgs`. */
export interface ToolSearchFilterArgs {
  /** The tool's id (its record key when it has none). */
  toolName: string;
  /**
   * The tool as you gave it; for a descriptor without a Mastra tool, its catalog entry (with `tags`
   * and `source`; `processor.session.catalog.get(toolName)` has it for every tool).
   */
  tool: MastraTool;
  /** The request's context, as Mastra passes it to processors and tools. */
  requestContext?: RequestContext;
  /** What is being decided: `search`, `load`, `active` or `call`. */
  phase: ToolSearchFilterPhase;
  /** The request's thread (`mastra__threadId`, or the memory thread). */
  threadId?: string;
  /** The request's resource (`mastra__resourceId`, or the memory resource). */
  resourceId?: string;
  /** For `call`: the arguments of the call. */
  input?: unknown;
}

/**
 * Options of {@link ToolSearchProcessor}. The options of Mastra's own `ToolSearchProcessor` keep their
 * names and meaning (`tools`, `search.topK`, `search.minScore`, `search.autoLoad`, `storage`, `ttl`,
 * `filter`); the rest are toolscout's.
 */
export interface ToolSearchProcessorOptions {
  /**
   * The searchable tools: a record of Mastra tools by name (as Mastra's processor takes them; a tool
   * without an `id` is known by its key), or a list of Mastra tools and toolscout descriptors. Tools
   * an `MCPClient` returns (`await mcp.listTools()`) work as they are. Two tools with one id are
   * rejected (`DuplicateToolError`).
   */
  tools: MastraToolInput;
  /** How `search_tools` ranks and answers. */
  search?: {
    /** How many tools `search_tools` returns. Default 5. */
    topK?: number;
    /**
     * Leaves out hits scoring below this. toolscout scores are relevance in [0, 1] (1: the best
     * possible match), not Mastra's raw BM25 scores, so a Mastra value above 1 is rejected. Default:
     * the index's (0.1), which drops hits whose only evidence is a common word or a typo.
     */
    minScore?: number;
    /**
     * `search_tools` loads what it finds; there is no `load_tool`. Same as `mode: 'auto-load'`. Keep
     * `topK` small with it. Default false.
     */
    autoLoad?: boolean;
  };
  /**
   * Where loaded tools live:
   * - `'in-memory'` (default): in this process, per thread (and resource), with a TTL (`ttl`).
   *   A request without a thread reads its loaded tools from its own messages instead: nothing is
   *   shared between anonymous requests.
   * - `'context'`: derived from the conversation at every step: a tool is loaded while a
   *   `load_tool` result (or, with `autoLoad`, a `search_tools` result) naming it is in the
   *   messages. Restart-safe; a plain search result is never a load.
   */
  storage?: 'in-memory' | 'context';
  /**
   * Idle time after which a thread's loaded tools are forgotten, in ms, for `storage: 'in-memory'`.
   * `0` keeps them forever. Default 3,600,000 (1 hour). Ignored with `storage: 'context'`.
   */
  ttl?: number;
  /**
   * Decides, per request, whether a tool may be searched, loaded, offered or called (see
   * {@link ToolSearchFilterPhase}). Sync or async; a filter that throws means "no".
   */
  filter?(args: ToolSearchFilterArgs): boolean | Promise<boolean>;
  /**
   * How long one operation (a step's preparation, a search, one call) waits for an async `filter`,
   * in ms; answers still pending then mean "no". Default 5,000.
   */
  filterTimeoutMs?: number;
  /**
   * Not supported (`true` is rejected): pass the tools to search in `tools`, e.g.
   * `await mcp.listTools()`. Tools resolved for the agent itself are always offered.
   */
  includeResolvedTools?: boolean;
  /** Not supported (`true` is rejected): `mode: 'catalog'` lists the catalog in the discovery tool. */
  injectCatalog?: boolean;
  /**
   * How the model reaches the catalog: `search-load` (default: `search_tools` + `load_tool`),
   * `auto-load` (same as `search.autoLoad`), `catalog` (a listing in the discovery tool, for tens of
   * tools) or `proxy` (`search_tools`, `describe_tool`, `call_tool`; the offered tools never change).
   */
  mode?: ToolSearchMode;
  /** Ids of tools offered at every step without being searched or loaded. */
  pinned?: readonly string[];
  /**
   * A loaded-tool store shared by several server instances (e.g. `@toolscout/redis`), instead of
   * `storage`.
   */
  store?: LoadedToolStore;
  /** Turns on hybrid search: tools are also ranked by meaning with this embedder. */
  embedder?: Embedder;
  /** Receives every telemetry event: steps, searches, loads, calls, blocks, self-corrections. */
  onEvent?: ToolSearchEventListener;
  /** Names and descriptions of the meta-tools (defaults: `search_tools`, `load_tool`, ...). */
  metaTools?: MetaToolsConfig;
  /** Characters of a tool description kept in search results. Default 160. */
  descriptionBudget?: number;
  /** In `catalog` mode, what the listing shows. Default `names-and-summaries`. */
  catalogListing?: 'names' | 'names-and-summaries';
}

interface RunState {
  /** The step prepared last in this request. */
  step?: ToolSearchStep<MastraTool>;
  /** Tool calls whose outcome was already seen (and corrected when needed). */
  seen?: Set<string>;
}

const RUN_STATE_KEY = 'toolscout';

function checkOptions(options: ToolSearchProcessorOptions): void {
  if (!isRecord(options)) {
    throw new InvalidOptionError(
      'options',
      'ToolSearchProcessor needs an options object: new ToolSearchProcessor({ tools }).',
    );
  }
  if (options.tools === undefined) {
    throw new InvalidOptionError(
      'tools',
      'ToolSearchProcessor needs `tools`: the searchable tools, by name or as a list.',
    );
  }
  const { topK, minScore, autoLoad } = options.search ?? {};
  if (topK !== undefined && (!Number.isSafeInteger(topK) || topK < 1)) {
    throw new InvalidOptionError('search.topK', `search.topK must be a whole number >= 1, got ${String(topK)}.`);
  }
  if (minScore !== undefined) {
    if (typeof minScore !== 'number' || !Number.isFinite(minScore) || minScore < 0) {
      throw new InvalidOptionError(
        'search.minScore',
        `search.minScore must be a number in [0, 1], got ${String(minScore)}.`,
      );
    }
    if (minScore > 1) {
      throw new InvalidOptionError(
        'search.minScore',
        `search.minScore is a relevance in [0, 1] in toolscout (Mastra's processor used raw BM25 scores); got ${minScore}. Try 0.1 to 0.3, or leave it out for the default.`,
      );
    }
  }
  if (autoLoad !== undefined && typeof autoLoad !== 'boolean') {
    throw new InvalidOptionError('search.autoLoad', `search.autoLoad must be a boolean, got ${String(autoLoad)}.`);
  }
  if (autoLoad === true && options.mode !== undefined && options.mode !== 'auto-load') {
    throw new InvalidOptionError(
      'search.autoLoad',
      `search.autoLoad is mode 'auto-load', but mode is '${options.mode}'; give one of the two.`,
    );
  }
  if (options.storage !== undefined && options.storage !== 'in-memory' && options.storage !== 'context') {
    throw new InvalidOptionError(
      'storage',
      `storage must be 'in-memory' or 'context', got ${JSON.stringify(options.storage)}.`,
    );
  }
  if (options.store !== undefined) {
    if (
      !isRecord(options.store) ||
      typeof options.store.get !== 'function' ||
      typeof options.store.add !== 'function'
    ) {
      throw new InvalidOptionError('store', 'store must be a LoadedToolStore (get, add, remove, clear, clearAll).');
    }
    if (options.storage !== undefined) {
      throw new InvalidOptionError('store', `Give either store or storage ('${options.storage}'), not both.`);
    }
    if (options.ttl !== undefined) {
      throw new InvalidOptionError('ttl', 'ttl applies to the in-memory store; set the expiry on your store instead.');
    }
  }
  if (options.includeResolvedTools !== undefined && options.includeResolvedTools !== false) {
    throw new InvalidOptionError(
      'includeResolvedTools',
      'includeResolvedTools is not supported: pass the tools to search in `tools` (e.g. await mcp.listTools()); tools given to the agent itself are always offered.',
    );
  }
  if (options.injectCatalog !== undefined && options.injectCatalog !== false) {
    throw new InvalidOptionError(
      'injectCatalog',
      "injectCatalog is not supported: use mode: 'catalog', which lists the catalog in the discovery tool's description.",
    );
  }
  if (options.filter !== undefined && typeof options.filter !== 'function') {
    throw new InvalidOptionError(
      'filter',
      'filter must be a function ({ toolName, tool, requestContext, phase }) => boolean.',
    );
  }
  if (
    options.pinned !== undefined &&
    (!Array.isArray(options.pinned) || options.pinned.some((id) => typeof id !== 'string'))
  ) {
    throw new InvalidOptionError('pinned', 'pinned must be an array of tool ids.');
  }
}

function toSessionOptions(options: ToolSearchProcessorOptions): ToolSearchSessionOptions<MastraTool> {
  const descriptors = fromMastraTools(options.tools);
  if (options.pinned !== undefined && options.pinned.length > 0) {
    const pinned = new Set(options.pinned);
    const ids = new Set(descriptors.map((descriptor) => descriptor.id));
    const unknown = [...pinned].filter((id) => !ids.has(id));
    if (unknown.length > 0) {
      throw new InvalidOptionError('pinned', `pinned names tools that are not in tools: ${unknown.join(', ')}.`);
    }
    for (const [index, descriptor] of descriptors.entries()) {
      if (pinned.has(descriptor.id)) descriptors[index] = { ...descriptor, pinned: true };
    }
  }
  const session: ToolSearchSessionOptions<MastraTool> = { catalog: descriptors };
  const mode = options.mode ?? (options.search?.autoLoad ? 'auto-load' : undefined);
  if (mode !== undefined) session.mode = mode;
  const search: NonNullable<ToolSearchSessionOptions['search']> = {};
  if (options.search?.topK !== undefined) search.limit = options.search.topK;
  if (options.search?.minScore !== undefined) search.minScore = options.search.minScore;
  session.search = search;
  if (options.store !== undefined) session.state = options.store;
  else if (options.storage === 'context') session.state = 'conversation';
  else {
    session.state = 'memory';
    if (options.ttl !== undefined) session.memory = { ttlMs: options.ttl };
  }
  const filter = options.filter;
  if (filter !== undefined) {
    session.filter = (request) =>
      filter({
        toolName: request.toolId,
        tool: request.tool.tool ?? request.tool,
        requestContext: request.context as RequestContext | undefined,
        phase: request.phase,
        threadId: request.threadId,
        resourceId: request.resourceId,
        input: request.input,
      });
  }
  if (options.filterTimeoutMs !== undefined) session.filterTimeoutMs = options.filterTimeoutMs;
  if (options.embedder !== undefined) session.indexOptions = { embedder: options.embedder };
  if (options.onEvent !== undefined) session.onEvent = options.onEvent;
  if (options.metaTools !== undefined) session.metaTools = options.metaTools;
  if (options.descriptionBudget !== undefined) session.descriptionBudget = options.descriptionBudget;
  if (options.catalogListing !== undefined) session.catalogListing = options.catalogListing;
  return session;
}

/** A pinned or loaded catalog tool, offered outside a step (see `getLoadedToolsForRequestContext`). */
function offeredOf(tool: CatalogTool<MastraTool>): OfferedTool<MastraTool> {
  return {
    kind: tool.pinned ? 'pinned' : 'loaded',
    name: tool.toolName,
    description: tool.description ?? '',
    inputSchema: tool.jsonSchema,
    tool,
  };
}

/** How Mastra reports a call of a tool that is not in the step's tools. */
function isToolNotFound(toolName: string, errorText: unknown): boolean {
  return typeof errorText === 'string' && errorText.startsWith(`Tool "${toolName}" not found.`);
}

/**
 * Tool search for Mastra agents: a drop-in for Mastra's own `ToolSearchProcessor` (same options, same
 * meta-tools, same result shapes) over toolscout's session, which ranks with BM25 over weighted
 * fields (names, descriptions, tags, sources, parameters; camelCase and snake_case split), and offers the `auto-load`,
 * `catalog` and `proxy` modes, pinned tools, a shared store, a `call` phase for the filter, and
 * telemetry.
 *
 * At every step it offers the meta-tools, the agent's own tools, then the pinned and loaded tools
 * (in load order, so the prompt prefix stays stable). Calls of catalog tools run through the session:
 * the filter's `call` phase, argument validation, then the original tool with Mastra's context.
 *
 * @example
 * ```ts
 * import { ToolSearchProcessor } from '@toolscout/mastra';
 *
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

  /** @throws InvalidOptionError for a bad option (`option` names it); the errors of `fromMastraTools`. */
  constructor(options: ToolSearchProcessorOptions) {
    checkOptions(options);
    this.session = new ToolSearchSession(toSessionOptions(options));
  }

  /**
   * Prepares a step: corrects Mastra's "not found" errors of the previous step into toolscout's
   * self-correction messages, then offers the meta-tools, the agent's own tools and the pinned and
   * loaded tools, each bound to this step.
   */
  async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult> {
    const runState = this.#runState(args.state);
    await this.#correctUnknownToolCalls(args.messages, runState);
    const request = this.#request(args.requestContext, conversationFromMessages(args.messages));
    const step = await this.session.prepareStep(request);
    runState.step = step;

    const owned = (name: string) =>
      this.session.metaTools.some((meta) => meta.name === name) ||
      this.session.catalog.getByToolName(name) !== undefined;
    const tools: Record<string, unknown> = {};
    for (const offered of step.tools) if (offered.kind === 'meta') tools[offered.name] = toMastraTool(offered, step);
    const agentTools = Object.entries(args.tools ?? {}).filter(([name]) => !owned(name));
    for (const [name, tool] of agentTools) tools[name] = tool;
    for (const offered of step.tools) if (offered.kind !== 'meta') tools[offered.name] = toMastraTool(offered, step);
    const result: ProcessInputStepResult = { tools };
    if (Array.isArray(args.activeTools)) {
      const active = new Set(args.activeTools.filter((name) => !owned(name)));
      result.activeTools = Object.keys(tools).filter((name) => active.has(name) || owned(name));
    }
    return result;
  }

  /**
   * The pinned and loaded tools of a request, as Mastra tools. Mastra calls it when a run starts and
   * when an approved (or resumed) call runs, so a loaded tool that needs approval resumes with its
   * executor. A call of one of them runs through a step prepared at that moment (with the policy's
   * `active` and `call` phases). With `stepArgs`, loaded tools are read from those messages; without
   * them (a resumed approval under `storage: 'context'`), the session offers the tools loaded at the
   * thread's last step.
   */
  async getLoadedToolsForRequestContext(
    args: { requestContext?: RequestContext; stepArgs?: ProcessInputStepArgs; tools?: Record<string, unknown> } = {},
  ): Promise<Record<string, Tool>> {
    const requestContext = args.requestContext ?? args.stepArgs?.requestContext;
    const conversation = args.stepArgs ? conversationFromMessages(args.stepArgs.messages) : undefined;
    const request = this.#request(requestContext, conversation);
    // Prepared on the first call only, quietly: a resumed call is not a model step.
    let step: Promise<ToolSearchStep<MastraTool>> | undefined;
    const stepOnCall = () => {
      step ??= this.session.prepareStep(request, { quiet: true });
      return step;
    };
    const pinned = this.session.catalog.list().filter((tool) => tool.pinned);
    const loaded = this.session.mode === 'proxy' ? [] : await this.session.loadedTools(request);
    const tools: Record<string, Tool> = {};
    for (const tool of [...pinned, ...loaded]) tools[tool.toolName] ??= toMastraTool(offeredOf(tool), stepOnCall);
    return tools;
  }

  /**
   * Forgets the loaded tools of one thread (of one resource, when threads are per resource). A no-op
   * for `storage: 'context'`, where the conversation is the state.
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
    const stats = this.session.memoryStore?.stats();
    if (!stats || stats.threads === 0) return { threadCount: 0, oldestAccessTime: null };
    return {
      threadCount: stats.threads,
      oldestAccessTime: stats.oldestAccessMs === undefined ? null : Date.now() - stats.oldestAccessMs,
    };
  }

  /** Drops expired threads from the in-memory store now; returns how many. 0 for other storage. */
  cleanupNow(): number {
    return this.session.memoryStore?.cleanupNow() ?? 0;
  }

  /** Releases the session (index, in-memory store and its timer). */
  dispose(): void {
    this.session.dispose();
  }

  #request(requestContext: RequestContext | undefined, conversation: ConversationEntry[] | undefined): StepRequest {
    const request: StepRequest = { ...requestIds(requestContext) };
    if (requestContext !== undefined) request.context = requestContext;
    if (conversation !== undefined) request.conversation = conversation;
    return request;
  }

  #runState(state: Record<string, unknown> | undefined): RunState {
    if (!state) return {};
    const existing = state[RUN_STATE_KEY];
    if (isRecord(existing)) return existing as RunState;
    const created: RunState = {};
    state[RUN_STATE_KEY] = created;
    return created;
  }

  /**
   * Mastra answers a call of a tool the step did not offer with its own "Tool "x" not found" error.
   * The previous step knows better (the tool is not loaded yet: load it; or: did you mean ...), so
   * that error text is replaced with the session's message before the model reads it.
   */
  async #correctUnknownToolCalls(messages: readonly unknown[] | undefined, runState: RunState): Promise<void> {
    runState.seen ??= new Set();
    for (const invocation of toolInvocationsOf(messages)) {
      const { toolCallId, toolName, state } = invocation;
      if (typeof toolCallId !== 'string' || typeof toolName !== 'string') continue;
      if ((state !== 'result' && state !== 'output-error') || runState.seen.has(toolCallId)) continue;
      runState.seen.add(toolCallId);
      if (!runState.step || state !== 'output-error' || !isToolNotFound(toolName, invocation.errorText)) continue;
      const verdict = await runState.step.authorize(toolName, invocation.args ?? {});
      if (!verdict.ok) invocation.errorText = verdict.error.message;
    }
  }
}
