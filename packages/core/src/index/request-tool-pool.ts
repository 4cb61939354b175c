// The index of the tools that arrive with requests (`StepRequest.tools`): one index for all
// requests, each tool indexed once per fingerprint, so a step of a request with 1,000 tools costs
// lookups, not a rebuild. Which of its entries a search may return is the caller's business (the
// tools of the current request only); the executor is never taken from here.
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import type { CatalogTool, MatchReason, ToolDescriptor } from '../types.js';
import { toolFingerprint } from './tool-document.js';
import { ToolIndex, type ToolIndexOptions } from './tool-index.js';

/** How many distinct request tools (by fingerprint) the pool keeps indexed by default. */
export const DEFAULT_MAX_REQUEST_TOOLS = 10_000;

/**
 * The pool key of a tool: its id and the fingerprint of its indexed text (name, description, tags,
 * source, parameter text). Tools of one key index alike, whoever brings them.
 */
export function requestToolKey(tool: CatalogTool<unknown>): string {
  return `${tool.id}\u0000${toolFingerprint(tool)}`;
}

/** One search hit of the pool: the key of the indexed tool and its score. */
export interface PoolHit {
  key: string;
  score: number;
  reasons?: MatchReason[];
}

/**
 * The searchable index of request tools, shared by all requests of a session: a catalog of
 * metadata-only entries (id = pool key, no `execute`, no framework tool) and a {@link ToolIndex}
 * that follows it incrementally. At most `max` keys are kept (least recently admitted dropped
 * first, and their entries leave the index), but never a key of the batch being admitted, so one
 * request larger than the cap still finds all its tools.
 */
export class RequestToolPool {
  readonly #catalog = new ToolCatalog();
  readonly #index: ToolIndex;
  /** Keys in the order they were last admitted (oldest first). */
  readonly #recent = new Set<string>();
  /** How many entries were added to the index so far (evicted ones included). */
  #indexed = 0;

  constructor(
    readonly max: number = DEFAULT_MAX_REQUEST_TOOLS,
    indexOptions: Pick<ToolIndexOptions, 'minScore' | 'ranking'> = {},
  ) {
    if (!Number.isInteger(max) || max < 1) {
      throw new InvalidOptionError(
        'requestTools.maxIndexed',
        `requestTools.maxIndexed must be a positive integer; got ${String(max)}.`,
      );
    }
    this.#index = new ToolIndex(this.#catalog, { minScore: indexOptions.minScore, ranking: indexOptions.ranking });
  }

  /** How many keys are indexed. */
  get size(): number {
    return this.#recent.size;
  }

  /** How many entries the pool has indexed since it was made (each key once until evicted). */
  get indexedCount(): number {
    return this.#indexed;
  }

  /**
   * Makes sure every tool of a request is indexed under its key (new keys only: one incremental
   * add each) and marks them as the most recently used; then drops the least recently used keys
   * past `max`, except those of this batch.
   */
  admit(tools: ReadonlyMap<string, CatalogTool<unknown>>): void {
    const added: ToolDescriptor[] = [];
    for (const [key, tool] of tools) {
      if (this.#recent.delete(key)) {
        this.#recent.add(key);
        continue;
      }
      this.#recent.add(key);
      added.push(metadataOf(key, tool));
    }
    if (added.length > 0) {
      this.#catalog.addAll(added);
      this.#indexed += added.length;
    }
    let excess = Math.min(this.#recent.size - this.max, this.#recent.size - tools.size);
    for (const key of this.#recent) {
      if (excess-- <= 0) break;
      this.#recent.delete(key);
      this.#catalog.remove(key);
    }
  }

  /** Ranks the indexed entries for a query; `filter` (by key) keeps those the caller may return. */
  async search(
    query: string,
    options: {
      limit: number;
      minScore?: number;
      explain?: boolean;
      filter: (key: string) => boolean | Promise<boolean>;
    },
  ): Promise<PoolHit[]> {
    if (this.#recent.size === 0) return [];
    const hits = await this.#index.search(query, options);
    return hits.map((hit) =>
      hit.reasons === undefined
        ? { key: hit.id, score: hit.score }
        : { key: hit.id, score: hit.score, reasons: hit.reasons },
    );
  }

  /** Stops the index following its catalog. */
  dispose(): void {
    this.#index.dispose();
  }
}

/** The entry a pool indexes for a tool: its searchable text under its key, nothing runnable. */
function metadataOf(key: string, tool: CatalogTool<unknown>): ToolDescriptor {
  return {
    id: key,
    name: tool.name,
    description: tool.description,
    tags: tool.tags,
    source: tool.source,
    inputSchema: tool.jsonSchema,
  };
}
