// The tools that arrive with one request (`StepRequest.tools`): checked once per descriptor,
// looked up by name and id for that request only, and indexed in the session's shared pool once
// per fingerprint (see `RequestToolPool`).
import { ToolCatalog } from '../catalog/catalog.js';
import { DuplicateToolError, InvalidArgumentError, InvalidToolError, ToolNameConflictError } from '../errors.js';
import { type PoolHit, RequestToolPool, requestToolKey } from '../index/request-tool-pool.js';
import type { ToolIndexOptions } from '../index/tool-index.js';
import type { CatalogTool, ToolDescriptor } from '../types.js';
import { describeValue, isIterable } from '../values.js';
import type { ScoredTool } from './session-search.js';

/** Session options of request tools (`StepRequest.tools`). */
export interface RequestToolOptions {
  requestTools?: {
    /**
     * How many distinct request tools (by id and indexed text) stay indexed across requests; the
     * least recently used are dropped from the index first (never those of the request at hand).
     * Default 10,000.
     */
    maxIndexed?: number;
  };
}

/** One request's tools, as its steps see them: by model-facing name and by id, each with its pool key. */
export class RequestTools<TTool> {
  readonly #byId = new Map<string, CatalogTool<TTool>>();
  readonly #byToolName = new Map<string, CatalogTool<TTool>>();
  /** The pool keys of these tools, each to its tool. */
  readonly byKey = new Map<string, CatalogTool<TTool>>();

  /** @internal Filled by {@link RequestToolSets}. */
  add(key: string, tool: CatalogTool<TTool>): void {
    this.#byId.set(tool.id, tool);
    this.#byToolName.set(tool.toolName, tool);
    this.byKey.set(key, tool);
  }

  /** The request tool of this id. */
  get(id: string): CatalogTool<TTool> | undefined {
    return this.#byId.get(id);
  }

  /** The request tool a model-facing name (or else an id) refers to. */
  resolve(name: string): CatalogTool<TTool> | undefined {
    return this.#byToolName.get(name) ?? this.#byId.get(name);
  }

  /** Whether a catalog tool is replaced by one of these (same id) for this request. */
  shadows(tool: CatalogTool<unknown>): boolean {
    return this.#byId.has(tool.id);
  }

  /** The pinned tools among these. */
  pinned(): CatalogTool<TTool>[] {
    return [...this.#byId.values()].filter((tool) => tool.pinned === true);
  }

  get size(): number {
    return this.#byId.size;
  }
}

/**
 * The request tools of a session's requests: each request's `tools` made into a
 * {@link RequestTools} (each tool checked and fingerprinted once per descriptor object, so a host
 * that passes the same descriptors at every step pays for them once) and admitted to the shared
 * {@link RequestToolPool}. `excluded` leaves out tools the session owns the name of (direct tools,
 * meta-tools).
 */
export class RequestToolSets<TTool> {
  readonly pool: RequestToolPool;
  readonly #entries = new WeakMap<object, { key: string; tool: CatalogTool<TTool> }>();

  constructor(
    options: RequestToolOptions & { indexOptions?: ToolIndexOptions },
    readonly excluded: (tool: CatalogTool<TTool>) => boolean,
  ) {
    const { minScore, ranking } = options.indexOptions ?? {};
    this.pool = new RequestToolPool(options.requestTools?.maxIndexed, { minScore, ranking });
  }

  /** The request's tools, admitted to the pool; undefined when it brings none. */
  of(tools: StepTools | undefined): RequestTools<TTool> | undefined {
    if (tools === undefined) return undefined;
    if (typeof tools !== 'object' || tools === null || !isIterable(tools)) {
      throw new InvalidArgumentError(
        'request.tools',
        `request.tools must be an iterable of tool descriptors; got ${describeValue(tools)}.`,
      );
    }
    const set = this.#build(tools);
    this.pool.admit(set.byKey);
    return set;
  }

  /** Pool hits among `set`'s tools, as tools with scores. */
  async search(
    set: RequestTools<TTool>,
    query: string,
    options: {
      limit: number;
      minScore?: number;
      explain?: boolean;
      filter: (tool: CatalogTool<TTool>) => Promise<boolean>;
    },
  ): Promise<ScoredTool<TTool>[]> {
    const hits: PoolHit[] = await this.pool.search(query, {
      limit: options.limit,
      minScore: options.minScore,
      explain: options.explain,
      filter: (key) => {
        const tool = set.byKey.get(key);
        return tool !== undefined && options.filter(tool);
      },
    });
    return hits.flatMap((hit) => {
      const tool = set.byKey.get(hit.key);
      if (tool === undefined) return [];
      return hit.reasons === undefined
        ? [{ tool, score: hit.score }]
        : [{ tool, score: hit.score, reasons: hit.reasons }];
    });
  }

  #build(tools: StepTools): RequestTools<TTool> {
    const set = new RequestTools<TTool>();
    const names = new Map<string, string>();
    let position = 0;
    for (const descriptor of tools) {
      const { key, tool } = this.#entryOf(descriptor, position++);
      if (this.excluded(tool)) continue;
      if (set.get(tool.id)) {
        throw new DuplicateToolError(tool.id, set.get(tool.id)?.source, tool.source);
      }
      const owner = names.get(tool.toolName);
      if (owner !== undefined) throw new ToolNameConflictError(tool.toolName, tool.id, owner);
      names.set(tool.toolName, tool.id);
      set.add(key, tool);
    }
    return set;
  }

  /** A request tool's catalog entry and pool key, made once per descriptor object. */
  #entryOf(descriptor: ToolDescriptor<unknown>, position: number): { key: string; tool: CatalogTool<TTool> } {
    const known = typeof descriptor === 'object' && descriptor !== null ? this.#entries.get(descriptor) : undefined;
    if (known !== undefined) return known;
    let tool: CatalogTool<TTool> | undefined;
    try {
      tool = new ToolCatalog([descriptor as ToolDescriptor<TTool>]).list()[0];
    } catch (error) {
      if (!InvalidToolError.isInstance(error)) throw error;
      throw new InvalidToolError(`request.tools[${position}]: ${error.message}`, error.field, { cause: error });
    }
    const entry = { key: requestToolKey(tool!), tool: tool! };
    this.#entries.set(descriptor, entry);
    return entry;
  }
}

/** What `StepRequest.tools` may be. */
type StepTools = Iterable<ToolDescriptor<unknown>>;
