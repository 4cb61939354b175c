import { ACTION_TERMS, requestActions } from '../text/action-verbs.js';
import { splitClauses } from '../text/clauses.js';
import { tokenizeQuery } from '../text/tokenize.js';
import { inTermOrder, type KeywordIndex } from './keyword-index.js';
import { type LengthNorms, lengthNorms } from './length-norms.js';
import type { PhraseIndex } from './phrase-index.js';
import { keptDocs, QueryDocs } from './pruning.js';
import { MAX_TYPO_TERMS, type RankingParams, typoEdits } from './ranking-params.js';
import { type FieldSpec, RankingState, type TermSource } from './ranking-state.js';
import { addTermScores, TermSumCache, type TermSums, termSums } from './term-sums.js';
import { INDEX_FIELDS, type IndexField, pairTerm } from './tool-document.js';
import type { ToolSources } from './tool-sources.js';

/** The fields single query terms are looked up in (pairs go to `phrases`). */
const TERM_FIELDS: string[] = ['name', 'description', 'tags', 'source', 'parameters'];

const NAME_FIELD = INDEX_FIELDS.indexOf('name');

/** The fields whose terms are looked up by prefix and with typos (by number). */
export const LOOKUP_FIELDS: readonly number[] = TERM_FIELDS.map((field) => INDEX_FIELDS.indexOf(field as IndexField));

/**
 * How many query terms' vocabulary lookups a {@link ToolIndex} keeps (the cache then starts over),
 * and how many terms' sums (see {@link TermSumCache}).
 */
const MAX_CACHED_LOOKUPS = 20_000;

/** A {@link Scorer} keeps the term sums of at most this many documents per document of the index. */
const SUMS_PER_DOC = 16;

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

/**
 * A request's terms per clause (split at `.`, `?`, `!`, `;` and line breaks when clauses are scored),
 * empty clauses left out.
 */
export function queryClauses(query: string, ranking: RankingParams): string[][] {
  const clauses = ranking.clauseWeight > 0 ? splitClauses(query) : [query];
  return clauses.map((clause) => tokenizeQuery(clause)).filter((clause) => clause.length > 0);
}

/**
 * The search-time half of a {@link ToolIndex}: ranks the indexed tools for a query (see its class
 * comment for the rule) with accumulators reused across searches, and caches the vocabulary lookups
 * of recent query terms until the index changes ({@link Scorer.changed}).
 */
export class Scorer {
  readonly #keyword: KeywordIndex;
  readonly #phrases: PhraseIndex;
  readonly #ranking: RankingParams;
  readonly #sources: ToolSources;
  /** The fields single query terms are scored in, with their weights (fields of weight 0 left out). */
  readonly #termFields: readonly FieldSpec[];
  /** Per source, for one search: its best score for the current term, and its total; by source number. */
  #sourceBest = new Float64Array(0);
  #sourceTotal = new Float64Array(0);
  #sourceFactor = new Float64Array(0);

