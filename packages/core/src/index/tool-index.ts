import type { CatalogChange, ToolCatalog } from '../catalog/catalog.js';
import { IndexDisposedError, IndexMismatchError, InvalidIndexError, InvalidOptionError } from '../errors.js';
import { tokenizeQuery } from '../text/tokenize.js';
import type { CatalogTool, Embedder, SearchField, SearchHit, SearchOptions } from '../types.js';
import { isRecord } from '../values.js';
import type { EmbeddingCache } from './embedding-cache.js';
import { type FuseOptions, fuseRankings } from './fuse-rankings.js';
import { type IndexContent, indexIntegrity } from './index-integrity.js';
import { describeNumber, findDoc, KeywordIndex, type SerializedKeywordIndex, type TermEntry } from './keyword-index.js';
import { PhraseIndex, type SerializedPhraseIndex } from './phrase-index.js';
import { trimTermNumbers } from './term-numbers.js';
import {
  INDEX_FIELDS,
  type IndexField,
  pairTerm,
  ToolIndexFeeder,
  toolFingerprint,
  toolPhraseLines,
  toolTerms,
  toolTermTexts,
  toolText,
} from './tool-document.js';
import { type SerializedVectorIndex, VectorIndex } from './vector-index.js';

/** The fields single query terms are looked up in (pairs go to `phrases`). */
const TERM_FIELDS: string[] = ['name', 'description', 'tags', 'source', 'parameters'];

const NAME_FIELD = INDEX_FIELDS.indexOf('name');
const DESCRIPTION_FIELD = INDEX_FIELDS.indexOf('description');

/** How many documents a term's phrase lines may be in (its name and description postings). */
function phraseCandidates(entry: TermEntry): number {
  return (entry.fields[NAME_FIELD]?.docs.length ?? 0) + (entry.fields[DESCRIPTION_FIELD]?.docs.length ?? 0);
}

/** The fields whose terms are looked up by prefix and with typos (by number). */
const LOOKUP_FIELDS: readonly number[] = TERM_FIELDS.map((field) => INDEX_FIELDS.indexOf(field as IndexField));

const REPORTED_FIELD: Readonly<Record<IndexField, SearchField>> = {
  name: 'name',
  description: 'description',
  tags: 'tags',
  source: 'tags',
  parameters: 'parameters',
  phrases: 'name', // (phrase matches add evidence but are not reported as term matches)
};

/** Ranking settings; one configuration serves every catalog (see {@link DEFAULT_RANKING}). */
export interface RankingParams {
  /**
   * Multiplier of each field's BM25 score. `phrases` weighs pairs of neighbouring query terms found
   * side by side in a tool's name or description (0 turns phrase matching off).
   */
  fieldWeights: Readonly<Record<IndexField, number>>;
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25 length normalisation (0 none, 1 full). */
  b: number;
  /** BM25+ lower bound added to every match (rewards a match in a long field at all). */
  delta: number;
  /** Weight of a prefix match (query term is the start of an indexed term), relative to an exact match. */
  prefixWeight: number;
  /** Weight of a fuzzy (typo) match, relative to an exact match. */
  fuzzyWeight: number;
  /** Query terms shorter than this are not prefix-matched. */
  prefixMinLength: number;
  /** Query terms shorter than this are not fuzzy-matched; longer ones allow one edit. */
  fuzzyMinLength: number;
  /** Query terms this long or longer allow two edits. */
  fuzzyTwoEditLength: number;
  /**
   * A query term that this many tools or fewer contain is also fuzzy-matched (a word no tool has is
   * most likely misspelt, and catalogs have misspellings of their own); a more common one is taken
   * as meant.
   */
  fuzzyMaxTools: number;
  /** Exponent of the number of matched query terms that multiplies the evidence (0: plain sum). */
  coordination: number;
  /**
   * Weight of the evidence of a tool's whole source (for each query term, the best match among the
   * tools of the same source), scaled by how telling a source is (`ln(N / size) / ln N`).
   */
  sourceWeight: number;
  /**
   * Share of a tool's evidence taken from the query clause (sentence) it matches best, rather than
   * from the whole query: multi-part requests then rank each part's tools.
   */
  clauseWeight: number;
  /** Evidence is divided by (distinct query terms)^this before it becomes a score. */
  lengthNorm: number;
}

/** Parts of {@link RankingParams} to change; field weights may be given one by one. */
export type RankingOverrides = Partial<Omit<RankingParams, 'fieldWeights'>> & {
  /** Weights of the fields to change (the others keep their defaults). */
  fieldWeights?: Partial<Record<IndexField, number>>;
};

/** The ranking every index uses unless told otherwise; tuned on the benchmark datasets as a whole. */
export const DEFAULT_RANKING: Readonly<RankingParams> = Object.freeze({
  fieldWeights: Object.freeze({ name: 2, description: 1, tags: 1, source: 1, parameters: 0.5, phrases: 2 }),
  k1: 2,
  b: 0.9,
  delta: 0,
  prefixWeight: 0.3,
  fuzzyWeight: 0.6,
  prefixMinLength: 4,
  fuzzyMinLength: 5,
  fuzzyTwoEditLength: 8,
  fuzzyMaxTools: 2,
  coordination: 0.5,
  sourceWeight: 1,
  clauseWeight: 0.6,
  lengthNorm: 0.5,
});

