// One query term's scores added to a search's per-document accumulators (see `QueryDocs`): the
// loop runs once per touched document and term, so it is written out once per case (clauses
// logged or not, source bests kept or not) instead of testing both in every pass.
import type { QueryDocs } from './pruning.js';

/** Per source (by number), the best score of the current term, and the sources given one (see the Scorer). */
export interface SourceBests {
  ofDoc: Int32Array;
  best: Float64Array;
  touched: number[];
}

const NO_SOURCES: SourceBests = { ofDoc: new Int32Array(0), best: new Float64Array(0), touched: [] };

/**
 * Adds the score `scores[doc]` of each of the first `count` documents of `touched` (each once) to
 * `docs`, logging it when `logged` (a query of several clauses) and raising its source's best.
 */
export function addTermScores(
  docs: QueryDocs,
  touched: Int32Array,
  count: number,
  scores: Float64Array,
  logged: boolean,
  sources: SourceBests | undefined,
): void {
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
      const score = scores[doc]!;
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
      const score = scores[doc]!;
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
      const score = scores[doc]!;
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
      const score = scores[doc]!;
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
