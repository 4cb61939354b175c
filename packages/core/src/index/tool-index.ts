import type { CatalogChange, ToolCatalog } from '../catalog/catalog.js';
import { IndexDisposedError, InvalidOptionError } from '../errors.js';
import { firstSentence } from '../text/compact-text.js';
import type { CatalogTool, Embedder, SearchHit, SearchOptions } from '../types.js';
import { encodeBinaryIndex, loadBinaryIndexes } from './binary-index.js';
import type { EmbeddingCache } from './embedding-cache.js';
import { type ExplainContext, explainHit, explainQuery } from './explain.js';
import { type FuseOptions, fuseRankings } from './fuse-rankings.js';
import { checkIndexOptions } from './index-options.js';
import { buildKeywordIndex } from './keyword-build.js';
import type { KeywordIndex } from './keyword-index.js';
import { PhraseIndex } from './phrase-index.js';
import { postingDocs } from './postings.js';
import {
  checkMinScore,
  DEFAULT_MIN_SCORE,
  type RankingOverrides,
  type RankingParams,
  resolveRanking,
} from './ranking-params.js';
import type { RankingState } from './ranking-state.js';
import { LOOKUP_FIELDS, Scorer } from './scorer.js';
import { loadSavedIndexes, type SavedIndexes, type SerializedToolIndex, serializeIndex } from './serialize.js';
import { trimTermNumbers } from './term-numbers.js';
import { INDEX_FIELDS, ToolIndexFeeder, toolPhraseLines, toolTerms, toolTermTexts } from './tool-document.js';
import { ToolSources } from './tool-sources.js';
import { bestSlots } from './top-k.js';
import { VectorIndex } from './vector-index.js';

/** Options for a {@link ToolIndex}. */
export interface ToolIndexOptions {
  /**
   * Hits scoring below this (in [0, 1], see {@link ToolIndex} for the rule) are dropped, unless a
   * search passes its own. Default {@link DEFAULT_MIN_SCORE}.
   */
  minScore?: number;
  /**
   * Turns on hybrid search: tool texts are embedded with it and each search fuses the keyword ranking
   * with the nearest tools by meaning. Without it the index is keyword-only and needs no model.
   */
  embedder?: Embedder;
  /**
   * Where vectors are kept across index instances and processes, so that unchanged tools are not
   * embedded again (hybrid search only).
   */
  embeddingCache?: EmbeddingCache;
  /** How vector similarity weighs against keyword scores (hybrid search only); see `fuseRankings`. */
  fusion?: Omit<FuseOptions, 'limit'>;
  /**
   * How many nearest tools by meaning each hybrid search considers: at least this many, and at least
   * three times the search's `limit`. Default 50.
   */
  vectorCandidates?: number;
  /**
   * Advanced: overrides parts of the ranking ({@link DEFAULT_RANKING}). The defaults were chosen on
   * several catalogs at once; change them only with a benchmark at hand.
   */
  ranking?: RankingOverrides;
}

/** A query's ranked hits, the ranking they come from, and how many of them are exact (see `#rankedHits`). */
interface RankedHits {
  ranking: RankingState;
  ranked: SearchHit[];
  slotOfId: Map<string, number>;
  exact: number;
}

/**
 * Where {@link ToolIndex.fromJSON} hands the indexes it read to the constructor: a key of the
 * options object that only this module has, so no other caller can pass (or see) loaded indexes.
 */
const SAVED: unique symbol = Symbol('toolscout.savedIndexes');

/** The options `fromJSON` builds: the caller's, plus the indexes read from the saved document. */
type LoadOptions = ToolIndexOptions & { [SAVED]: SavedIndexes };

