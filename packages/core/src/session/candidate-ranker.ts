// Ranking the tools a host hands over (the AI SDK's `toolSearch({ search })`, a provider's native
// deferred-tool search): the candidates change from call to call, the index and policy stay.
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import { checkMinScore } from '../index/ranking-params.js';
import { ToolIndex, type ToolIndexOptions } from '../index/tool-index.js';
import type { CatalogTool, ToolDescriptor } from '../types.js';
import { describeNonText, describeValue, isIterable, isRecord, isText } from '../values.js';
import { MODEL_INPUT_LIMITS, nameStart } from './model-input-limits.js';
import { type PolicyFilter, policyCheck } from './policy.js';

/** Tools a ranker without a catalog keeps indexed; past it, only the current candidates stay. */
export const MAX_LEARNED_TOOLS = 10_000;

/** How many names a ranker returns by default. */
const DEFAULT_CANDIDATE_LIMIT = 10;

/** A tool a host hands a ranker: the name it knows the tool by, and its description. */
export interface RankCandidate {
  name: string;
  description?: string;
}

/** Options of {@link createCandidateRanker}. */
export interface CandidateRankerOptions<TTool = unknown> {
  /**
   * The tools the candidates are drawn from, indexed once with their parameters, tags and sources;
   * a candidate is matched by id or tool name. Without it, the candidates are indexed as they come
   * (name and description): when first seen, and again when their description changes.
   */
  catalog?: ToolCatalog<TTool> | Iterable<ToolDescriptor<TTool>>;
  /** Options of the index: an `embedder` for hybrid search, `minScore`, ranking. */
  indexOptions?: ToolIndexOptions;
  /** The policy's `search` phase: tools it refuses are never returned. Fails closed when it throws. */
  filter?: PolicyFilter<TTool>;
  /** How many names to return at most. Default 10. */
  limit?: number;
  /** Hits scoring below this (0-1) are left out. Default: the index's. */
  minScore?: number;
}

/** Ranks the candidates a host hands over for a query; see {@link createCandidateRanker}. */
export interface CandidateRanker {
  /**
   * The names of the candidates that match `query`, best first, at most `limit`: only candidates,
   * only those the policy lets be searched. Nothing for an empty query or no candidates.
   */
  rank(query: string, candidates: readonly RankCandidate[]): Promise<string[]>;
  /**
   * How many tools are indexed (without a catalog: those learned from candidates, at most 10,000,
   * or the current candidates alone when they are more).
   */
  readonly size: number;
  /** Releases the index. */
  dispose(): void;
}

/**
 * A ranker for hosts that hand over the tools a search may return with each query (the AI SDK's
 * `toolSearch({ search })` callback hands its deferred tools): the index (BM25 over names,
 * descriptions, tags and parameters; hybrid with an `embedder`) ranks them, the policy's `search`
 * phase is asked, and only candidates count toward `limit`. Each bad option is an
 * {@link InvalidOptionError} naming it.
 */
export function createCandidateRanker<TTool = unknown>(options: CandidateRankerOptions<TTool> = {}): CandidateRanker {
  const { limit, minScore, filter } = checkRankerOptions(options);
  const learns = options.catalog === undefined;
  const catalog =
    options.catalog instanceof ToolCatalog ? options.catalog : new ToolCatalog<TTool>(options.catalog ?? []);
  const index = new ToolIndex(catalog, options.indexOptions);
  return {
    async rank(query, candidates) {
      checkRankInput(query, candidates);
      if (candidates.length === 0 || query.trim() === '') return [];
      const names = new Set(candidates.map((candidate) => candidate.name));
      if (learns) learn(catalog, candidates, names);
      const allowed = policyCheck(
        filter,
        undefined,
        {},
        () => false,
        () => {},
      );
      const nameOf = (tool: CatalogTool<TTool>) =>
        names.has(tool.id) ? tool.id : names.has(tool.toolName) ? tool.toolName : undefined;
      const hits = await index.search(nameStart(query, MODEL_INPUT_LIMITS.queryLength), {
        limit,
        minScore,
        filter: async (id) => {
          const tool = catalog.get(id);
          return tool !== undefined && nameOf(tool) !== undefined && (await allowed(tool, ['search']));
        },
      });
      const found = new Set<string>();
      for (const hit of hits) {
        const tool = catalog.get(hit.id);
        const name = tool && nameOf(tool);
        if (name !== undefined) found.add(name);
      }
      return [...found];
    },
    get size() {
      return index.size;
    },
    dispose: () => index.dispose(),
  };
}

/** Indexes the candidates that are new or whose description changed, within {@link MAX_LEARNED_TOOLS}. */
function learn<TTool>(catalog: ToolCatalog<TTool>, candidates: readonly RankCandidate[], names: ReadonlySet<string>) {
  for (const { name, description = '' } of candidates) {
    const known = catalog.get(name);
    if (known === undefined || (known.description ?? '') !== description) catalog.upsert({ id: name, description });
  }
  if (catalog.size <= MAX_LEARNED_TOOLS) return;
  for (const { id } of catalog.list()) if (!names.has(id)) catalog.remove(id);
}

/** The options of a ranker, checked: each bad one an {@link InvalidOptionError} naming it. */
function checkRankerOptions<TTool>(options: CandidateRankerOptions<TTool>) {
  if (!isRecord(options as unknown)) {
    throw new InvalidOptionError(
      'options',
      `A candidate ranker takes an options object; got ${describeValue(options)}.`,
    );
  }
  const { catalog, filter, indexOptions } = options;
  if (catalog !== undefined && !(catalog instanceof ToolCatalog || isIterable(catalog))) {
    throw new InvalidOptionError(
      'catalog',
      `catalog must be a ToolCatalog or an iterable of tools; got ${describeValue(catalog)}.`,
    );
  }
  if (filter !== undefined && typeof filter !== 'function') {
    throw new InvalidOptionError('filter', `filter must be a function; got ${describeValue(filter)}.`);
  }
  if (indexOptions !== undefined && !isRecord(indexOptions)) {
    throw new InvalidOptionError('indexOptions', `indexOptions must be an object; got ${describeValue(indexOptions)}.`);
  }
  const limit = options.limit ?? DEFAULT_CANDIDATE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidOptionError('limit', `limit must be a positive integer; got ${String(limit)}.`);
  }
  const minScore = options.minScore === undefined ? undefined : checkMinScore(options.minScore, 'minScore');
  return { limit, minScore, filter };
}

/** A query and candidates as `rank` takes them, else an {@link InvalidArgumentError} naming the bad one. */
function checkRankInput(query: unknown, candidates: unknown): void {
  if (typeof query !== 'string') {
    throw new InvalidArgumentError('query', `query must be a string; got ${describeValue(query)}.`);
  }
  if (!Array.isArray(candidates)) {
    throw new InvalidArgumentError('candidates', `candidates must be an array; got ${describeValue(candidates)}.`);
  }
  candidates.forEach((candidate: unknown, at) => {
    const ok =
      isRecord(candidate) &&
      isText(candidate.name) &&
      (candidate.description === undefined || typeof candidate.description === 'string');
    if (!ok) {
      const blankName = isRecord(candidate) && typeof candidate.name === 'string' && !isText(candidate.name);
      const got = blankName ? `a name that is ${describeNonText(candidate.name)}` : describeValue(candidate);
      throw new InvalidArgumentError(
        `candidates[${at}]`,
        `candidates[${at}] must be { name: string, description?: string } with a name that is not blank; got ${got}.`,
      );
    }
  });
}
