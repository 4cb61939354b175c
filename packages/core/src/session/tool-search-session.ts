import { keptName } from '../catalog/aliases.js';
import { type CatalogChange, ToolCatalog } from '../catalog/catalog.js';
import { SessionDisposedError, ToolLimitError } from '../errors.js';
import type { ToolFeedback } from '../feedback/tool-feedback.js';
import { ToolIndex } from '../index/tool-index.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import { DEFAULT_MAX_TOOLS_PER_THREAD, type LoadedToolStore } from '../stores/loaded-tool-store.js';
import type { CatalogTool } from '../types.js';
import { type ConversationEntry, loadedNamesFromConversation } from './conversation.js';
import { DeferredTools } from './deferred-tools.js';
import { undiscoveredListing } from './discovery-listing.js';
import { hostToolFor, hostToolNames } from './host-tools.js';
import { resolveInstructions } from './instructions.js';
import { hostKey, hostKeys, KeptSteps, MAX_REMEMBERED_THREADS } from './kept-steps.js';
import { DESCRIBE_PHASES } from './meta-tool-handlers.js';
import { type MetaToolDefinition, type MetaToolRole, resolveMetaTools, type ToolSearchMode } from './meta-tools.js';
import { type PolicyCheck, sessionPolicyCheck } from './policy.js';
import { Preselector } from './preselect.js';
import { resolvePreselect } from './preselect-options.js';
import { RecentByThread } from './recent-by-thread.js';
import { RequestToolSets, type RequestTools } from './request-tools.js';
import { feedbackOf, noteCall, noteSearch } from './session-feedback.js';
import {
  checkSessionOptions,
  codeModeOf,
  DEFAULT_DESCRIPTION_BUDGET,
  DEFAULT_LIMIT,
  storeOf,
  type ToolSearchSessionOptions,
} from './session-options.js';
import { type ScoredTool, type SearchSources, SUGGESTION_PHASES, searchTools, suggestTools } from './session-search.js';
import { checkSessionTools } from './session-tools.js';
import type { StepContext } from './step-context.js';
import { checkPrepareStepOptions, checkQuery, checkStepRequest, checkThreadIds } from './step-request.js';
import { offeredTokens, StepTokenMeter } from './step-tokens.js';
import type { OfferedTool, PrepareStepOptions, StepRequest, StepTokenReport } from './step-types.js';
import { type SubscribeOptions, TelemetryEmitter, type ToolSearchEventListener } from './telemetry.js';
import { isKeyOfThread, threadKey } from './thread-key.js';
import { ToolSearchStep } from './tool-search-step.js';

/**
 * The tool-search behaviour every adapter exposes, once: which tools the model is offered at each
 * step, how meta-tool calls are answered, where loaded-tool state lives, what policy allows, and
 * what it costs. Adapters call {@link ToolSearchSession.prepareStep} before each model call and run
 * tool calls through the returned {@link ToolSearchStep}.
 *
 * @example
 * ```ts
 * const session = new ToolSearchSession({ catalog: tools });
 * const step = await session.prepareStep({ threadId: 't1' });
 * step.tools.map((t) => t.name); // ['search_tools', 'load_tool']
 * await step.execute('search_tools', { query: 'weather' });
 * ```
 */
