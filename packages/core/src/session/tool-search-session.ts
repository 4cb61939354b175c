import { ToolCatalog } from '../catalog/catalog.js';
import { DuplicateToolError, InvalidOptionError, ToolLimitError } from '../errors.js';
import { ToolIndex, type ToolIndexOptions } from '../index/tool-index.js';
import { validateInput } from '../schema/schema.js';
import { InMemoryLoadedToolStore, type InMemoryLoadedToolStoreOptions } from '../stores/in-memory-store.js';
import { DEFAULT_MAX_TOOLS_PER_THREAD, type LoadedToolStore } from '../stores/loaded-tool-store.js';
import { compactText, firstSentence } from '../text/compact-text.js';
import { countToolDefinitionTokens } from '../token-count.js';
import type { CatalogTool, JsonSchema, ToolDescriptor } from '../types.js';
import { type ConversationEntry, loadedNamesFromConversation } from './conversation.js';
import {
  type MetaToolDefinition,
  type MetaToolRole,
  type MetaToolsConfig,
  resolveMetaTools,
  TOOL_SEARCH_MODES,
  type ToolSearchMode,
} from './meta-tools.js';
import { clipName, MODEL_INPUT_LIMITS, NAME_LENGTH_RULE, nameStart } from './model-input-limits.js';
import { MAX_FILTER_TIMEOUT_MS, type PolicyFilter, PolicyGate, type PolicyPhase } from './policy.js';
import { RecentByThread } from './recent-by-thread.js';
import { TelemetryEmitter, type ToolSearchEventListener } from './telemetry.js';

/** Where loaded tools are remembered between steps. */
export type LoadedStateStrategy =
  /** In this process, per thread, with a TTL and a cap on threads (the default). */
  | 'memory'
  /** Derived from the conversation at every step: stateless and restart-safe. */
  | 'conversation'
  /** A store of your own, e.g. a shared Redis store for several server instances. */
  | LoadedToolStore;

export interface ToolSearchSessionOptions<TTool = unknown> {
  /** The searchable tools: a catalog (which the session follows as it changes), or descriptors. */
  catalog: ToolCatalog<TTool> | Iterable<ToolDescriptor<TTool>>;
  /** Tools offered at every step beside the meta-tools, never searched (the host's own tools). */
  tools?: Iterable<ToolDescriptor<TTool>>;
  /** An index over `catalog` to reuse (e.g. loaded from JSON); built from `indexOptions` when absent. */
  index?: ToolIndex<TTool>;
  /** Options for the index the session builds (an embedder for hybrid search, `minScore`, ...). */
  indexOptions?: ToolIndexOptions;
  /** How the model reaches the catalog; see {@link ToolSearchMode}. Default `search-load`. */
  mode?: ToolSearchMode;
  search?: {
    /** How many hits `search_tools` returns. Default 5. */
    limit?: number;
    /** Hits scoring below this (0-1, see ToolIndex) are left out. Default: the index's. */
    minScore?: number;
  };
  /**
   * Where loaded tools live. Default `memory`. Whatever the strategy, a request without a thread id
   * derives its loaded tools from its own conversation: nothing is shared between requests that
   * cannot be told apart.
   */
  state?: LoadedStateStrategy;
  /** Options of the default in-memory store (`ttlMs`, `maxThreads`, ...). */
  memory?: InMemoryLoadedToolStoreOptions;
  /**
   * The policy: may this tool be searched, loaded, offered, called? Fails closed when it throws or
   * does not answer in time. See {@link PolicyPhase} for the phases each mode asks.
   */
  filter?: PolicyFilter<TTool>;
  /**
   * How long one operation (a step's preparation, a search, one call) waits for an async `filter`,
   * in ms, counted from its first async answer. Answers still pending then count as "not allowed"
   * (a `blocked` event with reason `filter-timeout`), and the operation asks the filter no more.
   * Between 1 and 2,147,483,647. Default 5,000.
   */
  filterTimeoutMs?: number;
  /** Names and descriptions of the meta-tools. Defaults: `search_tools`, `load_tool`, ... */
  metaTools?: MetaToolsConfig;
  /** In `catalog` mode, what the discovery tool's description lists. Default `names-and-summaries`. */
  catalogListing?: 'names' | 'names-and-summaries';
  /** Characters of a tool description kept in search results (cut at a word boundary). Default 160. */
  descriptionBudget?: number;
  /** Receives every telemetry event (also: `session.subscribe`). */
  onEvent?: ToolSearchEventListener;
}

/** What the session needs to know about the request at a step. */
export interface StepRequest {
  /** The conversation thread; loaded tools are remembered per thread (and resource). */
  threadId?: string;
  /** The user or tenant the thread belongs to; part of the state key. */
  resourceId?: string;
  /** The host's request context; handed to the policy and to executed tools. */
  context?: unknown;
  /** The tool calls and results so far (needed by the `conversation` strategy and without a thread id). */
  conversation?: readonly ConversationEntry[];
  /**
   * Loaded tools kept by the host itself (tool names or ids, in load order), e.g. in a framework's
   * checkpointed agent state. When given, it replaces the strategy's own state for this step; loads
   * made during the step are still reported in `load_tool` results for the host to keep.
   */
  loaded?: readonly string[];
}

/** Options of `prepareStep`. */
export interface PrepareStepOptions {
  /**
   * Leave out the `step` telemetry event, for hosts that prepare a step for something other than a
   * model call (an MCP `tools/list`, a resumed approval). Default false.
   */
  quiet?: boolean;
}

/** One tool offered to the model at a step. */
export interface OfferedTool<TTool = unknown> {
  /** `meta`: a meta-tool; `direct`: given in `tools`; `pinned`: a pinned catalog tool; `loaded`. */
  kind: 'meta' | 'direct' | 'pinned' | 'loaded';
  /** The name the model sees and calls. */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** The meta-tool's role, for `meta`. */
  role?: MetaToolRole;
  /** The catalog tool, for everything but `meta`. */
  tool?: CatalogTool<TTool>;
}