  constructor(keyword: KeywordIndex, phrases: PhraseIndex, ranking: RankingParams, sources: ToolSources) {
    this.#keyword = keyword;
    this.#phrases = phrases;
    this.#ranking = ranking;
    this.#sources = sources;
    this.#termFields = TERM_FIELDS.flatMap((name) => {
      const boost = ranking.fieldWeights[name as IndexField];
      return boost > 0 ? [{ name, id: INDEX_FIELDS.indexOf(name as IndexField), boost }] : [];
    });
  }

  /** Forgets the cached lookups and length norms: to be called whenever the index changes. */
  changed(): void {
    this.#lookups.clear();
    this.#sums.clear();
    this.#norms.fill(undefined);
  }

  /**
   * Per field (by number), each document's BM25 length norm (see {@link lengthNorms}), kept until the
   * index changes: a search then reads it per posting instead of computing it.
   */
  readonly #norms: (LengthNorms | undefined)[] = [];

  #normsOf(field: number): LengthNorms {
    const cached = this.#norms[field];
    if (cached !== undefined) return cached;
    const keyword = this.#keyword;
    const lengthOf = (doc: number) => (keyword.idOf(doc) === undefined ? undefined : keyword.fieldLength(doc, field));
    const norms = lengthNorms(
      keyword.nextDoc,
      lengthOf,
      this.#ranking.k1,
      this.#ranking.b,
      keyword.averageLength(field),
    );
    this.#norms[field] = norms;
    return norms;
  }

  /**
   * The unit of evidence: the score of one exact match of a word only one tool has, in a name field
   * of average length (BM25+ with `tf = 1`: `idf · (delta + 1)`, times the name weight; the largest
   * weight of a searched field when names are not searched).
   */
  unit(): number {
    const n = Math.max(this.#keyword.size, 1);
    const idfOfUnique = Math.log(1 + (n - 1 + 0.5) / 1.5);
    const name = this.#ranking.fieldWeights.name;
    const weight = name > 0 ? name : Math.max(1e-9, ...this.#termFields.map((field) => field.boost));
    return weight * Math.max(idfOfUnique, Math.log(2)) * (this.#ranking.delta + 1);
  }

  /** Per-document accumulators for one query term, reused across searches (by document number). */
  #termScore = new Float64Array(0);
  /** The query term (stamp) that last touched each document, so accumulators need no clearing. */
  #termMark = new Uint16Array(0);
  #stamp = 0;

  /** Moves the term marks' stamp on by `step` (2 bytes a mark, to stay in a core's cache: cleared when they run out). */
  #nextStamp(step: number): void {
    if (this.#stamp + step > 0xffff) {
      this.#termMark.fill(0);
      this.#stamp = 0;
    }
    this.#stamp += step;
  }

  /** The documents the current query term touched (`#touchedCount` of them), in the order first touched. */
  #touched = new Int32Array(0);
  #touchedCount = 0;
  /** Each document's candidate slot in the running search (-1: none); reset after every search. */
  #slotOfDoc = new Int32Array(0);
  /**
   * The index terms each recent query term matched (exact, prefix and typo lookups over the
   * vocabulary), valid until the index changes.
   */
  readonly #lookups = new Map<string, TermSource[]>();
  /** The term sums of recent query terms (see {@link TermSumCache}), valid until the index changes. */
  #sums = new TermSumCache(0, MAX_CACHED_LOOKUPS);
  /** The term sums of the query term last scored (see {@link Scorer.#scoreTerm}). */
  #termSums: TermSums = { docs: new Int32Array(0), scores: new Float64Array(0) };

  #ensureCapacity(size: number): void {
    if (this.#termScore.length >= size) return;
    const length = Math.max(size, 2 * this.#termScore.length, 256);
    this.#termScore = new Float64Array(length);
    this.#termMark = new Uint16Array(length);
    this.#touched = new Int32Array(length);
    this.#slotOfDoc = new Int32Array(length).fill(-1);
    this.#asks = new Uint8Array(length);
    this.#stamp = 0;
    this.#sums = new TermSumCache(SUMS_PER_DOC * length, MAX_CACHED_LOOKUPS);
  }

  /**
   * BM25 (MiniSearch's formula and statistics, so that scores are those MiniSearch gave): adds the
   * score of `source` in each field to the documents' accumulators, appending each document first
   * seen for this query term to `#touched`.
   */
  #accumulate(source: TermSource, fields: readonly FieldSpec[]): void {
    const keyword = this.#keyword;
    const touched = this.#touched;
    let count = this.#touchedCount;
    const { k1: k, delta: d } = this.#ranking;
    const total = keyword.size;
    const scores = this.#termScore;
    const marks = this.#termMark;
    const stamp = this.#stamp;
    for (const field of fields) {
      const postings = source.entry.fields[field.id];
      if (postings === undefined) continue;
      const { data, docsAt, freqsAt, length: matching } = postings;
      const { classOf, norm } = this.#normsOf(field.id);
      const scale = source.weight * field.boost;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (let i = 0; i < matching; i++) {
        const doc = data[docsAt + i]!;
        const termFreq = data[freqsAt + i]!;
        const raw = idf * (d + (termFreq * (k + 1)) / (termFreq + norm[classOf[doc]!]!));
        const weighted = scale * raw;
        if (marks[doc] !== stamp) {
          marks[doc] = stamp;
          scores[doc] = weighted;
          touched[count++] = doc;
        } else {
          scores[doc]! += weighted;
        }
      }
    }
    this.#touchedCount = count;
  }

  /**
   * Scores one query term (exactly and as a prefix, and with typos if the term is rare and `typos`
   * says it is within the request's budget) into `#termSums`. Returns the index terms scored.
   */
  #scoreTerm(term: string, fields: readonly FieldSpec[], typos: boolean): TermSource[] {
    this.#nextStamp(1);
    this.#touchedCount = 0;
    // (a term past the request's typo budget is neither read from nor kept in the caches, which hold typo matches)
    const cached = typos ? this.#lookups.get(term) : undefined;
    if (cached !== undefined) {
      // The index terms this query term matched last time (the index has not changed since).
      const sums = this.#sums.get(term);
      if (sums !== undefined) {
        this.#termSums = sums;
        return cached;
      }
      for (const source of cached) this.#accumulate(source, fields);
      this.#keepSums(term);
      return cached;
    }
    const ranking = this.#ranking;
    const keyword = this.#keyword;
    const sources: TermSource[] = [];
    const exactEntry = keyword.get(term);
    if (exactEntry !== undefined) {
      const source = { term, entry: exactEntry, weight: 1 };
      sources.push(source);
      this.#accumulate(source, fields);
    }
    const exact = this.#touchedCount;
    const prefixTerms = new Set<string>();
    if (term.length >= ranking.prefixMinLength) {
      for (const [found, entry] of inTermOrder(keyword.atPrefix(term))) {
        const distance = found.length - term.length;
        if (!distance) continue;
        prefixTerms.add(found);
        if (!fields.some((field) => entry.fields[field.id] !== undefined)) continue; // (e.g. a phrase pair)
        const weight = (ranking.prefixWeight * found.length) / (found.length + 0.3 * distance);
        const source = { term: found, entry, weight };
        sources.push(source);
        this.#accumulate(source, fields);
      }
    }
    if (!typos) {
      this.#termSums = termSums(this.#touched, this.#touchedCount, this.#termScore);
      return sources;
    }
    // Typo tolerance only for a word (almost) no tool has: a common word is taken as meant.
    const fuzzy = typoEdits(term, ranking);
    if (fuzzy > 0 && exact <= ranking.fuzzyMaxTools) {
      for (const [found, [entry, distance]] of inTermOrder(keyword.fuzzyGet(term, fuzzy))) {
        if (!distance || prefixTerms.has(found)) continue;
        const weight = (ranking.fuzzyWeight * found.length) / (found.length + distance);
        const source = { term: found, entry, weight };
        sources.push(source);
        this.#accumulate(source, fields);
      }
    }
    if (this.#lookups.size >= MAX_CACHED_LOOKUPS) this.#lookups.clear();
    this.#lookups.set(term, sources);
    this.#keepSums(term);
    return sources;
  }

  /** Makes `#termSums` of the documents the term touched, and keeps them for the term's next search. */
  #keepSums(term: string): void {
    const sums = termSums(this.#touched, this.#touchedCount, this.#termScore);
    this.#termSums = sums;
    this.#sums.set(term, sums);
  }

  /** The term sums of the request's head term, each of its tools' boosted (see NameHeads). */
  #boostHead(sums: TermSums, head: string): TermSums {
    const { docs, scores: values } = sums;
    const scores = this.#termScore;
    const marks = this.#termMark;
    const stamp = this.#stamp;
    for (let i = 0; i < docs.length; i++) {
      scores[docs[i]!] = values[i]!;
      marks[docs[i]!] = stamp;
    }
    this.#sources.heads.boost(this.#keyword, head, this.#ranking, scores, marks, stamp);
    // (the documents as they are: already in order)
    const boosted = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) boosted[i] = scores[docs[i]!]!;
    return { docs, scores: boosted };
  }

  /**
   * Adds to each touched tool's accumulator (by document number) its phrase evidence: for each pair of neighbouring
   * query terms (each pair once, in order of appearance), BM25 over the documents that have the two
   * side by side, the pair's document frequency and each document's count of it found at search
   * time among the documents of the rarer term (its name and description postings).
   */
  #scorePhrases(clauseTerms: readonly string[][], weight: number): void {
    const queryDocs = this.#docs;
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
    for (const [x, y] of pairs.values()) {
      const first = keyword.get(x);
      const second = keyword.get(y);
      if (first === undefined || second === undefined) continue;
      this.#nextStamp(2); // (two marks: see PhraseIndex.matches)
      const { docs, freqs } = this.#phrases.pairMatches(first, second, this.#termMark, this.#stamp);
      const matching = docs.length;
      if (matching === 0) continue;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (let i = 0; i < matching; i++) {
        const doc = docs[i]!;
        if (!queryDocs.touched(doc)) continue;
        const termFreq = freqs[i]!;
        const fieldLength = this.#phrases.length(doc);
        const raw = idf * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / average)));
        queryDocs.addPhrase(doc, weight * raw);
      }
    }
  }

  /**
   * Marks (1) in `#asks`, by document number, each tool the query touched whose name has a word of an
   * action family the request asks for ({@link requestActions}: `get`, `list`, `create`, ...), e.g.
   * `certificate_list` for "show me the certificates"; pushes each marked document to `marked`.
   */
  #markActions(asked: ReadonlySet<string>, marked: number[]): void {
    const keyword = this.#keyword;
    const asks = this.#asks;
    const { mark, stamp } = this.#docs;
    for (const { family, terms } of ACTION_TERMS) {
      if (!asked.has(family)) continue;
      for (const term of terms) {
        const postings = keyword.get(term)?.fields[NAME_FIELD];
        if (postings === undefined) continue;
        const { data, docsAt, length } = postings;
        for (let i = 0; i < length; i++) {
          const doc = data[docsAt + i]!;
          if (mark[doc] === stamp && asks[doc] === 0) {
            asks[doc] = 1;
            marked.push(doc);
          }
        }
      }
    }
  }

  /** Per document: 1 while the running search's request asks for an action the tool's name has (see #markActions). */
  #asks = new Uint8Array(0);

  /** The per-document accumulators of the running search (see {@link keptDocs}). */
  readonly #docs = new QueryDocs();

  /**
   * The tools matching the query that can be among its `wanted` best (all when not given; a limit
   * with neither filter nor vectors needs no more), with their exact evidence (see the class
   * comment), in no order; `include` (a document number) is kept whenever it matches.
   */
  rank(query: string, wanted = Number.POSITIVE_INFINITY, include = -1): RankingState {
    const ranking = this.#ranking;
    const clauseTerms = queryClauses(query, ranking);
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
    const useSources = ranking.sourceWeight > 0 && this.#sources.inUse > 1;
    const keyword = this.#keyword;
    this.#ensureCapacity(keyword.nextDoc);
    const slotOfDoc = this.#slotOfDoc;
    const termFields = this.#termFields;
    const width = state.width;
    const docs = this.#docs;
    docs.begin(keyword.nextDoc);

    // The sources whose total is set in this search (to clear afterwards).
    const totalSources: number[] = [];
    // The documents marked in `#asks` in this search (to clear afterwards).
    const actionDocs: number[] = [];
    try {
      // Per source (by number): its best score for the current term, and the total of those.
      const sourceCount = this.#sources.sizeOf.length;
      if (this.#sourceBest.length < sourceCount) {
        this.#sourceBest = new Float64Array(sourceCount * 2);
        this.#sourceTotal = new Float64Array(sourceCount * 2);
        this.#sourceFactor = new Float64Array(sourceCount * 2);
      }
      const sourceBest = this.#sourceBest;
      const sourceTotal = this.#sourceTotal;
      const bestSources: number[] = [];
      const sourceOfDoc = useSources ? this.#sources.ofDoc : undefined;
      const bests =
        sourceOfDoc === undefined ? undefined : { ofDoc: sourceOfDoc, best: sourceBest, touched: bestSources };
      const head = this.#sources.heads.requestHead(query, ranking); // (its tools' term score: see NameHeads)
      for (let t = 0; t < terms.length; t++) {
        state.termSources[t] = this.#scoreTerm(terms[t]!, termFields, t < MAX_TYPO_TERMS);
        const sums = terms[t] === head ? this.#boostHead(this.#termSums, head!) : this.#termSums;
        addTermScores(docs, sums, width > 0, bests);
        for (const source of bestSources) {
          if (sourceTotal[source] === 0) totalSources.push(source);
          sourceTotal[source]! += sourceBest[source]!;
          sourceBest[source] = 0;
        }
        bestSources.length = 0;
      }

      // Phrases: neighbouring query terms side by side in a line of a tool's name or description,
      // scored by BM25 as a field of word pairs (see PhraseIndex).
      const phraseWeight = ranking.fieldWeights.phrases;
      if (phraseWeight > 0) this.#scorePhrases(clauseTerms, phraseWeight);
      // Action: a tool whose name says what the request asks to do has its evidence times (1 + actionWeight).
      if (ranking.actionWeight > 0) this.#markActions(requestActions(query), actionDocs);
      const actionBoost = 1 + ranking.actionWeight;

      const n = keyword.size;
      const sourceFactor = this.#sourceFactor;
      for (const source of totalSources) {
        const size = this.#sources.sizeOf[source]!;
        sourceFactor[source] = (ranking.sourceWeight * Math.log(n / size)) / Math.log(n);
      }
      const { coordination, clauseWeight } = ranking;
      const powers = new Float64Array(terms.length + 1);
      for (let m = 0; m <= terms.length; m++) powers[m] = m ** coordination;
      const source = { ofDoc: sourceOfDoc, factor: sourceFactor, total: sourceTotal };
      const boost = { asks: this.#asks, factor: actionBoost };
      const kept = keptDocs(docs, wanted, include, powers, clauseWeight, width > 0, source, boost);
      state.complete = kept.length === docs.count;
      for (let i = 0; i < kept.length; i++) {
        const doc = kept[i]!;
        slotOfDoc[doc] = state.addCandidate(
          keyword.idOf(doc)!,
          doc,
          sourceOfDoc === undefined ? -1 : sourceOfDoc[doc]!,
        );
      }
      if (width > 0) {
        // The kept tools' clause sums, from the log (term after term, as the sums were made).
        const inClauses = terms.map((term) => clausesOf.get(term)!);
        docs.replay(kept, (doc, t, score) => state.record(slotOfDoc[doc]!, t, inClauses[t]!, score));
      } else {
        for (let slot = 0; slot < state.count; slot++) {
          const doc = state.docs[slot]!;
          state.sum[slot] = docs.sum[doc]!;
          state.matched[slot] = docs.matched[doc]!;
        }
      }
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
        const total = evidence + docs.phrase[state.docs[slot]!]!;
        state.evidence[slot] = this.#asks[state.docs[slot]!] === 1 ? total * actionBoost : total;
      }
    } finally {
      for (let slot = 0; slot < state.count; slot++) slotOfDoc[state.docs[slot]!] = -1;
      for (const doc of actionDocs) this.#asks[doc] = 0;
      for (const source of totalSources) {
        this.#sourceTotal[source] = 0;
        this.#sourceFactor[source] = 0;
      }
    }
    state.fields = termFields;
    return state;
  }
}
