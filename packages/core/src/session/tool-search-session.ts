import { keptName } from '../catalog/aliases.js';
import { type CatalogChange, ToolCatalog } from '../catalog/catalog.js';
import { ToolLimitError } from '../errors.js';
import { ToolIndex } from '../index/tool-index.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import { DEFAULT_MAX_TOOLS_PER_THREAD, type LoadedToolStore } from '../stores/loaded-tool-store.js';
import { countToolDefinitionTokens } from '../token-count.js';
import type { CatalogTool } from '../types.js';
import { loadedNamesFromConversation } from './conversation.js';
import { undiscoveredListing } from './discovery-listing.js';
import { hostToolFor, hostToolNames } from './host-tools.js';
import { hostKey, hostKeys, KeptSteps, MAX_REMEMBERED_THREADS } from './kept-steps.js';
import { DESCRIBE_PHASES } from './meta-tool-handlers.js';
import { type MetaToolDefinition, type MetaToolRole, resolveMetaTools, type ToolSearchMode } from './meta-tools.js';
import { MODEL_INPUT_LIMITS, nameStart } from './model-input-limits.js';
import { type PolicyCheck, type PolicyPhase, policyCheck } from './policy.js';
import { RecentByThread } from './recent-by-thread.js';
import {
  checkSessionOptions,
  DEFAULT_DESCRIPTION_BUDGET,
  DEFAULT_LIMIT,
  storeOf,
  type ToolSearchSessionOptions,
} from './session-options.js';
import { checkSessionTools } from './session-tools.js';
import type { StepContext } from './step-context.js';
import { checkPrepareStepOptions, checkQuery, checkStepRequest, checkThreadIds } from './step-request.js';
import type { OfferedTool, PrepareStepOptions, StepRequest, StepTokenReport } from './step-types.js';
import { TelemetryEmitter, type ToolSearchEventListener } from './telemetry.js';
import { isKeyOfThread, threadKey } from './thread-key.js';
import { ToolSearchStep } from './tool-search-step.js';