/**
 * The default `minScore`: keeps every tool with real evidence and drops those whose only evidence is
 * weak (a word most tools share, a lone typo-level or prefix match). On the two benchmark sets every
 * relevant tool that reaches a top 10 scores above 0.42; nonsense such as "xyzzy quux" scores 0.
 */
export const DEFAULT_MIN_SCORE = 0.1;

/**
 * The format version written by {@link ToolIndex.toJSON}; {@link ToolIndex.fromJSON} reads only this.
 * Version 4 added the `integrity` hash and numbers documents 0, 1, 2... in order.
 */
export const TOOL_INDEX_FORMAT_VERSION = 4;

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

/** A {@link ToolIndex} as plain JSON (see {@link ToolIndex.toJSON}). */
export interface SerializedToolIndex {
  /** Always `toolscout-tool-index`. */
  format: 'toolscout-tool-index';
  /** {@link TOOL_INDEX_FORMAT_VERSION} at the time of writing. */
  version: number;
  /** A fingerprint of every indexed tool's text, by id: tells whether a catalog still matches. */
  tools: Record<string, string>;
  /** The keyword index (see `KeywordIndex`): per-term postings by field, field lengths, vocabulary. */
  keyword: SerializedKeywordIndex;
  /** The phrase index (see `PhraseIndex`): each tool's name and description lines, as keyword terms. */
  phrases: SerializedPhraseIndex;
  /** The embedded tools, when the index was hybrid (see `VectorIndex.toJSON`). */
  vector?: SerializedVectorIndex;
  /**
   * A hash of `tools`, `keyword`, `phrases` and `vector` (16 hexadecimal digits), checked on load:
   * it catches accidental damage and naive edits, not someone who recomputes it (see
   * `indexIntegrity`).
   */
  integrity: string;
}

/** What {@link ToolIndex.fromJSON} hands to the constructor (set only during that call). */
let loading: { keyword: KeywordIndex; phrases: PhraseIndex; vector: VectorIndex | undefined } | undefined;

/** One index term a query term matched (itself, a longer word it starts, a near spelling), weighted. */
interface TermSource {
  term: string;
  entry: TermEntry;
  weight: number;
}

/** How many query terms' vocabulary lookups a {@link ToolIndex} keeps (the cache then starts over). */
const MAX_CACHED_LOOKUPS = 20_000;