/**
 * A keyword index over a {@link ToolCatalog} (optionally hybrid with embeddings), kept in step with
 * the catalog: every tool is indexed on construction, and each later add, remove or replace updates
 * the index incrementally (never a rebuild).
 *
 * **Indexing.** A tool's name (plus the words of its id that the name lacks, such as a `server__`
 * namespace), description, tags, source, and parameter names and descriptions (nested object
 * properties included) are separate fields, plus the pairs of neighbouring words of the name and
 * of the description. Text goes through {@link tokenize}: identifiers split at case changes, `_`,
 * `-`, `.`, `/` and digits; Unicode lower case without accents; CJK as characters and character
 * pairs; English function words dropped; a light English stemmer. Queries also lose request filler
 * ("please", "can you", "I want"). Of each part of a tool (name, id, description, tags, source,
 * parameter text) the index reads at most {@link MAX_INDEXED_CHARS} (32,768) characters, so that
 * one oversized tool costs every build and search little; the catalog keeps and serves the whole
 * text.
 *
 * **Ranking.** Each query term `t` is looked up exactly and as a prefix; a term that (almost) no tool
 * contains is also looked up with one typo (two from 8 letters). A tool's match of `t` is
 * `s(t) = Σ field weight × BM25(t, field)` (name 2, description, tags and source 1, parameters 0.5;
 * k1 2, b 0.9), prefix matches counting 0.3 and typo matches 0.6 of an exact one. The tool's evidence
 * `E` adds four parts:
 *
 * - the whole request: `Σ s(t) × √m`, `m` the number of query terms the tool matches (× 0.4);
 * - the request's sentence the tool matches best, computed alike (× 0.6), so that each part of a
 *   multi-part request ranks its own tools;
 * - phrases: pairs of neighbouring query terms found side by side (in either order) in the tool's
 *   name or description, BM25-scored like a field of weight 2;
 * - its source: what the other tools of the same source (API, server) match beyond the tool itself,
 *   per term the best of them, × `ln(N / size) / ln N` (0 when one source holds the whole catalog).
 *
 * **Scores.** `score = 1 − e^(−E / (U × √n))`, where `n` is the number of distinct query terms and
 * `U` the evidence of one exact name match of a word that only that tool has (`2 × idf`, `idf` of a
 * word in 1 of the catalog's N tools). The rule is absolute: a score does not depend on the other
 * hits, and to first order not on the catalog's size (IDF and `U` grow alike with N), so a
 * `minScore` means the same on any catalog. A one-word request whose word is in one tool's name (and
 * nowhere else) scores 0.63 for it; a request of more words needs proportionally more evidence (√n);
 * a tool matching nothing scores 0, so a request of nonsense or of stop words only finds nothing.
 * Hits below `minScore` (default {@link DEFAULT_MIN_SCORE}) are dropped. In hybrid mode the score is
 * fused with vector similarity by `fuseRankings` (a noisy OR, still absolute).
 *
 * @typeParam TTool - the catalog's framework tool type.
 */
export class ToolIndex<TTool = unknown> {
  readonly #catalog: ToolCatalog<TTool>;
  readonly #minScore: number;
  readonly #ranking: RankingParams;
  readonly #sources: ToolSources;
  readonly #keyword: KeywordIndex;
  readonly #phrases: PhraseIndex;
  readonly #vector: VectorIndex | undefined;
  readonly #scorer: Scorer;
  readonly #fusion: Omit<FuseOptions, 'limit'>;
  readonly #vectorCandidates: number;
  #unsubscribe: (() => void) | undefined;

  constructor(catalog: ToolCatalog<TTool>, given?: ToolIndexOptions) {
    const options = checkIndexOptions(given);
    this.#catalog = catalog;
    this.#minScore = checkMinScore(options.minScore ?? DEFAULT_MIN_SCORE, 'minScore');
    this.#ranking = resolveRanking(options.ranking);
    this.#fusion = options.fusion ?? {};
    const vectorCandidates = options.vectorCandidates ?? 50;
    if (!Number.isInteger(vectorCandidates) || vectorCandidates < 1) {
      throw new InvalidOptionError(
        'vectorCandidates',
        `vectorCandidates must be a positive integer, got ${String(vectorCandidates)}`,
      );
    }
    this.#vectorCandidates = vectorCandidates;
    const tools = catalog.list();
    // From ToolIndex.fromJSON: the indexes come from the saved document (already checked).
    const saved = (options as Partial<LoadOptions>)[SAVED];
    const built = saved ?? buildIndexes(tools);
    this.#keyword = built.keyword;
    this.#phrases = built.phrases;
    this.#vector = saved?.vector ?? (options.embedder ? embedAll(catalog, options) : undefined);
    if (saved?.sources !== undefined) this.#sources = saved.sources;
    else {
      this.#sources = new ToolSources();
      for (let i = 0; i < tools.length; i++) {
        const id = tools[i]!.id;
        // (documents are numbered in catalog order, unless a saved index's tools were replaced since)
        this.#sources.track(tools[i]!, this.#keyword.idOf(i) === id ? i : this.#keyword.docOf(id)!);
      }
    }
    this.#scorer = new Scorer(this.#keyword, this.#phrases, this.#ranking, this.#sources);
    this.#unsubscribe = this.#catalog.subscribe((change) => this.#apply(change));
  }

  /** The score below which hits are dropped unless a search says otherwise. */
  get minScore(): number {
    return this.#minScore;
  }

  /** How many tools are indexed. */
  get size(): number {
    return this.#keyword.size;
  }