/** The phases a "did you mean" suggestion must pass: the model can find, load and be offered it. */
const SUGGESTION_PHASES: readonly PolicyPhase[] = ['search', 'load', 'active'];

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
  readonly #store: LoadedToolStore | undefined;
  readonly #ownsIndex: boolean;
  readonly #telemetry = new TelemetryEmitter();
  readonly #pinned = new Map<string, CatalogTool<TTool>>();
  readonly #metaNames: ReadonlySet<string>;
  readonly #unsubscribe: () => void;
  #catalogVersion = 0;
  #catalogTokens: { version: number; value: Promise<{ bytes: number; tokens: number }> } | undefined;
  /** The steps kept for the tool calls that come after them (see {@link KeptSteps}). */
  readonly #kept = new KeptSteps<ToolSearchStep<TTool>>();
  /** Per thread, where loads are read from the conversation: the tools loaded at its last step. */
  readonly #lastLoads = new RecentByThread<readonly string[]>(MAX_REMEMBERED_THREADS);
  /** What this session's steps ask of it. */
  readonly #steps: StepContext<TTool>;

  constructor(readonly options: ToolSearchSessionOptions<TTool>) {
    this.mode = checkSessionOptions(options);
    this.metaTools = resolveMetaTools(this.mode, options.metaTools);
    this.catalog = options.catalog instanceof ToolCatalog ? options.catalog : new ToolCatalog(options.catalog);
    const metaNames = new Set(this.metaTools.map((tool) => tool.name));
    this.#metaNames = metaNames;
    this.directTools = Object.freeze(new ToolCatalog(options.tools ?? []).list());
    checkSessionTools(metaNames, this.directTools, this.catalog);
    this.#ownsIndex = options.index === undefined;
    this.index = options.index ?? new ToolIndex(this.catalog, options.indexOptions);
    this.#store = storeOf(options);
    for (const tool of this.catalog) if (tool.pinned) this.#pinned.set(tool.id, tool);
    this.#unsubscribe = this.catalog.subscribe((change) => {
      this.#catalogVersion++;
      if (change.type !== 'add') this.#pinned.delete(change.type === 'replace' ? change.previous.id : change.tool.id);
      if (change.type !== 'remove' && change.tool.pinned && !this.#metaNames.has(change.tool.toolName))
        this.#pinned.set(change.tool.id, change.tool);
    });
    if (options.onEvent) this.#telemetry.subscribe(options.onEvent);
    this.#steps = this.#stepContext();
  }

  /** Receives every telemetry event; returns the unsubscribe function. */
  subscribe(listener: ToolSearchEventListener): () => void {
    return this.#telemetry.subscribe(listener);
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
    if (everywhere && this.#store?.clearThread) await this.#store.clearThread(threadId);
    else await this.#store?.clear(key);
  }

  /** Forgets what the session keeps for every thread (see {@link clearState}). */
  async clearAllState(): Promise<void> {
    this.#kept.clear();
    this.#lastLoads.clear();
    await this.#store?.clearAll();
  }

  /** Unsubscribes from the catalog and releases the index and the in-memory store. */
  dispose(): void {
    this.#unsubscribe();
    if (this.#ownsIndex) this.index.dispose();
    this.memoryStore?.dispose();
    this.#kept.clear();
    this.#lastLoads.clear();
  }

  /**
   * The catalog tools loaded for a request, in load order, without policy checks: tools removed
   * from the catalog are skipped. From `request.loaded` when given; else from the store for a
   * request with a thread id; else from the conversation. Where loads are read from the
   * conversation, a thread's request that brings none (`conversation` absent: an approval resumed
   * without its messages) gets the tools loaded at the thread's last step.
   */
  async loadedTools(request: StepRequest = {}): Promise<CatalogTool<TTool>[]> {
    const key = threadKey(checkStepRequest(request));
    const tools: CatalogTool<TTool>[] = [];
    if (request.loaded) {
      for (const name of new Set(request.loaded)) {
        const tool = this.resolve(name);
        if (tool && !this.#isDirect(tool)) tools.push(tool);
      }
      return tools;
    }
    if (key && this.#store) {
      for (const id of await this.#store.get(key)) {
        const tool = this.catalog.get(id) ?? this.catalog.getByAlias(id);
        if (tool) tools.push(tool);
      }
      return tools;
    }
    const remembered = key !== undefined && request.conversation === undefined ? this.#lastLoads.get(key) : undefined;
    if (remembered !== undefined) {
      for (const id of remembered) {
        const tool = this.catalog.get(id) ?? this.catalog.getByAlias(id);
        if (tool) tools.push(tool);
      }
      return tools;
    }
    const names = loadedNamesFromConversation(request.conversation, {
      load: this.metaToolName('load'),
      autoLoadSearch: this.mode === 'auto-load' ? this.metaToolName('search') : undefined,
      discover: this.metaToolName('discover'),
    });
    for (const name of names) {
      const tool = this.resolve(name);
      if (tool) tools.push(tool);
    }
    return tools;
  }

  /**
   * Prepares one step: what the model is offered (meta-tools, then direct and pinned tools, then
   * loaded tools in load order, so the prompt prefix stays stable) and a handler for its calls.
   * With `options.keys`, the step is kept under those objects of the host's for {@link stepFor}.
   */
  async prepareStep(request: StepRequest = {}, options?: PrepareStepOptions): Promise<ToolSearchStep<TTool>> {
    const checked = checkPrepareStepOptions(options);
    const keys = hostKeys(checked.keys);
    const step = this.#prepareStep(checkStepRequest(request), checked);
    this.#kept.keepFor(keys, step);
    return step;
  }

  async #prepareStep(request: StepRequest, options: PrepareStepOptions): Promise<ToolSearchStep<TTool>> {
    const allowed = this.#policyFor(request);
    const offered: OfferedTool<TTool>[] = [];
    const offeredIds = new Set<string>();
    const catalogOffers: OfferedTool<TTool>[] = [];
    const hostNames = hostToolNames(request);
    const offerCatalogTool = async (tool: CatalogTool<TTool>, kind: 'pinned' | 'loaded') => {
      if (offeredIds.has(tool.id) || hostToolFor(tool, hostNames) !== undefined) return;
      if (!(await allowed(tool, ['active']))) return;
      offeredIds.add(tool.id);
      catalogOffers.push({
        kind,
        name: tool.toolName,
        description: tool.description ?? '',
        inputSchema: tool.jsonSchema,
        tool,
      });
    };
    for (const tool of this.directTools) {
      offeredIds.add(tool.id);
      catalogOffers.push({
        kind: 'direct',
        name: tool.toolName,
        description: tool.description ?? '',
        inputSchema: tool.jsonSchema,
        tool,
      });
    }
    for (const tool of this.#pinned.values()) await offerCatalogTool(tool, 'pinned');
    const loaded = await this.loadedTools(request);
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
    offered.push(...catalogOffers);
    if (!options.quiet)
      this.#telemetry.emit({
        type: 'step',
        threadId: request.threadId,
        resourceId: request.resourceId,
        offered: offered.map((tool) => tool.name),
        loaded: loaded.map((tool) => tool.id),
      });
    return new ToolSearchStep(
      this.#steps,
      request,
      offered,
      loaded.map((tool) => tool.id),
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
  async search(
    query: string,
    request: StepRequest = {},
    limit?: number,
  ): Promise<{ tool: CatalogTool<TTool>; score: number }[]> {
    return this.#search(checkQuery(query), checkStepRequest(request), limit, this.#policyFor(request));
  }

  /**
   * Token figures for a step: the definitions offered (name, description, input schema, as a
   * provider receives them) against offering every catalog and direct tool, with a real o200k
   * tokenizer.
   */
  async measureStep(step: ToolSearchStep<TTool>): Promise<StepTokenReport> {
    const offered = await countToolDefinitionTokens(step.tools);
    if (this.#catalogTokens?.version !== this.#catalogVersion) {
      const all = [...this.directTools, ...this.catalog.list()].map((tool) => ({
        name: tool.toolName,
        description: tool.description ?? '',
        inputSchema: tool.jsonSchema,
      }));
      this.#catalogTokens = { version: this.#catalogVersion, value: countToolDefinitionTokens(all) };
    }
    const catalog = await this.#catalogTokens.value;
    return {
      offered: { tools: step.tools.length, ...offered },
      catalog: { tools: this.directTools.length + this.catalog.size, ...catalog },
      savedTokens: catalog.tokens - offered.tokens,
      ratio: catalog.tokens === 0 ? 0 : offered.tokens / catalog.tokens,
    };
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
      descriptionBudget: () => this.options.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET,
      metaToolName: (role) => this.metaToolName(role),
      resolve: (name) => this.resolve(name),
      isDirect: (tool) => this.#isDirect(tool),
      policyFor: (request) => this.#policyFor(request),
      loadPhases: () => (this.mode === 'auto-load' ? SUGGESTION_PHASES : DESCRIBE_PHASES),
      search: (query, request, allowed) => this.#search(query, request, undefined, allowed),
      suggest: (name, allowed) => this.#suggest(name, allowed),
      remember: (request, ids, loadedCount) => this.#remember(request, ids, loadedCount),
      emit: (event) => this.#telemetry.emit(event),
      expectCalls: (step, callIds) => this.#kept.expectCalls(step, callIds),
    };
  }

  #isDirect(tool: CatalogTool<TTool>): boolean {
    return this.directTools.includes(tool);
  }

  /** See {@link StepContext.policyFor}. */
  #policyFor(request: StepRequest): PolicyCheck<TTool> {
    const { filter, filterTimeoutMs } = this.options;
    return policyCheck(
      filter,
      filterTimeoutMs,
      request,
      (tool) => this.#isDirect(tool),
      (tool, phase, answer) =>
        this.#telemetry.emit({
          type: 'blocked',
          threadId: request.threadId,
          resourceId: request.resourceId,
          toolId: tool.id,
          phase,
          reason: answer.reason,
        }),
    );
  }

  /** {@link search} within an operation's policy check. */
  async #search(
    fullQuery: string,
    request: StepRequest,
    limit: number | undefined,
    allowed: PolicyCheck<TTool>,
  ): Promise<{ tool: CatalogTool<TTool>; score: number }[]> {
    const started = performance.now();
    const query = nameStart(fullQuery, MODEL_INPUT_LIMITS.queryLength);
    const hostNames = hostToolNames(request);
    const hits = await this.index.search(query, {
      limit: limit ?? this.options.search?.limit ?? DEFAULT_LIMIT,
      minScore: this.options.search?.minScore,
      filter: async (id) => {
        const tool = this.catalog.get(id);
        if (tool === undefined || hostToolFor(tool, hostNames) !== undefined) return false;
        return !this.#metaNames.has(tool.toolName) && (await allowed(tool, ['search']));
      },
    });
    const results = hits.flatMap((hit) => {
      const tool = this.catalog.get(hit.id);
      return tool ? [{ tool, score: hit.score }] : [];
    });
    this.#telemetry.emit({
      type: 'search',
      threadId: request.threadId,
      resourceId: request.resourceId,
      query,
      hits: results.map((result) => ({ id: result.tool.id, score: result.score })),
      latencyMs: performance.now() - started,
    });
    return results;
  }

  /**
   * Tool names to suggest for a name that is unknown (or hidden): ranked by the name's
   * first characters (`MODEL_INPUT_LIMITS.echoLength`), allowed at search, load and active, never
   * the tool the name itself refers to (refused, since it is being suggested against).
   */
  async #suggest(name: string, allowed: PolicyCheck<TTool>, limit = 3): Promise<string[]> {
    const refused = this.resolve(name)?.id;
    const hits = await this.index.search(nameStart(name), {
      limit,
      filter: async (id) => {
        const tool = this.catalog.get(id);
        return (
          tool !== undefined &&
          id !== refused &&
          !this.#metaNames.has(tool.toolName) &&
          (await allowed(tool, SUGGESTION_PHASES))
        );
      },
    });
    return hits.flatMap((hit) => {
      const tool = this.catalog.get(hit.id);
      return tool ? [tool.toolName] : [];
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