/** A field a term is scored in: its name, number (position in {@link INDEX_FIELDS}) and boost. */
interface FieldSpec {
  name: string;
  id: number;
  boost: number;
}

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
  /**
   * For the source evidence: each source's number (never reused) and how many tools it has, how
   * many sources have tools, and each tool's source by id and by document number (-1: none).
   */
  readonly #sourceNumbers = new Map<string, number>();
  readonly #sourceSizeOf: number[] = [];
  #sourcesInUse = 0;
  readonly #sourceOfTool = new Map<string, number>();
  readonly #sourceOfDoc: number[] = [];
  /** Per source, for one search: its best score for the current term, and its total; by source number. */
  #sourceBest = new Float64Array(0);
  #sourceTotal = new Float64Array(0);
  #sourceFactor = new Float64Array(0);
  readonly #keyword: KeywordIndex;
  readonly #phrases: PhraseIndex;
  readonly #vector: VectorIndex | undefined;
  readonly #fusion: Omit<FuseOptions, 'limit'>;
  readonly #vectorCandidates: number;
  #unsubscribe: (() => void) | undefined;

  constructor(catalog: ToolCatalog<TTool>, options: ToolIndexOptions = {}) {
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
    const loaded = loading;
    loading = undefined;
    const tools = catalog.list();
    if (loaded) {
      // ToolIndex.fromJSON: the indexes come from the saved document (already checked).
      this.#keyword = loaded.keyword;
      this.#phrases = loaded.phrases;
      this.#vector = loaded.vector;
    } else {
      trimTermNumbers();
      let feeder: ToolIndexFeeder | undefined;
      this.#keyword = KeywordIndex.build(
        INDEX_FIELDS.length,
        LOOKUP_FIELDS,
        (builder) => {
          feeder = new ToolIndexFeeder(builder, tools.length);
          for (let i = 0; i < tools.length; i++) feeder.add(tools[i]!);
        },
        tools.length,
      );
      this.#phrases = new PhraseIndex();
      const { lines } = feeder!;
      // (document numbers are in order of addition; the lines' term numbers are the entries' ids)
      for (let doc = 0; doc < lines.length; doc++) this.#phrases.add(doc, lines[doc]!);
      this.#vector = options.embedder ? newVectorIndex(options) : undefined;
      if (this.#vector) for (const tool of catalog) this.#vector.set(tool.id, toolText(tool));
    }
    for (let i = 0; i < tools.length; i++) this.#trackSource(tools[i]!, this.#keyword.docOf(tools[i]!.id)!);
    this.#unsubscribe = this.#catalog.subscribe((change) => this.#apply(change));
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
    if (limit < 1 || typeof query !== 'string') return [];
    const ranking = this.#rank(query);
    const unit = this.#unit() * Math.max(1, ranking.terms.length) ** this.#ranking.lengthNorm;
    const { evidence, ids } = ranking;
    const scoreOf = (slot: number) => 1 - Math.exp(-evidence[slot]! / unit);
    // By evidence (the scores of strong hits can round to one value), then id.
    const order = (a: number, b: number) =>
      evidence[b]! - evidence[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);

    // Ranked hits: the keyword ranking, or that fused with the nearest tools by meaning.
    let ranked: SearchHit[];
    const slotOfId = new Map<string, number>();
    const toHit = (slot: number): SearchHit => {
      slotOfId.set(ids[slot]!, slot);
      return { id: ids[slot]!, score: scoreOf(slot), matches: {} };
    };
    if (this.#vector === undefined) {
      // Without a filter only the first `limit` hits can be returned: select them, sort no more.
      const wanted = options.filter === undefined && Number.isFinite(limit) ? Math.ceil(limit) : ranking.count;
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
    const named = this.#namedBy(query);
    if (named !== undefined && ranked[0]?.id !== named) {
      const at = ranked.findIndex((hit) => hit.id === named);
      // Not among the selected hits: find it among every tool the query matched.
      const slot = at >= 0 ? -1 : ids.slice(0, ranking.count).indexOf(named);
      const hit = at >= 0 ? ranked.splice(at, 1)[0] : slot >= 0 ? toHit(slot) : undefined;
      if (hit) ranked.unshift({ ...hit, score: Math.max(hit.score, ranked[0]?.score ?? 0) });
    }

    const hits: SearchHit[] = [];
    const filter = options.filter;
    let next = 0;
    while (hits.length < limit && next < ranked.length) {
      // Ask about no more candidates than there are places left: all of them are needed if all pass.
      const batch: SearchHit[] = [];
      while (batch.length < limit - hits.length && next < ranked.length) {
        const hit = ranked[next++]!;
        if (hit.score < minScore) {
          next = ranked.length; // sorted: nothing after this one qualifies
          break;
        }
        batch.push(hit);
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
      const slot = slotOfId.get(hit.id);
      if (slot !== undefined) hit.matches = ranking.matchesOf(slot);
    }
    return hits;
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
    // The index holds exactly the catalog's tools (it follows every change): their fingerprints
    // are those of what it indexed.
    const keyword = this.#keyword.toJSON();
    const positions = new Map(keyword.terms.map(([term], position) => [this.#keyword.get(term)!.id, position]));
    // (the keyword section numbers documents anew, in order: the phrase section follows it)
    const numbers = new Int32Array(this.#keyword.nextDoc);
    for (const [number, id] of keyword.documents) numbers[this.#keyword.docOf(id)!] = number;
    const content = {
      tools: Object.fromEntries(Array.from(this.#catalog, (tool) => [tool.id, toolFingerprint(tool)])),
      keyword,
      phrases: this.#phrases.toJSON(
        (id) => positions.get(id)!,
        (doc) => numbers[doc]!,
      ),
      ...(this.#vector ? { vector: this.#vector.toJSON() } : {}),
    } satisfies IndexContent;
    return {
      format: 'toolscout-tool-index',
      version: TOOL_INDEX_FORMAT_VERSION,
      ...content,
      integrity: indexIntegrity(content),
    };
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
    options: ToolIndexOptions = {},
  ): ToolIndex<T> {
    const document = parseSerialized(json);
    checkCatalogMatches(catalog, document.tools);
    let keyword: KeywordIndex;
    let phrases: PhraseIndex;
    try {
      keyword = KeywordIndex.fromJSON(document.keyword, INDEX_FIELDS.length, LOOKUP_FIELDS);
      const terms = document.keyword.terms;
      phrases = PhraseIndex.fromJSON(
        document.phrases,
        (position) => {
          const term = terms[position]?.[0];
          return term === undefined ? undefined : keyword.get(term)?.id;
        },
        keyword.size,
      );
    } catch (error) {
      throw damaged(error instanceof Error ? error.message : String(error), error);
    }
    const ids = Object.keys(document.tools);
    if (
      keyword.size !== ids.length ||
      phrases.size !== ids.length ||
      !ids.every((id) => {
        const doc = keyword.docOf(id);
        return doc !== undefined && phrases.has(doc);
      })
    ) {
      throw damaged('its keyword or phrase section does not hold the tools it lists');
    }
    if (indexIntegrity(document) !== document.integrity) {
      throw new InvalidIndexError(
        `The saved tool index failed its integrity check: its content is not what was saved (changed or damaged since). ${REBUILD}`,
      );
    }
    let vector: VectorIndex | undefined;
    if (options.embedder) {
      if (document.vector === undefined) {
        vector = newVectorIndex(options);
        for (const tool of catalog) vector.set(tool.id, toolText(tool));
      } else {
        vector = loadVectors(document, options);
      }
    }
    loading = { keyword, phrases, vector };
    try {
      return new ToolIndex(catalog, options);
    } finally {
      loading = undefined;
    }
  }

  /** Stops following the catalog. The index keeps answering from what it held. Idempotent. */
  dispose(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /** Records a tool's source; `doc` is its document number in the keyword index. */
  #trackSource(tool: CatalogTool<TTool>, doc: number): void {
    this.#untrackSource(tool.id);
    const source = tool.source?.trim();
    this.#sourceOfDoc[doc] = -1;
    if (!source) return;
    let number = this.#sourceNumbers.get(source);
    if (number === undefined) {
      number = this.#sourceNumbers.size;
      this.#sourceNumbers.set(source, number);
      this.#sourceSizeOf.push(0);
    }
    if (this.#sourceSizeOf[number]!++ === 0) this.#sourcesInUse += 1;
    this.#sourceOfTool.set(tool.id, number);
    this.#sourceOfDoc[doc] = number;
  }

  #untrackSource(id: string): void {
    const number = this.#sourceOfTool.get(id);
    if (number === undefined) return;
    this.#sourceOfTool.delete(id);
    if (--this.#sourceSizeOf[number]! === 0) this.#sourcesInUse -= 1;
  }

  #apply(change: CatalogChange<TTool>): void {
    this.#lookups.clear();
    if (change.type === 'remove' || (change.type === 'replace' && change.previous.id !== change.tool.id)) {
      const gone = change.type === 'remove' ? change.tool.id : change.previous.id;
      this.#untrackSource(gone);
      this.#vector?.delete(gone);
    }
    if (change.type !== 'remove') this.#vector?.set(change.tool.id, toolText(change.tool));
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
    this.#trackSource(change.tool, doc);
  }

  #removeTool(id: string): void {
    const doc = this.#keyword.docOf(id);
    if (doc === undefined) return;
    this.#keyword.remove(id);
    this.#phrases.remove(doc);
  }

  /**
   * The unit of evidence: the score of one exact match of a word only one tool has, in a name field
   * of average length (BM25+ with `tf = 1`: `idf · (delta + 1)`, times the name weight).
   */
  #unit(): number {
    const n = Math.max(this.#keyword.size, 1);
    const idfOfUnique = Math.log(1 + (n - 1 + 0.5) / 1.5);
    return this.#ranking.fieldWeights.name * Math.max(idfOfUnique, Math.log(2)) * (this.#ranking.delta + 1);
  }

  /** Per-document accumulators for one query term, reused across searches (by document number). */
  #termScore = new Float64Array(0);
  /** The query term (stamp) that last touched each document, so accumulators need no clearing. */
  #termMark = new Int32Array(0);
  #stamp = 0;
  /** Each document's candidate slot in the running search (-1: none); reset after every search. */
  #slotOfDoc = new Int32Array(0);
  /**
   * The index terms each recent query term matched (exact, prefix and typo lookups over the
   * vocabulary), valid until the index changes.
   */
  readonly #lookups = new Map<string, TermSource[]>();

  #fieldSpecs(fields: readonly string[], boosts: Readonly<Record<string, number>>): FieldSpec[] {
    // As MiniSearch did: a boost of 0 (or none) counts as 1.
    return fields.map((name) => ({ name, id: INDEX_FIELDS.indexOf(name as IndexField), boost: boosts[name] || 1 }));
  }

  #ensureCapacity(size: number): void {
    if (this.#termScore.length >= size) return;
    const length = Math.max(size, 2 * this.#termScore.length, 256);
    this.#termScore = new Float64Array(length);
    this.#termMark = new Int32Array(length);
    this.#slotOfDoc = new Int32Array(length).fill(-1);
    this.#stamp = 0;
  }

  /**
   * BM25 (MiniSearch's formula and statistics, so that scores are those MiniSearch gave): adds the
   * score of `source` in each field to the documents' accumulators, pushing each document first
   * seen for this query term to `touched`.
   */
  #accumulate(source: TermSource, fields: readonly FieldSpec[], touched: number[]): void {
    const keyword = this.#keyword;
    const { k1: k, b, delta: d } = this.#ranking;
    const total = keyword.size;
    const scores = this.#termScore;
    const marks = this.#termMark;
    const stamp = this.#stamp;
    for (const field of fields) {
      const postings = source.entry.fields[field.id];
      if (postings === undefined) continue;
      const { docs, freqs } = postings;
      const matching = docs.length;
      const average = keyword.averageLength(field.id);
      const scale = source.weight * field.boost;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const termFreq = freqs[i]!;
        const fieldLength = keyword.fieldLength(doc, field.id);
        const raw = idf * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / average)));
        const weighted = scale * raw;
        if (marks[doc] !== stamp) {
          marks[doc] = stamp;
          scores[doc] = weighted;
          touched.push(doc);
        } else {
          scores[doc]! += weighted;
        }
      }
    }
  }

  /**
   * Scores one query term into the accumulators: exactly and as a prefix, and with typos if the term
   * is rare. Returns the index terms scored (for the match report).
   */
  #scoreTerm(term: string, fields: readonly FieldSpec[], touched: number[]): TermSource[] {
    this.#stamp += 1;
    touched.length = 0;
    const cached = this.#lookups.get(term);
    if (cached !== undefined) {
      // The index terms this query term matched last time (the index has not changed since).
      for (const source of cached) this.#accumulate(source, fields, touched);
      return cached;
    }
    const ranking = this.#ranking;
    const keyword = this.#keyword;
    const sources: TermSource[] = [];
    const exactEntry = keyword.get(term);
    if (exactEntry !== undefined) {
      const source = { term, entry: exactEntry, weight: 1 };
      sources.push(source);
      this.#accumulate(source, fields, touched);
    }
    const exact = touched.length;
    const prefixTerms = new Set<string>();
    if (term.length >= ranking.prefixMinLength) {
      for (const [found, entry] of keyword.atPrefix(term)) {
        const distance = found.length - term.length;
        if (!distance) continue;
        prefixTerms.add(found);
        if (!fields.some((field) => entry.fields[field.id] !== undefined)) continue; // (e.g. a phrase pair)
        const weight = (ranking.prefixWeight * found.length) / (found.length + 0.3 * distance);
        const source = { term: found, entry, weight };
        sources.push(source);
        this.#accumulate(source, fields, touched);
      }
    }
    // Typo tolerance only for a word (almost) no tool has: a common word is taken as meant.
    const fuzzy = term.length >= ranking.fuzzyTwoEditLength ? 2 : term.length >= ranking.fuzzyMinLength ? 1 : 0;
    if (fuzzy > 0 && exact <= ranking.fuzzyMaxTools) {
      for (const [found, [entry, distance]] of keyword.fuzzyGet(term, fuzzy)) {
        if (!distance || prefixTerms.has(found)) continue;
        const weight = (ranking.fuzzyWeight * found.length) / (found.length + distance);
        const source = { term: found, entry, weight };
        sources.push(source);
        this.#accumulate(source, fields, touched);
      }
    }
    if (this.#lookups.size >= MAX_CACHED_LOOKUPS) this.#lookups.clear();
    this.#lookups.set(term, sources);
    return sources;
  }

  /**
   * Adds to `phrase[slot]` the phrase evidence of each candidate: for each pair of neighbouring
   * query terms (each pair once, in order of appearance), BM25 over the documents that have the two
   * side by side, the pair's document frequency and each document's count of it found at search
   * time among the documents of the rarer term (its name and description postings).
   */
  #scorePhrases(clauseTerms: readonly string[][], weight: number, phrase: Float64Array, slotOfDoc: Int32Array): void {
    const keyword = this.#keyword;
    const pairs = new Map<string, [string, string]>();
    for (const terms of clauseTerms) {
      for (let i = 0; i + 1 < terms.length; i++) {
        const a = terms[i]!;
        const b = terms[i + 1]!;
        const key = pairTerm(a, b);
        if (a !== b && !pairs.has(key)) pairs.set(key, [a, b]);
      }
    }
    const { k1: k, b, delta: d } = this.#ranking;
    const total = keyword.size;
    const average = this.#phrases.average;
    const docs: number[] = [];
    const freqs: number[] = [];
    for (const [x, y] of pairs.values()) {
      const first = keyword.get(x);
      const second = keyword.get(y);
      if (first === undefined || second === undefined) continue;
      const rarer = phraseCandidates(first) <= phraseCandidates(second) ? first : second;
      docs.length = 0;
      freqs.length = 0;
      this.#stamp += 1;
      this.#phrases.matches(
        first.id,
        second.id,
        [rarer.fields[NAME_FIELD], rarer.fields[DESCRIPTION_FIELD]],
        this.#termMark,
        this.#stamp,
        docs,
        freqs,
      );
      const matching = docs.length;
      if (matching === 0) continue;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (let i = 0; i < matching; i++) {
        const slot = slotOfDoc[docs[i]!]!;
        if (slot < 0) continue;
        const termFreq = freqs[i]!;
        const fieldLength = this.#phrases.length(docs[i]!);
        const raw = idf * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / average)));
        phrase[slot]! += weight * raw;
      }
    }
  }

  /** Every tool matching the query, with its evidence (see the class comment), in no order. */
  #rank(query: string): RankingState {
    const ranking = this.#ranking;
    const clauseTerms = (ranking.clauseWeight > 0 ? splitClauses(query) : [query])
      .map((clause) => tokenizeQuery(clause))
      .filter((clause) => clause.length > 0);
    const clauses = scoredClauses(clauseTerms).map((clause) => [...new Set(clause)]);
    // Distinct terms, each with the clauses it occurs in.
    const clausesOf = new Map<string, number[]>();
    clauses.forEach((clause, c) => {
      for (const term of clause) {
        const list = clausesOf.get(term);
        if (list) list.push(c);
        else clausesOf.set(term, [c]);
      }
    });
    const terms = [...clausesOf.keys()];
    const state = new RankingState(terms, clauses.length > 1 ? clauses.length : 0);
    if (terms.length === 0 || this.#keyword.size === 0) return state;
    const useSources = ranking.sourceWeight > 0 && this.#sourcesInUse > 1;
    const keyword = this.#keyword;
    this.#ensureCapacity(keyword.nextDoc);
    const slotOfDoc = this.#slotOfDoc;
    const scores = this.#termScore;
    const termFields = this.#fieldSpecs(TERM_FIELDS, ranking.fieldWeights);

    // The sources whose total is set in this search (to clear afterwards).
    const totalSources: number[] = [];
    try {
      // Per source (by number): its best score for the current term, and the total of those.
      const sourceCount = this.#sourceSizeOf.length;
      if (this.#sourceBest.length < sourceCount) {
        this.#sourceBest = new Float64Array(sourceCount * 2);
        this.#sourceTotal = new Float64Array(sourceCount * 2);
        this.#sourceFactor = new Float64Array(sourceCount * 2);
      }
      const sourceBest = this.#sourceBest;
      const sourceTotal = this.#sourceTotal;
      const bestSources: number[] = [];
      const touched: number[] = [];
      const sourceOfDoc = this.#sourceOfDoc;
      terms.forEach((term, t) => {
        const inClauses = clausesOf.get(term)!;
        state.termSources[t] = this.#scoreTerm(term, termFields, touched);
        for (let i = 0; i < touched.length; i++) {
          const doc = touched[i]!;
          let slot = slotOfDoc[doc]!;
          if (slot < 0) {
            slot = state.addCandidate(keyword.idOf(doc)!, doc, useSources ? sourceOfDoc[doc]! : -1);
            slotOfDoc[doc] = slot;
          }
          const score = scores[doc]!;
          state.record(slot, inClauses, score);
          const source = state.sources[slot]!;
          if (source >= 0 && score > sourceBest[source]!) {
            if (sourceBest[source] === 0) bestSources.push(source);
            sourceBest[source] = score;
          }
        }
        for (const source of bestSources) {
          if (sourceTotal[source] === 0) totalSources.push(source);
          sourceTotal[source]! += sourceBest[source]!;
          sourceBest[source] = 0;
        }
        bestSources.length = 0;
      });

      // Phrases: neighbouring query terms side by side in a line of a tool's name or description,
      // scored by BM25 as a field of word pairs (see PhraseIndex).
      const phraseWeight = ranking.fieldWeights.phrases;
      const phrase = new Float64Array(state.count);
      if (phraseWeight > 0) this.#scorePhrases(clauseTerms, phraseWeight, phrase, slotOfDoc);

      const n = keyword.size;
      const sourceFactor = this.#sourceFactor;
      for (const source of totalSources) {
        const size = this.#sourceSizeOf[source]!;
        sourceFactor[source] = (ranking.sourceWeight * Math.log(n / size)) / Math.log(n);
      }
      const { coordination, clauseWeight } = ranking;
      const width = state.width;
      for (let slot = 0; slot < state.count; slot++) {
        const sum = state.sum[slot]!;
        const whole = sum * state.matched[slot]! ** coordination;
        let evidence = whole;
        if (width > 0) {
          let best = 0;
          const base = slot * width;
          for (let c = 0; c < width; c++) {
            const matched = state.clauseMatched[base + c]!;
            if (matched > 0) best = Math.max(best, state.clauseSum[base + c]! * matched ** coordination);
          }
          evidence = (1 - clauseWeight) * whole + clauseWeight * best;
        }
        const source = state.sources[slot]!;
        if (source >= 0) {
          // What the rest of the source matches beyond this tool: per term, the source's best minus its own.
          evidence += sourceFactor[source]! * Math.max(0, sourceTotal[source]! - sum);
        }
        state.evidence[slot] = evidence + phrase[slot]!;
      }
    } finally {
      for (let slot = 0; slot < state.count; slot++) slotOfDoc[state.docs[slot]!] = -1;
      for (const source of totalSources) {
        this.#sourceTotal[source] = 0;
        this.#sourceFactor[source] = 0;
      }
    }
    state.fields = termFields;
    return state;
  }
}