  /**
   * Ranks the catalog's tools for a request. Hits are sorted by score (then id); each says which
   * query terms matched in which fields. A `filter` is asked about one ranked candidate after the
   * other (a few at a time, never more than the places still free) until `limit` hits are found.
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const limit = options.limit ?? 10;
    if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0) {
      throw new InvalidOptionError('limit', `limit must be a non-negative number, got ${String(limit)}`);
    }
    const minScore = checkMinScore(options.minScore ?? this.#minScore, 'minScore');
    if (options.explain !== undefined && typeof options.explain !== 'boolean') {
      throw new InvalidOptionError('explain', `explain must be true or false, got ${String(options.explain)}`);
    }
    if (limit < 1 || typeof query !== 'string') return [];
    // Without vectors only the first `limit` hits can be returned, or a few more when a filter may
    // refuse some: the scorer prunes the tools that cannot be among the first `depth` (keeping the
    // tool the query names, see below), and a filter that refuses more asks for the full ranking.
    const filter = options.filter;
    const depth =
      this.#vector !== undefined || !Number.isFinite(limit)
        ? Number.POSITIVE_INFINITY
        : filter === undefined
          ? Math.ceil(limit)
          : 2 * Math.ceil(limit) + 10;
    const named = this.#namedBy(query);
    let view = await this.#rankedHits(query, depth, named, limit, minScore, filter === undefined);
    const hits: SearchHit[] = [];
    const viewOf = new Map<SearchHit, RankedHits>();
    let next = 0;
    let done = false;
    while (hits.length < limit && !done) {
      // A pruned ranking is exact for its first `depth` hits only: past them, rank in full.
      if (next >= view.exact) {
        view = await this.#rankedHits(query, Number.POSITIVE_INFINITY, named, limit, minScore, false);
        continue;
      }
      const { ranked } = view;
      if (next >= ranked.length) break;
      // Ask about no more candidates than there are places left: all of them are needed if all pass.
      const batch: SearchHit[] = [];
      while (batch.length < limit - hits.length && next < ranked.length && next < view.exact) {
        const hit = ranked[next++]!;
        if (hit.score < minScore) {
          done = true; // sorted: nothing after this one qualifies
          break;
        }
        batch.push(hit);
        viewOf.set(hit, view);
      }
      if (filter === undefined) {
        hits.push(...batch);
      } else {
        const allowed = await Promise.all(batch.map((hit) => filter(hit.id)));
        batch.forEach((hit, i) => {
          if (allowed[i] === true) hits.push(hit);
        });
      }
    }
    for (const hit of hits) {
      const from = viewOf.get(hit)!;
      const slot = from.slotOfId.get(hit.id);
      if (slot !== undefined) hit.matches = from.ranking.matchesOf(slot);
    }
    if (options.explain === true) this.#explain(query, hits);
    return hits;
  }

  /**
   * The ranked hits of a query (the keyword ranking, or that fused with the nearest tools by
   * meaning), exact for the first `depth` (all when the scorer kept every tool the query touched);
   * `selectOnly` when no more than `limit` hits will be read.
   */
  async #rankedHits(
    query: string,
    depth: number,
    named: string | undefined,
    limit: number,
    minScore: number,
    selectOnly: boolean,
  ): Promise<RankedHits> {
    const namedDoc = named === undefined ? -1 : (this.#keyword.docOf(named) ?? -1);
    const ranking = this.#scorer.rank(query, depth, namedDoc);
    const unit = this.#scorer.unit() * Math.max(1, ranking.terms.length) ** this.#ranking.lengthNorm;
    const { evidence, ids } = ranking;
    const scoreOf = (slot: number) => 1 - Math.exp(-evidence[slot]! / unit);
    // By evidence (the scores of strong hits can round to one value), then id.
    const order = (a: number, b: number) =>
      evidence[b]! - evidence[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);

    let ranked: SearchHit[];
    const slotOfId = new Map<string, number>();
    const toHit = (slot: number): SearchHit => {
      slotOfId.set(ids[slot]!, slot);
      return { id: ids[slot]!, score: scoreOf(slot), matches: {} };
    };
    if (this.#vector === undefined) {
      // Without a filter only the first `limit` hits can be returned: select them, sort no more.
      const wanted = selectOnly && Number.isFinite(limit) ? Math.ceil(limit) : ranking.count;
      ranked = bestSlots(ranking.count, wanted, (slot) => scoreOf(slot) >= minScore, order).map(toHit);
    } else {
      const wanted = Math.max(this.#vectorCandidates, 3 * Math.ceil(limit));
      const nearest = query.trim() === '' ? [] : await this.#vector.search(query, wanted);
      const near = new Set(nearest.map((hit) => hit.id));
      // Keyword hits that can still place: the best ones, and any the vectors found too.
      const keyword = Array.from({ length: ranking.count }, (_, slot) => slot)
        .sort(order)
        .filter((slot, i) => i < Math.max(wanted, 100) || near.has(ids[slot]!))
        .map(toHit);
      ranked = fuseRankings(keyword, nearest, this.#fusion);
    }

    // A query that is exactly a tool's id or name (what a model sends after seeing the name in a
    // listing or a suggestion) ranks that tool first, whatever its text's statistics say.
    if (named !== undefined && ranked[0]?.id !== named) {
      const at = ranked.findIndex((hit) => hit.id === named);
      // Not among the selected hits: find it among every tool the query matched.
      const slot = at >= 0 ? -1 : ids.slice(0, ranking.count).indexOf(named);
      const hit = at >= 0 ? ranked.splice(at, 1)[0] : slot >= 0 ? toHit(slot) : undefined;
      if (hit) ranked.unshift({ ...hit, score: Math.max(hit.score, ranked[0]?.score ?? 0) });
    }
    return { ranking, ranked, slotOfId, exact: ranking.complete ? Number.POSITIVE_INFINITY : depth };
  }

  /** Sets each hit's `reasons`, from the query's terms and the hit's indexed text (after ranking). */
  #explain(query: string, hits: SearchHit[]): void {
    const explained = explainQuery(query, this.#ranking);
    const keyword = this.#keyword;
    // The fields the scorer counts a term's tools in before looking up typos: those of weight > 0.
    const counted = LOOKUP_FIELDS.filter((f) => this.#ranking.fieldWeights[INDEX_FIELDS[f]!] > 0);
    const context: ExplainContext = {
      ranking: this.#ranking,
      toolsWith: (term) => {
        const entry = keyword.get(term);
        if (entry === undefined) return 0;
        // (a field alone over the typo limit settles it without reading postings)
        const widest = Math.max(0, ...counted.map((f) => entry.fields[f]?.length ?? 0));
        if (widest > this.#ranking.fuzzyMaxTools) return widest;
        const docs = new Set<number>();
        for (const f of counted) {
          const postings = entry.fields[f];
          if (postings !== undefined) for (const doc of postingDocs(postings)) docs.add(doc);
        }
        return docs.size;
      },
    };
    for (const hit of hits) {
      const tool = this.#catalog.get(hit.id);
      hit.reasons = tool === undefined ? [] : explainHit(tool, explained, context);
    }
  }

  /** The id of the tool a query names exactly: its id or provider-safe name, as given or in lower case. */
  #namedBy(query: string): string | undefined {
    const text = query.trim();
    if (text === '') return undefined;
    for (const candidate of text === text.toLowerCase() ? [text] : [text, text.toLowerCase()]) {
      const tool = this.#catalog.get(candidate) ?? this.#catalog.getByToolName(candidate);
      if (tool) return tool.id;
    }
    return undefined;
  }

  /**
   * The index as plain JSON (it includes a format version and an integrity hash of its content);
   * load it with {@link ToolIndex.fromJSON}.
   * Throws an {@link IndexDisposedError} once disposed: the index may no longer
   * hold what its catalog does.
   */
  toJSON(): SerializedToolIndex {
    if (this.#unsubscribe === undefined) {
      throw new IndexDisposedError();
    }
    return serializeIndex(this.#catalog, { keyword: this.#keyword, phrases: this.#phrases, vector: this.#vector });
  }

  /**
   * Loads an index saved by {@link ToolIndex.toJSON} for the same catalog, without re-indexing: it ranks
   * exactly as the saved one did, then follows the catalog's changes. Throws an
   * {@link IndexMismatchError} when the catalog's tools are not the ones indexed, and an
   * {@link InvalidIndexError} for a document that is not such an index, has another format version, is
   * malformed (every number and id is checked: types, ranges, order, counts and averages that
   * agree with the postings and lines) or fails its integrity check (its content changed since it
   * was saved; see {@link SerializedToolIndex.integrity}).
   */
  static fromJSON<T>(
    catalog: ToolCatalog<T>,
    json: SerializedToolIndex | string,
    given?: ToolIndexOptions,
  ): ToolIndex<T> {
    const options = checkIndexOptions(given);
    const loadOptions: LoadOptions = { ...options, [SAVED]: loadSavedIndexes(catalog, json, options) };
    return new ToolIndex(catalog, loadOptions);
  }

  /**
   * The index in a compact binary form (one buffer: numbers as variable-length bytes, each string
   * once; a format version and an integrity hash of its content), a fraction of the JSON's size and
   * loaded many times faster; load it with {@link ToolIndex.fromBinary}. Throws an
   * {@link IndexDisposedError} once disposed.
   */
  toBinary(): Uint8Array {
    if (this.#unsubscribe === undefined) {
      throw new IndexDisposedError();
    }
    return encodeBinaryIndex(this.#catalog, { keyword: this.#keyword, phrases: this.#phrases, vector: this.#vector });
  }

  /**
   * Loads an index saved by {@link ToolIndex.toBinary} for the same catalog, without re-indexing:
   * like {@link ToolIndex.fromJSON} (the same checks and errors; a JSON saved index is refused with
   * an {@link InvalidIndexError} that says to load it with `fromJSON`).
   */
  static fromBinary<T>(catalog: ToolCatalog<T>, data: Uint8Array, given?: ToolIndexOptions): ToolIndex<T> {
    const options = checkIndexOptions(given);
    const loadOptions: LoadOptions = { ...options, [SAVED]: loadBinaryIndexes(catalog, data, options) };
    return new ToolIndex(catalog, loadOptions);
  }

  /** Embeds every tool not embedded yet (with an `embedder`; otherwise resolves at once), so that `toJSON` and `toBinary` then save every vector. */
  async flush(): Promise<void> {
    await this.#vector?.flush();
  }

  /** Stops following the catalog. The index keeps answering from what it held. Idempotent. */
  dispose(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #apply(change: CatalogChange<TTool>): void {
    this.#scorer.changed();
    if (change.type === 'remove' || (change.type === 'replace' && change.previous.id !== change.tool.id)) {
      const gone = change.type === 'remove' ? change.tool.id : change.previous.id;
      this.#vector?.delete(gone);
    }
    if (change.type !== 'remove') this.#vector?.set(change.tool.id, vectorText(change.tool));
    if (change.type === 'remove') {
      this.#removeTool(change.tool.id);
      return;
    }
    if (change.type === 'replace' && change.previous.id !== change.tool.id) this.#removeTool(change.previous.id);
    // (a tool of the same id is replaced)
    this.#removeTool(change.tool.id);
    trimTermNumbers();
    const terms = toolTerms(change.tool);
    this.#keyword.add(change.tool.id, toolTermTexts(terms));
    const lines = toolPhraseLines(terms, (term) => this.#keyword.get(term));
    const doc = this.#keyword.docOf(change.tool.id)!;
    this.#phrases.add(doc, lines);
    this.#sources.track(change.tool, doc);
  }

  #removeTool(id: string): void {
    const doc = this.#keyword.docOf(id);
    if (doc === undefined) return;
    this.#sources.untrack(doc);
    this.#keyword.remove(id);
    this.#phrases.remove(doc);
  }
}

/** The keyword and phrase indexes of a catalog's tools, built in one pass. */
function buildIndexes(tools: readonly CatalogTool<unknown>[]): Omit<SavedIndexes, 'vector'> {
  trimTermNumbers();
  let feeder: ToolIndexFeeder | undefined;
  const keyword = buildKeywordIndex(
    INDEX_FIELDS.length,
    LOOKUP_FIELDS,
    (builder) => {
      feeder = new ToolIndexFeeder(builder, tools.length);
      for (let i = 0; i < tools.length; i++) feeder.add(tools[i]!);
    },
    tools.length,
  );
  // (document numbers are in order of addition; the lines' term numbers are the entries' ids)
  const { buffer, starts } = feeder!.phraseBuffer();
  return { keyword, phrases: PhraseIndex.fromBuffer(buffer, starts) };
}

/** A vector index of every tool of the catalog, for an index with an embedder. */
function embedAll<T>(catalog: ToolCatalog<T>, options: ToolIndexOptions): VectorIndex {
  const vector = new VectorIndex({
    embedder: options.embedder!,
    ...(options.embeddingCache ? { cache: options.embeddingCache } : {}),
  });
  for (const tool of catalog) vector.set(tool.id, vectorText(tool));
  return vector;
}

/**
 * What the vector side embeds of a tool: its name as words and its description's first sentence (a
 * short text like the requests it is compared with; the whole text ranked lower on all three sets).
 */
export function vectorText(tool: Pick<CatalogTool<unknown>, 'name' | 'description'>): string {
  const words = tool.name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .trim();
  return [words, firstSentence(tool.description, 300)].filter((part) => part !== '').join('\n');
}
