// One query term's scores added to a search's per-document accumulators (see `QueryDocs`): the
// loop runs once per touched document and term, so it is written out once per case (clauses
// logged or not, source bests kept or not) instead of testing both in every pass. The term's
// scores come in document order (see `TermSums`), so that the accumulators, by document number,
// are read front to back rather than at random.
import type { QueryDocs } from './pruning.js';

/** Per source (by number), the best score of the current term, and the sources given one (see the Scorer). */
export interface SourceBests {
  ofDoc: Int32Array;
  best: Float64Array;
  touched: number[];
}

const NO_SOURCES: SourceBests = { ofDoc: new Int32Array(0), best: new Float64Array(0), touched: [] };

/**
 * Adds each score of `term` to its document in `docs`, logging it when `logged` (a query of
 * several clauses) and raising its source's best.
 */
export function addTermScores(
  docs: QueryDocs,
  term: TermSums,
  logged: boolean,
  sources: SourceBests | undefined,
): void {
  const { docs: touched, scores } = term;
  const count = touched.length;
  if (logged) docs.nextTerm(count);
  const { sum, matched, top, mark, list, logDocs, logScores } = docs;
  const stamp = docs.stamp;
  const { ofDoc, best, touched: bestSources } = sources ?? NO_SOURCES;
  const withSources = sources !== undefined;
  let listed = docs.count;
  let entries = docs.logged;
  if (listed === 0) {
    // (the query's first term: every document is new, no mark to compare)
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[i]!;
      mark[doc] = stamp;
      sum[doc] = score;
      matched[doc] = 1;
      list[i] = doc;
      if (logged) {
        top[doc] = score;
        logDocs[i] = doc;
        logScores[i] = score;
      }
      const source = withSources ? ofDoc[doc]! : -1;
      if (source >= 0 && score > best[source]!) {
        if (best[source] === 0) bestSources.push(source);
        best[source] = score;
      }
    }
    listed = count;
    if (logged) entries = count;
  } else if (logged) {
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[i]!;
      if (mark[doc] !== stamp) {
        mark[doc] = stamp;
        sum[doc] = score;
        matched[doc] = 1;
        top[doc] = score; // (read for the clauses' bounds only)
        list[listed++] = doc;
      } else {
        sum[doc]! += score;
        matched[doc]! += 1;
        if (score > top[doc]!) top[doc] = score;
      }
      logDocs[entries] = doc;
      logScores[entries++] = score;
      const source = withSources ? ofDoc[doc]! : -1;
      if (source >= 0 && score > best[source]!) {
        if (best[source] === 0) bestSources.push(source);
        best[source] = score;
      }
    }
  } else if (withSources) {
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[i]!;
      if (mark[doc] !== stamp) {
        mark[doc] = stamp;
        sum[doc] = score;
        matched[doc] = 1;
        list[listed++] = doc;
      } else {
        sum[doc]! += score;
        matched[doc]! += 1;
      }
      const source = ofDoc[doc]!;
      if (source >= 0 && score > best[source]!) {
        if (best[source] === 0) bestSources.push(source);
        best[source] = score;
      }
    }
  } else {
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[i]!;
      if (mark[doc] !== stamp) {
        mark[doc] = stamp;
        sum[doc] = score;
        matched[doc] = 1;
        list[listed++] = doc;
      } else {
        sum[doc]! += score;
        matched[doc]! += 1;
      }
    }
  }
  docs.count = listed;
  docs.logged = entries;
}

/** One query term's summed score of each document it touched (`scores[i]` that of `docs[i]`), by ascending document number. */
export interface TermSums {
  docs: Int32Array;
  scores: Float64Array;
}

/** The term sums of the first `count` documents of `touched`, whose scores are `scores[doc]`. */
export function termSums(touched: Int32Array, count: number, scores: Float64Array): TermSums {
  const docs = touched.slice(0, count).sort();
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = scores[docs[i]!]!;
  return { docs, scores: values };
}

/**
 * The term sums of recent query terms (each over its exact, prefix and typo matches and every
 * field, before the name-head boost), kept until the index changes: requests repeat words, and a
 * repeated term's sums are then read as they are instead of made again from some hundred thousand
 * postings at random documents. At most `budget` documents and `maxTerms` terms in all (least
 * recently used out: a term that touched no document still takes an entry).
 */
export class TermSumCache {
  readonly #sums = new Map<string, TermSums>();
  #size = 0;

  constructor(
    readonly budget: number,
    readonly maxTerms: number,
  ) {}

  /** How many terms' sums are kept. */
  get size(): number {
    return this.#sums.size;
  }

  get(term: string): TermSums | undefined {
    const sums = this.#sums.get(term);
    if (sums !== undefined) {
      // (moved to the end: the most recently used)
      this.#sums.delete(term);
      this.#sums.set(term, sums);
    }
    return sums;
  }

  set(term: string, sums: TermSums): void {
    if (sums.docs.length > this.budget) return;
    const old = this.#sums.get(term);
    if (old !== undefined) this.#size -= old.docs.length;
    this.#sums.delete(term);
    this.#sums.set(term, sums);
    this.#size += sums.docs.length;
    for (const [oldest, { docs }] of this.#sums) {
      if (this.#size <= this.budget && this.#sums.size <= this.maxTerms) break;
      this.#sums.delete(oldest);
      this.#size -= docs.length;
    }
  }

  clear(): void {
    this.#sums.clear();
    this.#size = 0;
  }
}