/**
 * The tools matching one query, by slot (the order they were first found in): their evidence and
 * what went into it, in typed arrays that grow as candidates come (one search can touch most tools).
 */
class RankingState {
  readonly ids: string[] = [];
  /** The keyword index's document number of each slot. */
  readonly docs: number[] = [];
  /** Each slot's source number (-1: none, or sources not used). */
  readonly sources: number[] = [];
  /** Per query term, the index terms it was scored with (for the match report). */
  readonly termSources: TermSource[][] = [];
  /** The fields query terms were scored in. */
  fields: readonly FieldSpec[] = [];
  count = 0;
  sum = new Float64Array(256);
  matched = new Uint16Array(256);
  evidence = new Float64Array(256);
  clauseSum: Float64Array;
  clauseMatched: Uint16Array;

  constructor(
    /** The distinct query terms. */
    readonly terms: readonly string[],
    /** The number of clauses when there are several, else 0. */
    readonly width: number,
  ) {
    this.clauseSum = new Float64Array(256 * width);
    this.clauseMatched = new Uint16Array(256 * width);
  }

  addCandidate(id: string, doc: number, source: number): number {
    const slot = this.count++;
    if (slot >= this.sum.length) this.#grow();
    this.ids.push(id);
    this.docs.push(doc);
    this.sources.push(source);
    return slot;
  }