export class ToolSearchSession<TTool = unknown> {
  readonly catalog: ToolCatalog<TTool>;
  readonly index: ToolIndex<TTool>;
  readonly mode: ToolSearchMode;
  /** The meta-tools of this mode (the discovery tool is left out of steps once all is discovered). */
  readonly metaTools: readonly MetaToolDefinition[];
  /** The tools offered at every step beside the meta-tools (the `tools` option), never searched. */
  readonly directTools: readonly CatalogTool<TTool>[];
  /** What the model is told about tool search, for the host's system channel (`instructions` option). */
  readonly instructions: string | undefined;
  /** Learning from use (the `feedback` option): what was learned, to record, score or clear; undefined when off. */
  readonly feedback: ToolFeedback | undefined;
  readonly #store: LoadedToolStore | undefined;
  readonly #ownsIndex: boolean;
  readonly #telemetry = new TelemetryEmitter();
  readonly #pinned = new Map<string, CatalogTool<TTool>>();
  readonly #metaNames: ReadonlySet<string>;
  readonly #unsubscribe: () => void;
  #catalogVersion = 0;
  #disposed = false;
  readonly #tokens = new StepTokenMeter<TTool>(() => [...this.directTools, ...this.catalog.list()]);
  /** The steps kept for the tool calls that come after them (see {@link KeptSteps}). */
  readonly #kept = new KeptSteps<ToolSearchStep<TTool>>();
  /** Per thread, where loads are read from the conversation: the tools loaded at its last step. */
  readonly #lastLoads = new RecentByThread<readonly string[]>(MAX_REMEMBERED_THREADS);
  /** What this session's steps ask of it. */
  readonly #steps: StepContext<TTool>;
  readonly #preselect: Preselector<TTool> | undefined;
  readonly #deferred: DeferredTools<TTool>;
  /** The tools requests bring (`StepRequest.tools`) and their shared index. */
  readonly #requestTools: RequestToolSets<TTool>;
  readonly #sources: SearchSources<TTool>;