/** Why a call did not run. Every code comes with a message written for the model. */
export type ToolCallErrorCode =
  | 'unknown-tool'
  | 'not-loaded'
  | 'invalid-arguments'
  | 'execution-failed'
  | 'not-executable';

export interface ToolCallError {
  code: ToolCallErrorCode;
  /** What the model reads: what went wrong and the call that fixes it. */
  message: string;
  toolName: string;
  suggestions?: string[];
  issues?: { path: string; message: string }[];
  cause?: unknown;
}

/** Options of one call through `ToolSearchStep.execute`. */
export interface ExecuteOptions {
  /** Aborts a running call; handed to the tool's `execute`. */
  abortSignal?: AbortSignal;
  /** Per-call data of the host framework, handed to the tool's `execute` as `context.host`. */
  host?: unknown;
}

export type ToolCallOutcome =
  | {
      ok: true;
      output: unknown;
      /** The catalog tool that ran, for calls of catalog and direct tools. */
      toolId?: string;
      /**
       * The tools this call loaded (model-facing names, in load order; new loads only), for meta-tool
       * calls that loaded any. A host that keeps loaded tools itself (`StepRequest.loaded`) appends
       * them to its list; a host that offers tools per connection tells the client its list changed.
       */
      loaded?: readonly string[];
    }
  | { ok: false; error: ToolCallError };

/** A call the session allows: the tool and its validated input. */
export type CallAuthorization<TTool> =
  | { ok: true; tool: CatalogTool<TTool>; input: unknown }
  | { ok: false; error: ToolCallError };

/** Per-step token figures: what is offered against offering the whole catalog. */
export interface StepTokenReport {
  offered: { tools: number; bytes: number; tokens: number };
  catalog: { tools: number; bytes: number; tokens: number };
  /** `catalog.tokens - offered.tokens`. */
  savedTokens: number;
  /** `offered.tokens / catalog.tokens`. */
  ratio: number;
}

const DEFAULT_LIMIT = 5;
/** Threads whose last step a session remembers, for later tool calls and resumes (oldest dropped first). */
const MAX_REMEMBERED_THREADS = 1000;
const DEFAULT_DESCRIPTION_BUDGET = 160;
/** Argument issues quoted in a tool error; the rest are counted. */
const MAX_ISSUES_QUOTED = 10;

/** The policy as one operation asks it: is the tool allowed at each of these phases, in order? */
type PolicyCheck<TTool> = (
  tool: CatalogTool<TTool>,
  phases: readonly PolicyPhase[],
  input?: unknown,
) => Promise<boolean>;

/** The phases a "did you mean" suggestion must pass: the model can find, load and be offered it. */
const SUGGESTION_PHASES: readonly PolicyPhase[] = ['search', 'load', 'active'];
/** The phases of `describe_tool` (proxy mode): what it shows is for running through `call_tool`. */
const DESCRIBE_PHASES: readonly PolicyPhase[] = ['load', 'active'];
/** The phases of `call_tool` (proxy mode): load, offer and call in one. */
const CALL_THROUGH_PHASES: readonly PolicyPhase[] = ['load', 'active', 'call'];

function assertPositiveInteger(value: number | undefined, name: string): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(name, `${name} must be a positive integer; got ${String(value)}.`);
  }
}

/**
 * The one key of a request's thread, for stores and per-thread memory: the thread id, after its
 * resource id when there is one (`/` and `%` in the resource id escaped, so that no two pairs share
 * a key). None without a thread id (or with an empty one).
 */
export function threadKey(request: Pick<StepRequest, 'threadId' | 'resourceId'>): string | undefined {
  if (request.threadId === undefined || request.threadId === '') return undefined;
  if (!request.resourceId) return request.threadId;
  return `${request.resourceId.replaceAll('%', '%25').replaceAll('/', '%2F')}/${request.threadId}`;
}