  record(slot: number, clauses: readonly number[], score: number): void {
    this.sum[slot]! += score;
    this.matched[slot]! += 1;
    const width = this.width;
    if (width > 0) {
      for (const c of clauses) {
        this.clauseSum[slot * width + c]! += score;
        this.clauseMatched[slot * width + c]! += 1;
      }
    }
  }

  /**
   * Which query terms the tool matched, and in which of the reported fields (looked up again in the
   * postings of the index terms each query term was scored with: only hits need it).
   */
  matchesOf(slot: number): Record<string, SearchField[]> {
    const doc = this.docs[slot]!;
    const found: [string, SearchField[]][] = [];
    for (let t = 0; t < this.terms.length; t++) {
      // The index terms and fields the tool matched, in the order of the original MiniSearch report
      // (its match object's key order included: integer-like terms first).
      const match: Record<string, string[]> = Object.create(null);
      for (const source of this.termSources[t] ?? []) {
        for (const field of this.fields) {
          const postings = source.entry.fields[field.id];
          if (postings === undefined || findDoc(postings.docs, doc) < 0) continue;
          const list = match[source.term];
          if (list === undefined) match[source.term] = [field.name];
          else list.push(field.name);
        }
      }
      const fields = new Set<SearchField>();
      for (const matched of Object.values(match)) {
        for (const field of matched) fields.add(REPORTED_FIELD[field as IndexField] ?? 'description');
      }
      if (fields.size > 0) found.push([this.terms[t]!, [...fields]]);
    }
    return Object.fromEntries(found);
  }