  constructor(readonly options: ToolSearchSessionOptions<TTool>) {
    this.mode = checkSessionOptions(options);
    this.metaTools = resolveMetaTools(this.mode, options.metaTools);
    this.instructions = resolveInstructions(options.instructions, this.mode, this.metaTools);
    const preselect = resolvePreselect(options.preselect, this.mode);
    this.catalog = options.catalog instanceof ToolCatalog ? options.catalog : new ToolCatalog(options.catalog);
    const metaNames = new Set(this.metaTools.map((tool) => tool.name));
    this.#metaNames = metaNames;
    this.directTools = Object.freeze(new ToolCatalog(options.tools ?? []).list());
    checkSessionTools(metaNames, this.directTools, this.catalog);
    this.#ownsIndex = options.index === undefined;
    this.index = options.index ?? new ToolIndex(this.catalog, options.indexOptions);
    this.#store = storeOf(options);
    this.feedback = feedbackOf(options.feedback, this.catalog);
    for (const tool of this.catalog) if (tool.pinned) this.#pinned.set(tool.id, tool);
    this.#unsubscribe = this.catalog.subscribe((change) => {
      this.#catalogVersion++;
      if (change.type !== 'add') this.#pinned.delete(change.type === 'replace' ? change.previous.id : change.tool.id);
      if (change.type !== 'remove' && change.tool.pinned && !this.#metaNames.has(change.tool.toolName))
        this.#pinned.set(change.tool.id, change.tool);
    });
    if (options.onEvent) this.#telemetry.subscribe(options.onEvent);
    const emit: TelemetryEmitter['emit'] = (event) => this.#telemetry.emit(event);
    this.#deferred = new DeferredTools(options.resolveTimeoutMs, this.directTools, emit);
    this.#requestTools = new RequestToolSets(options, (tool) => metaNames.has(tool.toolName) || !!this.#direct(tool));
    const { catalog, index } = this;
    this.#sources = {
      catalog,
      index,
      requestTools: this.#requestTools,
      isMetaTool: (name) => metaNames.has(name),
      emit,
      feedback: this.feedback,
    };
    this.#steps = this.#stepContext();
    this.#preselect = preselect && new Preselector(preselect, this, this.#steps);
  }

  /** Receives every telemetry event; returns the unsubscribe function. */
  subscribe(listener: ToolSearchEventListener, options?: SubscribeOptions): () => void {
    return this.#telemetry.subscribe(listener, options);
  }

  /** The name the model sees for a meta-tool role, when this mode has it. */
  metaToolName(role: MetaToolRole): string | undefined {
    return this.metaTools.find((tool) => tool.role === role)?.name;
  }

  /** The in-memory store, when the session uses it (for stats and clean-up). */
  get memoryStore(): InMemoryLoadedToolStore | undefined {
    return this.#store instanceof InMemoryLoadedToolStore ? this.#store : undefined;
  }

  /**
   * Forgets what the session keeps for one thread: its loaded tools (in the store), the step kept
   * for its calls, and (conversation strategy) the loads remembered for a resume. Without
   * `resourceId`, the thread under every resource (agents with memory always have one); the store
   * does this by `clearThread` (the in-memory store, key-value stores whose backend has `scanKeys`,
   * Redis), and a store without it has only the thread's key without a resource cleared.
   */
  async clearState(threadId: string, resourceId?: string): Promise<void> {
    checkThreadIds(threadId, resourceId);
    const key = threadKey({ threadId, resourceId });
    if (key === undefined) return;
    const everywhere = !resourceId;
    const ofThread = (other: string) => other === key || (everywhere && isKeyOfThread(other, threadId));
    this.#kept.forgetThreads(ofThread);
    this.#lastLoads.deleteWhere(ofThread);
    this.#preselect?.forgetThreads(ofThread);
    this.feedback?.forgetThreads(ofThread);
    if (everywhere && this.#store?.clearThread) await this.#store.clearThread(threadId);
    else await this.#store?.clear(key);
  }

  /** Forgets what the session keeps for every thread (see {@link clearState}); not what it learned (`feedback.clear()`). */
  async clearAllState(): Promise<void> {
    this.#kept.clear();
    this.#lastLoads.clear();
    this.#preselect?.clear();
    this.#deferred.clear();
    await this.#store?.clearAll();
  }

  /**
   * Unsubscribes from the catalog and releases the index and the in-memory store; `prepareStep` and
   * `search` then throw a {@link SessionDisposedError}.
   */
  dispose(): void {
    this.#disposed = true;
    this.#unsubscribe();
    if (this.#ownsIndex) this.index.dispose();
    this.#requestTools.pool.dispose();
    this.memoryStore?.dispose();
    this.#kept.clear();
    this.#lastLoads.clear();
    this.#preselect?.clear();
  }

  /**
   * The catalog tools loaded for a request, in load order, without policy checks: tools removed
   * from the catalog are skipped. From `request.loaded` when given; else from the store for a
   * request with a thread id; else from the conversation. Where loads are read from the
   * conversation, a thread's request that brings none (`conversation` absent: an approval resumed
   * without its messages) gets the tools loaded at the thread's last step. With `preselect`, the
   * tools preselected for the request's user messages are loaded tools too (see {@link Preselector}).
   */
  async loadedTools(request: StepRequest = {}): Promise<CatalogTool<TTool>[]> {
    const checked = checkStepRequest(request);
    return (await this.#loaded(checked, this.#requestTools.of(checked.tools))).tools;
  }

  /** {@link loadedTools} of a request that brings `set` (its own tools), and which were preselected (ids). */
  async #loaded(
    request: StepRequest,
    set: RequestTools<TTool> | undefined,
  ): Promise<{ tools: CatalogTool<TTool>[]; preselected: ReadonlySet<string> }> {
    const key = threadKey(request);
    const byId = (id: string) => set?.get(id) ?? this.catalog.get(id);
    const tools: CatalogTool<TTool>[] = [];
    if (key && this.#store && !request.loaded) {
      await this.#preselect?.record(request, key, this.#store);
      for (const id of await this.#store.get(key)) {
        const tool = byId(id) ?? this.catalog.getByAlias(id);
        if (tool) tools.push(tool);
      }
      return { tools, preselected: this.#preselect?.preselectedIn(key) ?? new Set() };
    }
    const remembered = key !== undefined && request.conversation === undefined ? this.#lastLoads.get(key) : undefined;
    if (remembered !== undefined && !request.loaded) {
      for (const id of remembered) {
        const tool = byId(id) ?? this.catalog.getByAlias(id);
        if (tool) tools.push(tool);
      }
      return { tools, preselected: new Set() };
    }
    const derive = (entries: readonly ConversationEntry[]) =>
      request.loaded ??
      loadedNamesFromConversation(entries, {
        load: this.metaToolName('load'),
        autoLoadSearch: this.mode === 'auto-load' ? this.metaToolName('search') : undefined,
        discover: this.metaToolName('discover'),
      });
    const { names, preselected } = this.#preselect
      ? await this.#preselect.fromConversation(request, derive)
      : { names: derive(request.conversation ?? []), preselected: new Set<string>() };
    for (const name of new Set(names)) {
      const tool = this.#resolveIn(set, name);
      if (tool && !this.#isDirect(tool)) tools.push(tool);
    }
    return { tools, preselected };
  }

  /**
   * Prepares one step: what the model is offered (meta-tools, then direct and pinned tools, then
   * loaded tools in load order, so the prompt prefix stays stable) and a handler for its calls.
   * With `options.keys`, the step is kept under those objects of the host's for {@link stepFor}.
   */
  async prepareStep(request: StepRequest = {}, options?: PrepareStepOptions): Promise<ToolSearchStep<TTool>> {
    if (this.#disposed) throw new SessionDisposedError('prepare a step');
    const checked = checkPrepareStepOptions(options);
    const keys = hostKeys(checked.keys);
    const step = this.#prepareStep(checkStepRequest(request), checked);
    this.#kept.keepFor(keys, step);
    return step;
  }

  async #prepareStep(request: StepRequest, options: PrepareStepOptions): Promise<ToolSearchStep<TTool>> {
    const allowed = this.#policyFor(request);
    const set = this.#requestTools.of(request.tools);
    const offered: OfferedTool<TTool>[] = [];
    const offeredIds = new Set<string>();
    // Direct, pinned and loaded tools, in that order (deferred ones resolved together at the end).
    const toOffer: [CatalogTool<TTool>, 'direct' | 'pinned' | 'loaded'][] = [];
    const hostNames = hostToolNames(request);
    const offerCatalogTool = async (tool: CatalogTool<TTool>, kind: 'pinned' | 'loaded') => {
      if (offeredIds.has(tool.id) || hostToolFor(tool, hostNames) !== undefined) return;
      if (!(await allowed(tool, ['active']))) return;
      offeredIds.add(tool.id);
      toOffer.push([tool, kind]);
    };
    for (const tool of this.directTools) {
      offeredIds.add(tool.id);
      toOffer.push([tool, 'direct']);
    }
    for (const tool of this.#pinned.values()) if (!set?.shadows(tool)) await offerCatalogTool(tool, 'pinned');
    for (const tool of set?.pinned() ?? []) await offerCatalogTool(tool, 'pinned');
    const { tools: loaded, preselected } = await this.#loaded(request, set);
    const key = threadKey(request);
    if (key !== undefined && !this.#store && request.loaded === undefined && request.conversation !== undefined) {
      this.#lastLoads.set(key, loaded.map(keptName));
    }
    if (this.mode !== 'proxy') for (const tool of loaded) await offerCatalogTool(tool, 'loaded');

    for (const meta of this.metaTools) {
      if (meta.role === 'discover') {
        const listing = await undiscoveredListing(this.catalog, {
          allowed,
          offeredIds,
          isMetaTool: (name) => this.#metaNames.has(name),
          summaries: (this.options.catalogListing ?? 'names-and-summaries') === 'names-and-summaries',
        });
        if (listing === undefined) continue;
        offered.push({
          kind: 'meta',
          role: meta.role,
          name: meta.name,
          description: `${meta.description}\n\n${listing}`,
          inputSchema: meta.inputSchema,
        });
        continue;
      }
      offered.push({
        kind: 'meta',
        role: meta.role,
        name: meta.name,
        description: meta.description,
        inputSchema: meta.inputSchema,
      });
    }
    const offers = await this.#deferred.offers(toOffer, request);
    for (const offer of offers) if (offer.tool && preselected.has(offer.tool.id)) offer.preselected = true;
    offered.push(...offers);
    // A loaded deferred tool withheld (its resolve failed) is not loaded at this step: a load retries it.
    const withheld = new Set(toOffer.map(([tool]) => tool.id));
    for (const offer of offers) if (offer.tool) withheld.delete(offer.tool.id);
    if (!options.quiet)
      this.#telemetry.emit({
        type: 'step',
        threadId: request.threadId,
        resourceId: request.resourceId,
        offered: offered.map((tool) => tool.name),
        loaded: loaded.map((tool) => tool.id),
        ...(this.#telemetry.wantsOfferedTokens ? { offeredTokens: await offeredTokens(offered) } : {}),
      });
    return new ToolSearchStep(
      this.#stepContextIn(set),
      request,
      offered,
      loaded.flatMap((tool) => (withheld.has(tool.id) ? [] : [tool.id])),
    );
  }

  /**
   * The step a tool call belongs to: the step the model made it at, when the host kept that step
   * with {@link ToolSearchStep.expectCalls} (parallel calls may run as separate tasks, and each must
   * be judged against what the model was offered, not a later step that holds a sibling's load);
   * else a step prepared now from `request` (a resumed approval, another process), quietly.
   */
  async stepForCall(request: StepRequest, callId: string | undefined): Promise<ToolSearchStep<TTool>> {
    return this.#kept.takeForCall(checkStepRequest(request), callId) ?? this.prepareStep(request, { quiet: true });
  }

  /**
   * The step a tool call belongs to, for hosts that hand each call an object of theirs that stands
   * for the step (the AI SDK's messages array): the step prepared with that object in
   * `prepareStep`'s `keys`. Without one (a call outside a prepared step, e.g. an approved tool run
   * before the first step), a step prepared now from `request`, quietly, and kept under `key` for
   * the calls that follow. `key` undefined: always a new step.
   */
  async stepFor(key: object | undefined, request: StepRequest): Promise<ToolSearchStep<TTool>> {
    const kept = key === undefined ? undefined : this.#kept.forObject(hostKey(key, 'key'));
    return kept ?? this.prepareStep(request, { quiet: true, keys: key === undefined ? [] : [key] });
  }

  /**
   * Searches the catalog as `search_tools` does, under the policy's `search` phase. Only the first
   * 2,000 characters of the query are searched (`MODEL_INPUT_LIMITS.queryLength`).
   */
  async search(query: string, request: StepRequest = {}, limit?: number): Promise<ScoredTool<TTool>[]> {
    if (this.#disposed) throw new SessionDisposedError('search');
    const set = this.#requestTools.of(checkStepRequest(request).tools);
    return this.#search(set, checkQuery(query), request, limit, this.#policyFor(request));
  }

  /**
   * Token figures for a step: the definitions offered (name, description, input schema, as a
   * provider receives them) against offering every catalog and direct tool, with a real o200k
   * tokenizer.
   */
  async measureStep(step: ToolSearchStep<TTool>): Promise<StepTokenReport> {
    return this.#tokens.measure(step.tools, this.#catalogVersion);
  }

  /**
   * The direct or catalog tool a name refers to: a model-facing `toolName` first, then an id, then
   * an alias (the tool as offered under it, see `ToolCatalog.getByAlias`). Tools shadowed by a
   * meta-tool's name are never returned.
   */
  resolve(name: string): CatalogTool<TTool> | undefined {
    const tool =
      this.directTools.find((candidate) => candidate.toolName === name || candidate.id === name) ??
      this.catalog.getByToolName(name) ??
      this.catalog.get(name) ??
      this.catalog.getByAlias(name);
    return tool && !this.#metaNames.has(tool.toolName) ? tool : undefined;
  }

  /**
   * Whether a catalog change can change what some thread is offered (pinned, loaded or listed
   * tools), for hosts that tell clients when their tools change (MCP's `list_changed`): a removal
   * or a replacement (the tool may be offered), an added pinned tool, any addition in `catalog`
   * mode (the listing); not an addition that is only offered once loaded, nor one of a tool named
   * like a meta-tool (never offered).
   */
  changesOffers(change: CatalogChange<TTool>): boolean {
    if (change.type !== 'add') return true;
    if (this.#metaNames.has(change.tool.toolName)) return false;
    return this.mode === 'catalog' || change.tool.pinned === true;
  }

  /** Whether a model-facing name is one of this session's meta-tools. */
  isMetaTool(name: string): boolean {
    return this.#metaNames.has(name);
  }

  /** What this session's steps ask of it (see {@link StepContext}), kept out of its public API. */
  #stepContext(): StepContext<TTool> {
    return {
      mode: this.mode,
      instructions: this.instructions,
      code: codeModeOf(this.options, this.mode),
      descriptionBudget: () => this.options.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET,
      metaToolName: (role) => this.metaToolName(role),
      resolve: (name) => this.resolve(name),
      isDirect: (tool) => this.#isDirect(tool),
      policyFor: (request) => this.#policyFor(request),
      loadPhases: () => (this.mode === 'auto-load' ? SUGGESTION_PHASES : DESCRIBE_PHASES),
      search: (query, request, allowed) =>
        this.#search(undefined, noteSearch(this.feedback, request, query), request, undefined, allowed),
      suggest: (name, allowed) => suggestTools(this.#sources, undefined, name, this.resolve(name)?.id, allowed),
      ready: (tool, request) => this.#deferred.ready(tool, request, 'load'),
      remember: (request, ids, loadedCount) => this.#remember(request, ids, loadedCount),
      emit: (event) => this.#telemetry.emit(event),
      expectCalls: (step, callIds) => this.#kept.expectCalls(step, callIds),
      called: (request, tool, ok) => noteCall(this.feedback, request, tool, this.catalog, this.directTools, ok),
    };
  }

  /** The step context of a request that brings its own tools (`set`): they resolve and search too. */
  #stepContextIn(set: RequestTools<TTool> | undefined): StepContext<TTool> {
    if (set === undefined) return this.#steps;
    return {
      ...this.#steps,
      resolve: (name) => this.#resolveIn(set, name),
      search: (query, request, allowed) =>
        this.#search(set, noteSearch(this.feedback, request, query), request, undefined, allowed),
      suggest: (name, allowed) => suggestTools(this.#sources, set, name, this.#resolveIn(set, name)?.id, allowed),
    };
  }

  /** What a name refers to for a request with its own tools (`set`): one of them first. */
  #resolveIn(set: RequestTools<TTool> | undefined, name: string): CatalogTool<TTool> | undefined {
    return set?.resolve(name) ?? this.resolve(name);
  }

  /** The direct tool a tool's id or model-facing name is taken by. */
  #direct(tool: CatalogTool<TTool>): CatalogTool<TTool> | undefined {
    return this.directTools.find((direct) => direct.id === tool.id || direct.toolName === tool.toolName);
  }

  #isDirect(tool: CatalogTool<TTool>): boolean {
    return this.directTools.includes(tool);
  }

  /** See {@link StepContext.policyFor}. */
  #policyFor(request: StepRequest): PolicyCheck<TTool> {
    return sessionPolicyCheck(this.options, request, (tool) => this.#isDirect(tool), this.#sources.emit);
  }

  /** {@link search} within an operation's policy check, among the request's tools too (`set`). */
  #search(
    set: RequestTools<TTool> | undefined,
    query: string,
    request: StepRequest,
    limit: number | undefined,
    allowed: PolicyCheck<TTool>,
  ): Promise<ScoredTool<TTool>[]> {
    const { search } = this.options;
    const hostNames = hostToolNames(request);
    return searchTools(this.#sources, set, query, request, {
      limit: limit ?? search?.limit ?? DEFAULT_LIMIT,
      minScore: search?.minScore,
      explain: search?.explain,
      // A catalog tool the host offers itself under its name is not found: the host's own wins.
      allowed: async (tool, phases) => hostToolFor(tool, hostNames) === undefined && (await allowed(tool, phases)),
    });
  }

  /**
   * Keeps newly loaded tools: in the store, or, where loads are read back from the conversation,
   * nowhere, but refused past the same cap as a store's (the conversation would drop them unread).
   * `loadedCount` is how many tools the thread has loaded with these.
   */
  async #remember(request: StepRequest, ids: readonly string[], loadedCount: number): Promise<void> {
    const key = threadKey(request);
    if (key && this.#store) {
      if (ids.length > 0) await this.#store.add(key, ids);
      return;
    }
    if (loadedCount > DEFAULT_MAX_TOOLS_PER_THREAD) {
      throw new ToolLimitError(key ?? 'conversation', DEFAULT_MAX_TOOLS_PER_THREAD, loadedCount - ids.length, ids);
    }
  }
}
