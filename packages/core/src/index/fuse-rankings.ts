import { InvalidOptionError } from '../errors.js';
import type { SearchHit } from '../types.js';
import type { VectorHit } from './vector-index.js';

/**
 * How `fuseRankings` weighs cosine similarity. The defaults suit Universal Sentence Encoder Lite
 * (`use-lite-512`); an embedder whose similarities run higher or lower needs its own range.
 */
export interface FuseOptions {
  /**
   * Cosine similarity at or below which a vector match counts for nothing: a tool found only by
   * vectors needs more than this to appear at all. Default 0.5.
   */
  minSimilarity?: number;
  /** Cosine similarity at or above which a vector match counts fully. Default 0.8. */
  maxSimilarity?: number;
  /**
   * What a full vector match is worth, in [0, 1]: the score of a tool found only by vectors at
   * `maxSimilarity` or above, and the most vectors can add to a keyword hit. Default 0.9.
   */
  vectorWeight?: number;
  /** At most this many hits. Default: all. */
  limit?: number;
}

/**
 * The defaults of {@link FuseOptions}, measured with `use-lite-512` on the ToolBench (2,479 tools) and
 * Seal-Tools (4,076 tools) sets. There, among each query's 50 nearest tools, one at similarity 0.5 is
 * relevant about 3% of the time, at 0.7 7–14%, at 0.75 12–31%, and a nonsense query ("asdf qwerty")
 * reaches 0.59. With a lower `minSimilarity` a nonsense query gets dozens of vector-only hits.
 */
export const DEFAULT_FUSE_OPTIONS: Readonly<Required<Omit<FuseOptions, 'limit'>>> = {
  minSimilarity: 0.5,
  maxSimilarity: 0.8,
  vectorWeight: 0.9,
};

/**
 * The vector evidence of one cosine similarity, in [0, `vectorWeight`]:
 * `vectorWeight × clamp((similarity − minSimilarity) / (maxSimilarity − minSimilarity), 0, 1)`.
 */
export function vectorEvidence(similarity: number, options: FuseOptions = {}): number {
  return evidence(similarity, resolveFusion(options));
}

function evidence(similarity: number, settings: Required<Omit<FuseOptions, 'limit'>>): number {
  const { minSimilarity, maxSimilarity, vectorWeight } = settings;
  return vectorWeight * Math.min(1, Math.max(0, (similarity - minSimilarity) / (maxSimilarity - minSimilarity)));
}

/**
 * Hybrid ranking: fuses a keyword ranking (scores in [0, 1]) with a vector ranking (cosine
 * similarities) into one list of hits with scores in [0, 1].
 *
 * **Rule.** Each signal is read as an absolute degree of relevance, never as a rank, so a score means
 * the same on any catalog (rank-based fusion such as RRF gives the best hit the same score whether it
 * is relevant or not). The similarity becomes vector evidence
 * `v = vectorWeight × clamp((similarity − minSimilarity) / (maxSimilarity − minSimilarity), 0, 1)`,
 * and the two combine as independent evidence (a noisy OR):
 *
 *     score = 1 − (1 − keywordScore) × (1 − v)
 *
 * - a tool found by both ranks above either alone, and never below its keyword score;
 * - a tool found only by keywords keeps its keyword score (a vector ranking is a top-k: absence from
 *   it is no evidence against the tool);
 * - a tool found only by vectors scores `v`: at most `vectorWeight`, and 0 (it is dropped) at or
 *   below `minSimilarity`, so weak semantic neighbours cannot flood the results.
 *
 * Hits are sorted by score, then keyword score, then similarity, then id. `matches` comes from the
 * keyword hit; vector-only hits get `{}`. When an id appears twice in one list, its first entry counts.
 */
export function fuseRankings(keyword: SearchHit[], vector: VectorHit[], options: FuseOptions = {}): SearchHit[] {
  const settings = resolveFusion(options);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (!(limit >= 0))
    throw new InvalidOptionError('limit', `limit must be a non-negative number, got ${String(limit)}.`);

  const fused = new Map<string, { hit: SearchHit; keyword: number; similarity: number }>();
  for (const hit of keyword) {
    if (fused.has(hit.id)) continue;
    const score = Math.min(1, Math.max(0, hit.score));
    fused.set(hit.id, { hit: { id: hit.id, score, matches: hit.matches }, keyword: score, similarity: -1 });
  }
  const seen = new Set<string>();
  for (const { id, similarity } of vector) {
    if (seen.has(id)) continue;
    seen.add(id);
    const v = evidence(similarity, settings);
    const entry = fused.get(id);
    if (entry) {
      entry.similarity = similarity;
      entry.hit.score = 1 - (1 - entry.keyword) * (1 - v);
    } else if (v > 0) {
      fused.set(id, { hit: { id, score: v, matches: {} }, keyword: 0, similarity });
    }
  }

  const ranked = [...fused.values()].sort(
    (a, b) =>
      b.hit.score - a.hit.score ||
      b.keyword - a.keyword ||
      b.similarity - a.similarity ||
      (a.hit.id < b.hit.id ? -1 : a.hit.id > b.hit.id ? 1 : 0),
  );
  return ranked.slice(0, limit).map((entry) => entry.hit);
}

/**
 * Fusion settings with their defaults, checked: an {@link InvalidOptionError} naming the bad one
 * under `path` (e.g. `fusion.` for an index's options).
 */
export function resolveFusion(options: FuseOptions, path = ''): Required<Omit<FuseOptions, 'limit'>> {
  const settings = {
    minSimilarity: options.minSimilarity ?? DEFAULT_FUSE_OPTIONS.minSimilarity,
    maxSimilarity: options.maxSimilarity ?? DEFAULT_FUSE_OPTIONS.maxSimilarity,
    vectorWeight: options.vectorWeight ?? DEFAULT_FUSE_OPTIONS.vectorWeight,
  };
  if (
    !(settings.minSimilarity >= -1 && settings.maxSimilarity <= 1 && settings.minSimilarity < settings.maxSimilarity)
  ) {
    throw new InvalidOptionError(
      `${path}minSimilarity`,
      `${path}minSimilarity and ${path}maxSimilarity must satisfy -1 <= minSimilarity < maxSimilarity <= 1, got ${String(settings.minSimilarity)} and ${String(settings.maxSimilarity)}.`,
    );
  }
  if (!(settings.vectorWeight >= 0 && settings.vectorWeight <= 1)) {
    throw new InvalidOptionError(
      `${path}vectorWeight`,
      `${path}vectorWeight must be in [0, 1], got ${String(settings.vectorWeight)}.`,
    );
  }
  return settings;
}