  #grow(): void {
    const size = this.sum.length * 2;
    const grow = <T extends Float64Array | Uint16Array | Int32Array>(array: T, make: (n: number) => T, scale = 1) => {
      const grown = make(size * scale);
      grown.set(array);
      return grown;
    };
    this.sum = grow(this.sum, (n) => new Float64Array(n));
    this.matched = grow(this.matched, (n) => new Uint16Array(n));
    this.evidence = grow(this.evidence, (n) => new Float64Array(n));
    this.clauseSum = grow(this.clauseSum, (n) => new Float64Array(n), this.width);
    this.clauseMatched = grow(this.clauseMatched, (n) => new Uint16Array(n), this.width);
  }
}

/**
 * The slots `0..count-1` that pass `keep`, sorted by `order`, at most `wanted` of them (the first
 * ones in that order): a sorted buffer that a candidate enters only when it beats the last one.
 */
function bestSlots(
  count: number,
  wanted: number,
  keep: (slot: number) => boolean,
  order: (a: number, b: number) => number,
): number[] {
  if (wanted >= count) {
    const all: number[] = [];
    for (let slot = 0; slot < count; slot++) if (keep(slot)) all.push(slot);
    return all.sort(order);
  }
  const best: number[] = [];
  if (wanted <= 0) return best;
  for (let slot = 0; slot < count; slot++) {
    if (best.length === wanted && order(slot, best[wanted - 1]!) >= 0) continue;
    if (!keep(slot)) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (order(best[middle]!, slot) < 0) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, slot);
    if (best.length > wanted) best.pop();
  }
  return best;
}