function uniqueStrings(values: readonly string[]): string[] {
  return [...new Set(values)];
}

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
  private readonly directTools: CatalogTool<TTool>[];
  private readonly store: LoadedToolStore | undefined;
  private readonly ownsIndex: boolean;
  private readonly telemetry = new TelemetryEmitter();
  private readonly pinned = new Map<string, CatalogTool<TTool>>();
  private readonly metaNames: ReadonlySet<string>;
  private readonly unsubscribe: () => void;
  private catalogVersion = 0;
  private catalogTokens: { version: number; value: Promise<{ bytes: number; tokens: number }> } | undefined;
  /** Per thread: the step whose tool calls are still to run ({@link ToolSearchStep.expectCalls}). */
  private readonly pendingCalls = new RecentByThread<{ step: ToolSearchStep<TTool>; callIds: Set<string> }>(
    MAX_REMEMBERED_THREADS,
  );
  /** Per thread, where loads are read from the conversation: the tools loaded at its last step. */
  private readonly lastLoads = new RecentByThread<readonly string[]>(MAX_REMEMBERED_THREADS);

  constructor(readonly options: ToolSearchSessionOptions<TTool>) {
    const mode = options.mode ?? 'search-load';
    if (!TOOL_SEARCH_MODES.includes(mode)) {
      throw new InvalidOptionError(
        'mode',
        `Unknown mode "${String(mode)}"; use one of ${TOOL_SEARCH_MODES.join(', ')}.`,
      );
    }
    assertPositiveInteger(options.search?.limit, 'search.limit');
    const timeout = options.filterTimeoutMs;
    if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 1 && timeout <= MAX_FILTER_TIMEOUT_MS)) {
      throw new InvalidOptionError(
        'filterTimeoutMs',
        `filterTimeoutMs must be a number of milliseconds from 1 to ${MAX_FILTER_TIMEOUT_MS}; got ${String(timeout)}.`,
      );
    }
    if (options.descriptionBudget !== undefined && !(options.descriptionBudget >= 0)) {
      throw new InvalidOptionError('descriptionBudget', 'descriptionBudget must be a number >= 0.');
    }
    this.mode = mode;
    this.metaTools = resolveMetaTools(mode, options.metaTools);
    this.catalog = options.catalog instanceof ToolCatalog ? options.catalog : new ToolCatalog(options.catalog);
    const metaNames = new Set(this.metaTools.map((tool) => tool.name));
    this.metaNames = metaNames;
    this.directTools = new ToolCatalog(options.tools ?? []).list();
    for (const tool of [...this.directTools, ...this.catalog.list()]) {
      if (metaNames.has(tool.toolName)) {
        throw new InvalidOptionError(
          'metaTools',
          `Tool "${tool.id}" is named "${tool.toolName}", like a meta-tool; rename it or the meta-tool (metaTools option).`,
        );
      }
    }
    for (const tool of this.directTools) {
      if (this.catalog.has(tool.id)) {
        throw new DuplicateToolError(
          tool.id,
          this.catalog.get(tool.id)?.source,
          tool.source,
          `Tool "${tool.id}" is both a direct tool (tools option) and in the catalog; give it once.`,
        );
      }
    }
    this.ownsIndex = options.index === undefined;
    this.index = options.index ?? new ToolIndex(this.catalog, options.indexOptions);
    if (options.state === undefined || options.state === 'memory') {
      this.store = new InMemoryLoadedToolStore(options.memory);
    } else if (options.state === 'conversation') {
      this.store = undefined;
    } else if (typeof options.state === 'object' && typeof options.state.get === 'function') {
      this.store = options.state;
    } else {
      throw new InvalidOptionError(
        'state',
        `state must be 'memory', 'conversation' or a LoadedToolStore; got ${JSON.stringify(options.state)}.`,
      );
    }
    for (const tool of this.catalog) if (tool.pinned) this.pinned.set(tool.id, tool);
    this.unsubscribe = this.catalog.subscribe((change) => {
      this.catalogVersion++;
      if (change.type !== 'add') this.pinned.delete(change.type === 'replace' ? change.previous.id : change.tool.id);
      if (change.type !== 'remove' && change.tool.pinned && !this.metaNames.has(change.tool.toolName))
        this.pinned.set(change.tool.id, change.tool);
    });
    if (options.onEvent) this.telemetry.subscribe(options.onEvent);
  }

  /** Receives every telemetry event; returns the unsubscribe function. */
  subscribe(listener: ToolSearchEventListener): () => void {
    return this.telemetry.subscribe(listener);
  }

  /** The name the model sees for a meta-tool role, when this mode has it. */
  metaToolName(role: MetaToolRole): string | undefined {
    return this.metaTools.find((tool) => tool.role === role)?.name;
  }

  /** The in-memory store, when the session uses it (for stats and clean-up). */
  get memoryStore(): InMemoryLoadedToolStore | undefined {
    return this.store instanceof InMemoryLoadedToolStore ? this.store : undefined;
  }

  /** Forgets the loaded tools of one thread (stores only; the conversation strategy has no state). */
  async clearState(threadId: string, resourceId?: string): Promise<void> {
    const key = threadKey({ threadId, resourceId });
    if (key === undefined) return;
    this.pendingCalls.delete(key);
    this.lastLoads.delete(key);
    if (this.store) await this.store.clear(key);
  }

  /** Forgets the loaded tools of every thread. */
  async clearAllState(): Promise<void> {
    this.pendingCalls.clear();
    this.lastLoads.clear();
    await this.store?.clearAll();
  }

  /** Unsubscribes from the catalog and releases the index and the in-memory store. */
  dispose(): void {
    this.unsubscribe();
    if (this.ownsIndex) this.index.dispose();
    this.memoryStore?.dispose();
    this.pendingCalls.clear();
    this.lastLoads.clear();
  }

  /**
   * The catalog tools loaded for a request, in load order, without policy checks: tools removed
   * from the catalog are skipped. From `request.loaded` when given; else from the store for a
   * request with a thread id; else from the conversation. Where loads are read from the
   * conversation, a thread's request that brings none (`conversation` absent: an approval resumed
   * without its messages) gets the tools loaded at the thread's last step.
   */
  async loadedTools(request: StepRequest = {}): Promise<CatalogTool<TTool>[]> {
    const key = threadKey(request);
    const tools: CatalogTool<TTool>[] = [];
    if (request.loaded) {
      for (const name of new Set(request.loaded)) {
        const tool = this.resolve(name);
        if (tool && !this.isDirect(tool)) tools.push(tool);
      }
      return tools;
    }
    if (key && this.store) {
      for (const id of await this.store.get(key)) {
        const tool = this.catalog.get(id);
        if (tool) tools.push(tool);
      }
      return tools;
    }
    const remembered = key !== undefined && request.conversation === undefined ? this.lastLoads.get(key) : undefined;
    if (remembered !== undefined) {
      for (const id of remembered) {
        const tool = this.catalog.get(id);
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
   */
  async prepareStep(request: StepRequest = {}, options: PrepareStepOptions = {}): Promise<ToolSearchStep<TTool>> {
    const allowed = this.policyFor(request);
    const offered: OfferedTool<TTool>[] = [];
    const offeredIds = new Set<string>();
    const catalogOffers: OfferedTool<TTool>[] = [];
    const offerCatalogTool = async (tool: CatalogTool<TTool>, kind: 'pinned' | 'loaded') => {
      if (offeredIds.has(tool.id)) return;
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
    for (const tool of this.pinned.values()) await offerCatalogTool(tool, 'pinned');
    const loaded = await this.loadedTools(request);
    const key = threadKey(request);
    if (key !== undefined && !this.store && request.loaded === undefined && request.conversation !== undefined) {
      this.lastLoads.set(
        key,
        loaded.map((tool) => tool.id),
      );
    }
    if (this.mode !== 'proxy') for (const tool of loaded) await offerCatalogTool(tool, 'loaded');

    for (const meta of this.metaTools) {
      if (meta.role === 'discover') {
        const listing = await this.discoveryListing(allowed, offeredIds);
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
      this.telemetry.emit({
        type: 'step',
        threadId: request.threadId,
        resourceId: request.resourceId,
        offered: offered.map((tool) => tool.name),
        loaded: loaded.map((tool) => tool.id),
      });
    return new ToolSearchStep(
      this,
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
    const key = threadKey(request);
    const pending = key === undefined ? undefined : this.pendingCalls.get(key);
    if (key !== undefined && callId !== undefined && pending?.callIds.delete(callId)) {
      if (pending.callIds.size === 0) this.pendingCalls.delete(key);
      return pending.step;
    }
    return this.prepareStep(request, { quiet: true });
  }

  /** @internal {@link ToolSearchStep.expectCalls}. */
  expectCalls(step: ToolSearchStep<TTool>, callIds: Iterable<string>): void {
    const key = threadKey(step.request);
    if (key === undefined) return;
    const ids = new Set(callIds);
    if (ids.size === 0) this.pendingCalls.delete(key);
    else this.pendingCalls.set(key, { step, callIds: ids });
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
    return this.searchWith(query, request, limit, this.policyFor(request));
  }

  /** @internal {@link search} within an operation's policy check. */
  async searchWith(
    fullQuery: string,
    request: StepRequest,
    limit: number | undefined,
    allowed: PolicyCheck<TTool>,
  ): Promise<{ tool: CatalogTool<TTool>; score: number }[]> {
    const started = performance.now();
    const query = nameStart(fullQuery, MODEL_INPUT_LIMITS.queryLength);
    const hits = await this.index.search(query, {
      limit: limit ?? this.options.search?.limit ?? DEFAULT_LIMIT,
      minScore: this.options.search?.minScore,
      filter: async (id) => {
        const tool = this.catalog.get(id);
        return tool !== undefined && !this.metaNames.has(tool.toolName) && (await allowed(tool, ['search']));
      },
    });
    const results = hits.flatMap((hit) => {
      const tool = this.catalog.get(hit.id);
      return tool ? [{ tool, score: hit.score }] : [];
    });
    this.telemetry.emit({
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
   * Token figures for a step: the definitions offered (name, description, input schema, as a
   * provider receives them) against offering every catalog and direct tool, with a real o200k
   * tokenizer.
   */
  async measureStep(step: ToolSearchStep<TTool>): Promise<StepTokenReport> {
    const offered = await countToolDefinitionTokens(step.tools);
    if (this.catalogTokens?.version !== this.catalogVersion) {
      const all = [...this.directTools, ...this.catalog.list()].map((tool) => ({
        name: tool.toolName,
        description: tool.description ?? '',
        inputSchema: tool.jsonSchema,
      }));
      this.catalogTokens = { version: this.catalogVersion, value: countToolDefinitionTokens(all) };
    }
    const catalog = await this.catalogTokens.value;
    return {
      offered: { tools: step.tools.length, ...offered },
      catalog: { tools: this.directTools.length + this.catalog.size, ...catalog },
      savedTokens: catalog.tokens - offered.tokens,
      ratio: catalog.tokens === 0 ? 0 : offered.tokens / catalog.tokens,
    };
  }

  // ---- internals used by ToolSearchStep ----

  /** @internal */
  emit: TelemetryEmitter['emit'] = (event) => this.telemetry.emit(event);

  /**
   * The direct or catalog tool a name refers to: a model-facing `toolName` first, then an id. Tools
   * shadowed by a meta-tool's name are never returned.
   */
  resolve(name: string): CatalogTool<TTool> | undefined {
    const tool =
      this.directTools.find((candidate) => candidate.toolName === name || candidate.id === name) ??
      this.catalog.getByToolName(name) ??
      this.catalog.get(name);
    return tool && !this.metaNames.has(tool.toolName) ? tool : undefined;
  }

  /** Whether a model-facing name is one of this session's meta-tools. */
  isMetaTool(name: string): boolean {
    return this.metaNames.has(name);
  }

  /** @internal */
  isDirect(tool: CatalogTool<TTool>): boolean {
    return this.directTools.includes(tool);
  }

  /**
   * @internal The policy for one operation of a request (a step's preparation, a search, one
   * call): one deadline for its asks (`filterTimeoutMs`), each refusal reported as a `blocked`
   * event. Direct tools are always allowed.
   */
  policyFor(request: StepRequest): PolicyCheck<TTool> {
    const gate = new PolicyGate(this.options.filter, this.options.filterTimeoutMs);
    return async (tool, phases, input) => {
      if (this.isDirect(tool)) return true;
      for (const phase of phases) {
        const answer = await gate.ask({
          toolId: tool.id,
          tool,
          phase,
          context: request.context,
          threadId: request.threadId,
          resourceId: request.resourceId,
          input: phase === 'call' ? input : undefined,
        });
        if (answer.allowed) continue;
        this.telemetry.emit({
          type: 'blocked',
          threadId: request.threadId,
          resourceId: request.resourceId,
          toolId: tool.id,
          phase,
          reason: answer.reason,
        });
        return false;
      }
      return true;
    };
  }

  /**
   * @internal The policy phases of the way to get a catalog tool offered (or, in proxy mode, run
   * through `call_tool`), which a "not loaded" answer sends the model down.
   */
  loadPhases(): readonly PolicyPhase[] {
    return this.mode === 'auto-load' ? SUGGESTION_PHASES : DESCRIBE_PHASES;
  }

  /**
   * @internal Tool names to suggest for a name that is unknown (or hidden): ranked by the name's
   * first characters (`MODEL_INPUT_LIMITS.echoLength`), allowed at search, load and active, never
   * the tool the name itself refers to (refused, since it is being suggested against).
   */
  async suggest(name: string, allowed: PolicyCheck<TTool>, limit = 3): Promise<string[]> {
    const refused = this.resolve(name)?.id;
    const hits = await this.index.search(nameStart(name), {
      limit,
      filter: async (id) => {
        const tool = this.catalog.get(id);
        return (
          tool !== undefined &&
          id !== refused &&
          !this.metaNames.has(tool.toolName) &&
          (await allowed(tool, SUGGESTION_PHASES))
        );
      },
    });
    return hits.flatMap((hit) => {
      const tool = this.catalog.get(hit.id);
      return tool ? [tool.toolName] : [];
    });
  }

  /** @internal */
  descriptionBudget(): number {
    return this.options.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET;
  }

  /**
   * Keeps newly loaded tools: in the store, or, where loads are read back from the conversation,
   * nowhere, but refused past the same cap as a store's (the conversation would drop them unread).
   * `loadedCount` is how many tools the thread has loaded with these.
   * @internal
   */
  async remember(request: StepRequest, ids: readonly string[], loadedCount: number): Promise<void> {
    const key = threadKey(request);
    if (key && this.store) {
      if (ids.length > 0) await this.store.add(key, ids);
      return;
    }
    if (loadedCount > DEFAULT_MAX_TOOLS_PER_THREAD) {
      throw new ToolLimitError(key ?? 'conversation', DEFAULT_MAX_TOOLS_PER_THREAD, loadedCount - ids.length, ids);
    }
  }

  /** The catalog-mode listing of lazy tools, or undefined when every allowed tool is discovered. */
  private async discoveryListing(
    allowed: PolicyCheck<TTool>,
    offeredIds: ReadonlySet<string>,
  ): Promise<string | undefined> {
    const lines: string[] = [];
    let undiscovered = 0;
    for (const tool of this.catalog) {
      if (tool.pinned || this.metaNames.has(tool.toolName)) continue;
      if (!(await allowed(tool, ['search']))) continue;
      if (!offeredIds.has(tool.id)) undiscovered++;
      const summary =
        (this.options.catalogListing ?? 'names-and-summaries') === 'names-and-summaries'
          ? firstSentence(tool.description, 100)
          : '';
      lines.push(summary ? `- ${tool.toolName}: ${summary}` : `- ${tool.toolName}`);
    }
    if (undiscovered === 0) return undefined;
    return `Available tools:\n${lines.join('\n')}`;
  }
}

/** The `loaded` field of a meta-tool call's outcome: present when the call loaded tools. */
function loadedField(loaded: readonly string[]): { loaded?: readonly string[] } {
  return loaded.length > 0 ? { loaded } : {};
}

function validationFailure(
  toolName: string,
  message: string,
  issues: { path: string; message: string }[] = [],
): { ok: false; error: ToolCallError } {
  return { ok: false, error: { code: 'invalid-arguments', toolName, message, issues } };
}

/**
 * One step of a session: the tools offered to the model and the handler of its calls. Calls made in
 * the same step see each other's loads in their results; loaded tools are offered from the next step.
 */
export class ToolSearchStep<TTool = unknown> {
  /** The tools offered at this step, in order. */
  readonly tools: readonly OfferedTool<TTool>[];
  /** Their names, in order (e.g. the AI SDK's `activeTools`). */
  readonly toolNames: readonly string[];
  /** Catalog tool ids loaded when the step began, in load order. */
  readonly loadedIds: readonly string[];
  private readonly loadedNow: Set<string>;
  private readonly byName: Map<string, OfferedTool<TTool>>;

  constructor(
    private readonly session: ToolSearchSession<TTool>,
    readonly request: StepRequest,
    tools: OfferedTool<TTool>[],
    loadedIds: string[],
  ) {
    this.tools = tools;
    this.toolNames = tools.map((tool) => tool.name);
    this.loadedIds = loadedIds;
    this.loadedNow = new Set(loadedIds);
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Whether the model is offered a tool of this name at this step. */
  offers(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * Keeps this step for the tool calls the model made at it (their call ids), so that
   * `session.stepForCall` hands it to each of them; replaces the thread's previously kept step.
   * Needs a thread id; the last step of at most 1,000 threads is kept.
   */
  expectCalls(callIds: Iterable<string>): void {
    this.session.expectCalls(this, callIds);
  }

  /**
   * Answers a call the model made at this step: meta-tools are answered by the session; catalog
   * tools are checked (offered, allowed, arguments valid) and run through their `execute`. Never
   * throws for the model's mistakes: they come back as `{ ok: false, error }` with a message
   * that says what to do instead.
   */
  async execute(name: string, input: unknown, options: ExecuteOptions = {}): Promise<ToolCallOutcome> {
    const allowed = this.session.policyFor(this.request);
    const offered = this.byName.get(name);
    if (offered?.kind === 'meta' && offered.role) return this.executeMeta(offered.role, name, input, options, allowed);
    const authorization = await this.authorizeWith(name, input, allowed);
    if (!authorization.ok) return authorization;
    return this.run(authorization.tool, authorization.input, options);
  }

  /**
   * Checks a call of a catalog (or direct) tool without running it, for hosts that run tools
   * themselves: the tool must be offered at this step and allowed by the policy's `call` phase, and
   * the input must match its schema.
   */
  async authorize(name: string, input: unknown): Promise<CallAuthorization<TTool>> {
    return this.authorizeWith(name, input, this.session.policyFor(this.request));
  }

  private async authorizeWith(
    name: string,
    input: unknown,
    allowed: PolicyCheck<TTool>,
  ): Promise<CallAuthorization<TTool>> {
    const { session } = this;
    if (name.length > MODEL_INPUT_LIMITS.nameLength) return this.unknownTool(name, allowed);
    const offered = this.byName.get(name);
    const tool = offered?.tool ?? session.resolve(name);
    if (!tool || offered?.kind === 'meta') return this.unknownTool(name, allowed);
    if (!offered) {
      // "Load it first" only when loading it would get it offered; else it reads like an unknown tool.
      if (!(await allowed(tool, session.loadPhases()))) return this.unknownTool(name, allowed);
      return this.notLoaded(tool, name);
    }
    if (!(await allowed(tool, ['call'], input))) return this.unknownTool(name, allowed);
    return this.validate(tool, input);
  }

  private async validate(tool: CatalogTool<TTool>, input: unknown): Promise<CallAuthorization<TTool>> {
    const result = await validateInput(tool, input ?? {});
    if (result.success) return { ok: true, tool, input: result.value };
    // Paths are the model's own keys: quote a bounded number of them, each cut.
    const issues = result.issues.slice(0, MAX_ISSUES_QUOTED).map((issue) => ({
      path: clipName(issue.path, 100),
      message: compactText(issue.message, 300),
    }));
    const quoted = issues.map((issue) => `${issue.path || '(input)'}: ${issue.message}`);
    const more = result.issues.length - issues.length;
    if (more > 0) quoted.push(`and ${more} more issue(s)`);
    const detail = quoted.join('; ');
    this.session.emit({
      type: 'self-correction',
      threadId: this.request.threadId,
      resourceId: this.request.resourceId,
      kind: 'invalid-arguments',
      toolName: tool.toolName,
      suggestions: [],
    });
    return validationFailure(
      tool.toolName,
      `Invalid arguments for tool "${tool.toolName}": ${detail}. Fix these fields and call it again.`,
      issues,
    );
  }

  private async run(tool: CatalogTool<TTool>, input: unknown, options: ExecuteOptions): Promise<ToolCallOutcome> {
    const { session, request } = this;
    if (!tool.execute) {
      return {
        ok: false,
        error: {
          code: 'not-executable',
          toolName: tool.toolName,
          message: `Tool "${tool.toolName}" cannot be run here (it has no executor).`,
        },
      };
    }
    const started = performance.now();
    try {
      const output = await tool.execute(input, {
        toolId: tool.id,
        threadId: request.threadId,
        resourceId: request.resourceId,
        context: request.context,
        abortSignal: options.abortSignal,
        host: options.host,
      });
      session.emit({
        type: 'call',
        threadId: request.threadId,
        resourceId: request.resourceId,
        toolId: tool.id,
        ok: true,
        latencyMs: performance.now() - started,
      });
      return { ok: true, output, toolId: tool.id };
    } catch (cause) {
      session.emit({
        type: 'call',
        threadId: request.threadId,
        resourceId: request.resourceId,
        toolId: tool.id,
        ok: false,
        latencyMs: performance.now() - started,
        error: 'execution-failed',
      });
      const reason = cause instanceof Error ? cause.message : String(cause);
      return {
        ok: false,
        error: {
          code: 'execution-failed',
          toolName: tool.toolName,
          message: `Tool "${tool.toolName}" failed: ${reason}`,
          cause,
        },
      };
    }
  }

  /**
   * The answer for a name that is no tool, or a tool the policy hides: the same words for both. A
   * name is quoted cut (`clipName`); one longer than any tool name gets no suggestions.
   */
  private async unknownTool(name: string, allowed: PolicyCheck<TTool>): Promise<{ ok: false; error: ToolCallError }> {
    const { session, request } = this;
    const tooLong = name.length > MODEL_INPUT_LIMITS.nameLength;
    const suggestions = tooLong ? [] : await session.suggest(name, allowed);
    const toolName = clipName(name, tooLong ? 50 : undefined);
    const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : this.findHint();
    session.emit({
      type: 'self-correction',
      threadId: request.threadId,
      resourceId: request.resourceId,
      kind: 'unknown-tool',
      toolName,
      suggestions,
    });
    const message = `Tool "${toolName}" is not available${tooLong ? `: ${NAME_LENGTH_RULE}` : ''}.${hint}`;
    return { ok: false, error: { code: 'unknown-tool', toolName, suggestions, message } };
  }

  /** Where to find tool names, for an answer that names none: ` Use search_tools to find ...`. */
  private findHint(): string {
    const search = this.session.metaToolName('search');
    return search ? ` Use ${search} to find available tools.` : '';
  }

  /** A tool error for a name argument longer than any tool name. */
  private nameTooLong(meta: string, path: string, name: string): { ok: false; error: ToolCallError } {
    return validationFailure(
      meta,
      `"${path}" is not a tool name: ${NAME_LENGTH_RULE}; got "${clipName(name, 50)}".${this.findHint()}`,
      [{ path, message: `expected at most ${MODEL_INPUT_LIMITS.nameLength} characters` }],
    );
  }

  private notLoaded(tool: CatalogTool<TTool>, name: string): { ok: false; error: ToolCallError } {
    const { session, request } = this;
    const meta = (role: MetaToolRole) => session.metaToolName(role);
    const quoted = JSON.stringify(tool.toolName);
    let fix: string;
    switch (session.mode) {
      case 'proxy':
        fix = `Call ${meta('call')} with {"toolName":${quoted},"arguments":{...}} to run it.`;
        break;
      case 'catalog':
        fix = `Call ${meta('discover')} with {"toolNames":[${quoted}]} first, then call it again.`;
        break;
      case 'auto-load':
        fix = `Call ${meta('search')} with {"query":${quoted}} to load it, then call it again.`;
        break;
      default:
        fix = `Call ${meta('load')} with {"toolName":${quoted}} first, then call it again.`;
    }
    session.emit({
      type: 'self-correction',
      threadId: request.threadId,
      resourceId: request.resourceId,
      kind: 'not-loaded',
      toolName: name,
      suggestions: [tool.toolName],
    });
    return {
      ok: false,
      error: {
        code: 'not-loaded',
        toolName: name,
        suggestions: [tool.toolName],
        message: `Tool "${tool.toolName}" is not loaded. ${fix}`,
      },
    };
  }

  private async executeMeta(
    role: MetaToolRole,
    name: string,
    input: unknown,
    options: ExecuteOptions,
    allowed: PolicyCheck<TTool>,
  ): Promise<ToolCallOutcome> {
    const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      if (input !== undefined) return validationFailure(name, `Arguments for "${name}" must be an object.`);
    }
    switch (role) {
      case 'search':
        return this.searchTools(name, args, allowed);
      case 'load':
        return this.loadTools(name, args, allowed);
      case 'discover':
        return this.discoverTools(name, args, allowed);
      case 'describe':
        return this.describeTool(name, args, allowed);
      case 'call':
        return this.callTool(name, args, options, allowed);
    }
  }

  private async searchTools(
    name: string,
    args: Record<string, unknown>,
    allowed: PolicyCheck<TTool>,
  ): Promise<ToolCallOutcome> {
    const { session, request } = this;
    const query = args.query;
    if (typeof query !== 'string' || query.trim() === '') {
      return validationFailure(name, `"${name}" needs a non-empty "query" string, e.g. {"query":"weather forecast"}.`, [
        { path: 'query', message: 'expected a non-empty string' },
      ]);
    }
    const hits = await session.searchWith(query, request, undefined, allowed);
    const budget = session.descriptionBudget();
    const results = hits.map((hit) => ({
      name: hit.tool.toolName,
      description: compactText(hit.tool.description, budget),
      score: Math.round(hit.score * 100) / 100,
    }));
    if (results.length === 0) {
      return {
        ok: true,
        output: {
          results: [],
          message: `No tools found matching "${compactText(nameStart(query, MODEL_INPUT_LIMITS.queryLength), 100)}". Try different keywords.`,
        },
      };
    }
    if (session.mode !== 'auto-load') {
      const next =
        session.mode === 'proxy'
          ? `Use ${session.metaToolName('describe')} to see a tool's parameters and ${session.metaToolName('call')} to run it.`
          : `Use ${session.metaToolName('load')} with an exact toolName or a toolNames array to make them available.`;
      return { ok: true, output: { results, message: `Found ${results.length} tool(s). ${next}` } };
    }
    const outcome = await this.load(
      hits.map((hit) => hit.tool.toolName),
      allowed,
    );
    const loadedNames = [...outcome.loaded, ...outcome.alreadyLoaded];
    const message =
      loadedNames.length > 0
        ? `Found and loaded ${loadedNames.length} tool(s): ${loadedNames.join(', ')}. They are available from your next step: call them directly.`
        : `Found ${results.length} tool(s), but none can be loaded.`;
    return {
      ok: true,
      output: { results, message, loaded: outcome.loaded, alreadyLoaded: outcome.alreadyLoaded },
      ...loadedField(outcome.loaded),
    };
  }

  /**
   * Resolves, checks and remembers loads; shared by load_tool, auto-load search and discovery.
   * Names not found are reported cut (`clipName`).
   */
  private async load(
    names: readonly string[],
    allowed: PolicyCheck<TTool>,
  ): Promise<{
    loaded: string[];
    alreadyLoaded: string[];
    notFound: string[];
    tools: CatalogTool<TTool>[];
    limitReached?: string;
  }> {
    const { session, request } = this;
    const loaded: string[] = [];
    const alreadyLoaded: string[] = [];
    const notFound: string[] = [];
    const tools: CatalogTool<TTool>[] = [];
    const newIds: string[] = [];
    for (const name of uniqueStrings(names)) {
      const tool = session.resolve(name);
      if (!tool || session.isDirect(tool) || !(await allowed(tool, ['load']))) {
        notFound.push(clipName(name));
        continue;
      }
      tools.push(tool);
      const pinnedOrOffered = tool.pinned || this.loadedNow.has(tool.id);
      if (pinnedOrOffered) {
        alreadyLoaded.push(tool.toolName);
        continue;
      }
      this.loadedNow.add(tool.id);
      newIds.push(tool.id);
      loaded.push(tool.toolName);
    }
    try {
      await session.remember(request, newIds, this.loadedNow.size);
    } catch (error) {
      if (!ToolLimitError.isInstance(error)) throw error;
      // The store refused: nothing of this call was loaded, and the model is told why.
      for (const id of newIds) this.loadedNow.delete(id);
      const refused = new Set(newIds);
      return {
        loaded: [],
        alreadyLoaded,
        notFound,
        tools: tools.filter((tool) => !refused.has(tool.id)),
        limitReached: `Too many tools are loaded in this conversation (limit ${error.limit}); ${loaded.join(', ')} could not be loaded.`,
      };
    }
    session.emit({
      type: 'load',
      threadId: request.threadId,
      resourceId: request.resourceId,
      requested: [...names],
      loaded: newIds,
      alreadyLoaded,
      notFound,
    });
    return { loaded, alreadyLoaded, notFound, tools };
  }

  private readNames(
    name: string,
    args: Record<string, unknown>,
    allowSingle: boolean,
  ): string[] | { ok: false; error: ToolCallError } {
    const { namesPerCall } = MODEL_INPUT_LIMITS;
    const tooMany = (count: number) =>
      validationFailure(
        name,
        `At most ${namesPerCall} tool names per call; got ${count}. Ask for the ones you need now, the rest in another call.`,
        [{ path: 'toolNames', message: `expected at most ${namesPerCall} names` }],
      );
    const names: string[] = [];
    if (args.toolNames !== undefined) {
      if (!Array.isArray(args.toolNames)) return notNames();
      // Counted before anything else is done with the list, however long it is.
      if (args.toolNames.length > namesPerCall) return tooMany(args.toolNames.length);
      for (const [index, item] of (args.toolNames as unknown[]).entries()) {
        if (typeof item !== 'string') return notNames();
        if (item.length > MODEL_INPUT_LIMITS.nameLength) return this.nameTooLong(name, `toolNames[${index}]`, item);
        names.push(item);
      }
    }
    if (allowSingle && args.toolName !== undefined) {
      if (typeof args.toolName !== 'string') {
        return validationFailure(name, `"toolName" must be a string.`, [
          { path: 'toolName', message: 'expected a string' },
        ]);
      }
      if (args.toolName.length > MODEL_INPUT_LIMITS.nameLength)
        return this.nameTooLong(name, 'toolName', args.toolName);
      names.push(args.toolName);
    }
    const clean = uniqueStrings(names.map((item) => item.trim()).filter((item) => item !== ''));
    if (clean.length === 0) {
      return validationFailure(
        name,
        allowSingle
          ? `You must provide either toolName (string) or toolNames (array) to ${name}.`
          : `"toolNames" must list at least one tool name.`,
      );
    }
    if (clean.length > namesPerCall) return tooMany(clean.length);
    return clean;

    function notNames() {
      return validationFailure(name, `"toolNames" must be an array of tool names.`, [
        { path: 'toolNames', message: 'expected an array of strings' },
      ]);
    }
  }

  private async loadTools(
    name: string,
    args: Record<string, unknown>,
    allowed: PolicyCheck<TTool>,
  ): Promise<ToolCallOutcome> {
    const names = this.readNames(name, args, true);
    if (!Array.isArray(names)) return names;
    const { loaded, alreadyLoaded, notFound, limitReached } = await this.load(names, allowed);
    const parts: string[] = [];
    if (limitReached) parts.push(limitReached);
    if (loaded.length > 0) parts.push(`Loaded: ${loaded.join(', ')}: available from your next step`);
    if (alreadyLoaded.length > 0) parts.push(`Already loaded: ${alreadyLoaded.join(', ')}`);
    if (notFound.length > 0) {
      const suggestions = names.length === 1 ? await this.session.suggest(names[0]!, allowed) : [];
      const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : this.findHint();
      parts.push(`Not found: ${notFound.join(', ')}.${hint}`);
    }
    const output: Record<string, unknown> = {
      success: notFound.length === 0 && !limitReached,
      message: parts.join(' | '),
      loadedCount: loaded.length,
      loaded,
      alreadyLoaded,
      notFound,
    };
    if (names.length === 1) output.toolName = loaded[0] ?? alreadyLoaded[0] ?? clipName(names[0]!);
    return { ok: true, output, ...loadedField(loaded) };
  }

  private async discoverTools(
    name: string,
    args: Record<string, unknown>,
    allowed: PolicyCheck<TTool>,
  ): Promise<ToolCallOutcome> {
    const names = this.readNames(name, args, false);
    if (!Array.isArray(names)) return names;
    const { loaded, alreadyLoaded, notFound, tools } = await this.load(names, allowed);
    const parts = [`Discovered ${tools.length} tool(s); call them from your next step.`];
    if (notFound.length > 0) parts.push(`Not found: ${notFound.join(', ')}.`);
    return {
      ok: true,
      output: {
        tools: tools.map((tool) => ({
          name: tool.toolName,
          description: compactText(tool.description, 0),
          inputSchema: tool.jsonSchema,
        })),
        message: parts.join(' '),
        loaded,
        alreadyLoaded,
        notFound,
      },
      ...loadedField(loaded),
    };
  }

  /** The `toolName` argument of `describe_tool` and `call_tool`, or the tool error to answer. */
  private readToolName(name: string, args: Record<string, unknown>, usage: string): string | ToolCallOutcome {
    if (typeof args.toolName !== 'string' || args.toolName === '') {
      return validationFailure(name, `"${name}" needs ${usage}.`, [{ path: 'toolName', message: 'expected a string' }]);
    }
    if (args.toolName.length > MODEL_INPUT_LIMITS.nameLength) return this.nameTooLong(name, 'toolName', args.toolName);
    return args.toolName;
  }

  private async describeTool(
    name: string,
    args: Record<string, unknown>,
    allowed: PolicyCheck<TTool>,
  ): Promise<ToolCallOutcome> {
    const toolName = this.readToolName(name, args, 'a "toolName" string');
    if (typeof toolName !== 'string') return toolName;
    const tool = this.session.resolve(toolName);
    if (!tool || !(await allowed(tool, DESCRIBE_PHASES))) return this.unknownTool(toolName, allowed);
    return {
      ok: true,
      output: { name: tool.toolName, description: compactText(tool.description, 0), inputSchema: tool.jsonSchema },
    };
  }

  private async callTool(
    name: string,
    args: Record<string, unknown>,
    options: ExecuteOptions,
    allowed: PolicyCheck<TTool>,
  ): Promise<ToolCallOutcome> {
    const toolName = this.readToolName(name, args, 'a "toolName" string and an "arguments" object');
    if (typeof toolName !== 'string') return toolName;
    const toolArgs = args.arguments ?? {};
    if (typeof toolArgs !== 'object' || toolArgs === null || Array.isArray(toolArgs)) {
      return validationFailure(name, `"arguments" must be an object.`, [
        { path: 'arguments', message: 'expected an object' },
      ]);
    }
    const tool = this.session.resolve(toolName);
    if (!tool || !(await allowed(tool, CALL_THROUGH_PHASES, toolArgs))) return this.unknownTool(toolName, allowed);
    const validated = await this.validate(tool, toolArgs);
    if (!validated.ok) return validated;
    return this.run(tool, validated.input, options);
  }
}