/**
 * At most this many clauses of a request are scored each on its own (the rest together, as the
 * last one): each costs every candidate tool a slot, and real requests have far fewer (13 at most
 * in the benchmark datasets).
 */
const MAX_SCORED_CLAUSES = 32;

/** The clauses scored each on its own (see {@link MAX_SCORED_CLAUSES}). */
function scoredClauses(clauseTerms: readonly string[][]): readonly string[][] {
  if (clauseTerms.length <= MAX_SCORED_CLAUSES) return clauseTerms;
  return [...clauseTerms.slice(0, MAX_SCORED_CLAUSES - 1), clauseTerms.slice(MAX_SCORED_CLAUSES - 1).flat()];
}

/** Splits a request into sentences and clauses (at `.`, `?`, `!`, `;`, and line breaks). */
function splitClauses(query: string): string[] {
  const sentences = query.split(/[.?!;。？！；]+(?:\s+|$)|\n+/u).filter((clause) => clause.trim() !== '');
  return sentences;
}

function newVectorIndex(options: ToolIndexOptions): VectorIndex {
  return new VectorIndex({
    embedder: options.embedder!,
    ...(options.embeddingCache ? { cache: options.embeddingCache } : {}),
  });
}

function checkMinScore(value: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1) {
    throw new InvalidOptionError(name, `${name} must be a number in [0, 1], got ${String(value)}`);
  }
  return value;
}

function resolveRanking(overrides: RankingOverrides | undefined): RankingParams {
  if (overrides === undefined) return DEFAULT_RANKING;
  return {
    ...DEFAULT_RANKING,
    ...overrides,
    fieldWeights: { ...DEFAULT_RANKING.fieldWeights, ...overrides.fieldWeights },
  };
}

/**
 * The vector section of a saved index, whose tools must be the index's; a section that cannot be
 * used (another embedder, malformed) is an `invalid-index` error.
 */
function loadVectors(document: SerializedToolIndex, options: ToolIndexOptions): VectorIndex {
  const section = document.vector!;
  const tools = document.tools;
  for (const list of [section.entries, section.pending] as unknown[]) {
    if (!Array.isArray(list)) continue; // (VectorIndex.fromJSON says what is wrong)
    for (const item of list as unknown[]) {
      const id = isRecord(item) ? item.id : undefined;
      if (typeof id === 'string' && !Object.hasOwn(tools, id)) {
        throw damaged(`its vector section has tool "${id}", which it does not list`);
      }
    }
  }
  try {
    return VectorIndex.fromJSON(section, {
      embedder: options.embedder!,
      ...(options.embeddingCache ? { cache: options.embeddingCache } : {}),
    });
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    throw new InvalidIndexError(
      `The saved tool index's vector section cannot be used (${problem}). Rebuild the index from the catalog (new ToolIndex(catalog, { embedder })) and save it again.`,
      { cause: error },
    );
  }
}

/** What to do about a saved index that cannot be loaded. */
const REBUILD = 'Rebuild the index from the catalog (new ToolIndex(catalog)) and save it again.';

/** The error of a saved index whose content is malformed. */
function damaged(problem: string, cause?: unknown): InvalidIndexError {
  return new InvalidIndexError(
    `The saved tool index is damaged (${problem}). ${REBUILD}`,
    cause === undefined ? undefined : { cause },
  );
}

function parseSerialized(json: SerializedToolIndex | string): SerializedToolIndex {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new InvalidIndexError(`The saved tool index is not JSON: ${String(error)}`, { cause: error });
    }
  }
  if (!isRecord(value) || value.format !== 'toolscout-tool-index') {
    throw new InvalidIndexError(
      'Not a saved tool index: expected an object with format "toolscout-tool-index" (from ToolIndex.toJSON()).',
    );
  }
  checkVersion(value.version);
  if (!isRecord(value.tools) || !isRecord(value.keyword) || !isRecord(value.phrases)) {
    throw damaged('it lacks its "tools", "keyword" or "phrases" section');
  }
  for (const id in value.tools) {
    if (typeof value.tools[id] !== 'string') throw damaged(`the fingerprint of tool "${id}" is not a string`);
  }
  if (value.vector !== undefined && !isRecord(value.vector)) throw damaged('its "vector" section is not an object');
  if (typeof value.integrity !== 'string') throw damaged('it has no "integrity" hash');
  return value as unknown as SerializedToolIndex;
}

/** Refuses a saved index of another format version, saying how it differs. */
function checkVersion(version: unknown): void {
  if (version === TOOL_INDEX_FORMAT_VERSION) return;
  const wanted = `this toolscout reads format version ${TOOL_INDEX_FORMAT_VERSION}`;
  let problem: string;
  if (typeof version === 'number' && Number.isInteger(version) && version > 0) {
    const by = version < TOOL_INDEX_FORMAT_VERSION ? 'an older' : 'a newer';
    problem = `The saved tool index has format version ${version}, written by ${by} toolscout; ${wanted}.`;
  } else if (version === undefined) {
    problem = `The saved tool index has no "version"; ${wanted}.`;
  } else {
    const shown =
      typeof version === 'string' ? `the string ${JSON.stringify(version.slice(0, 40))}` : describeNumber(version);
    problem = `The saved tool index's "version" is ${shown}, where a positive integer is expected; ${wanted}.`;
  }
  throw new InvalidIndexError(`${problem} ${REBUILD}`);
}

function checkCatalogMatches<T>(catalog: ToolCatalog<T>, saved: Record<string, string>): void {
  let count = 0;
  for (const tool of catalog) {
    count += 1;
    const expected = Object.hasOwn(saved, tool.id) ? saved[tool.id] : undefined;
    if (expected === undefined) {
      throw new IndexMismatchError(
        `The saved tool index does not match the catalog: tool "${tool.id}" is not in it. Rebuild the index.`,
        tool.id,
      );
    }
    if (expected !== toolFingerprint(tool)) {
      throw new IndexMismatchError(
        `The saved tool index does not match the catalog: tool "${tool.id}" changed since it was indexed. Rebuild the index.`,
        tool.id,
      );
    }
  }
  const savedCount = Object.keys(saved).length;
  if (savedCount !== count) {
    const missing = Object.keys(saved).find((id) => !catalog.has(id));
    throw new IndexMismatchError(
      `The saved tool index does not match the catalog: it indexed ${savedCount} tools, the catalog has ${count}${missing ? ` (e.g. "${missing}" is gone)` : ''}. Rebuild the index.`,
      missing,
    );
  }
}
