import { InvalidOptionError } from '../errors.js';
import type { SearchHit } from '../types.js';
import type { VectorHit } from './vector-index.js';

/**
 * How `fuseRankings` weighs cosine similarity. The defaults suit Universal Sentence Encoder Lite
 * (`use-lite-512`); an embedder whose similarities run higher or lower needs its own range.
 */
export interface FuseOptions {
  /**
   * Cosine similarity at or below which a vector match counts for nothing (a tool found only by
   * vectors needs more than this to appear at all). Default 0.5.
   */
  minSimilarity?: number;
  /** Cosine similarity at or above which a vector match counts fully, when too few are found to measure margins. Default 0.9. */
  maxSimilarity?: number;
  /** Margin over the query's nearest tools (in standard deviations) at or below which a match counts for nothing. Default 2. */
  minMargin?: number;
  /** Margin over the query's nearest tools (in standard deviations) at or above which a match counts fully. Default 4. */
  maxMargin?: number;
  /**
   * What a full vector match is worth, in [0, 1], when the two rankings agree (see `fuseRankings`).
   * Default 0.4.
   */
  vectorWeight?: number;
  /** At most this many hits. Default: all. */
  limit?: number;
}

/**
 * The defaults of {@link FuseOptions}, measured with `use-lite-512` on three development sets at once
 * (azuremcp, Seal-Tools, ToolBench; numbers in docs/benchmarks.md and DESIGN.md), where they sit on a
 * plateau: 23 of 48 settings of the margins and weight nearby rank above the keywords on all three.
 * A `minSimilarity` of 0.4 lets a nonsense request ("asdf qwerty") bring 40 vector-only hits on
 * Seal-Tools (0.5: none).
 */
export const DEFAULT_FUSE_OPTIONS: Readonly<Required<Omit<FuseOptions, 'limit'>>> = {
  minSimilarity: 0.5,
  maxSimilarity: 0.9,
  minMargin: 2,
  maxMargin: 4,
  vectorWeight: 0.4,
};

/** How many of the best keyword hits the agreement between the two rankings is measured on. */
export const AGREEMENT_DEPTH = 5;

/** How many of the nearest tools' similarities the margins are measured against. */
export const MARGIN_SAMPLE = 50;

/** Fewer nearest tools than this and similarities are read on the cosine scale instead of as margins. */
export const MIN_MARGIN_SAMPLE = 10;

/**
 * Two fused scores this close in evidence units (`−ln(1 − score)`, where a noisy OR adds) count as a
 * tie for first place, which the vectors may settle (see `fuseRankings`).
 */
export const TIE_EVIDENCE = 0.25;

/** How much nearer by cosine similarity the second of a tie for first place must be to move first. */
export const TIE_SIMILARITY = 0.05;

type FuseSettings = Required<Omit<FuseOptions, 'limit'>>;

/** One tool in the fusion: its hit, its keyword score, and its similarity if the vectors found it. */
interface Fused {
  hit: SearchHit;
  keyword: number;
  similarity: number;
  byVector: boolean;
}

/** The mean and standard deviation of the nearest tools' similarities (undefined when too few). */
interface Spread {
  mean: number;
  deviation: number;
}

/**
 * The vector evidence of one cosine similarity on the cosine scale, in [0, `vectorWeight`]:
 * `vectorWeight × clamp((similarity − minSimilarity) / (maxSimilarity − minSimilarity), 0, 1)`.
 */
export function vectorEvidence(similarity: number, options: FuseOptions = {}): number {
  return evidence(similarity, resolveFusion(options), undefined);
}

function evidence(similarity: number, settings: FuseSettings, spread: Spread | undefined): number {
  const { minSimilarity, maxSimilarity, minMargin, maxMargin, vectorWeight } = settings;
  if (spread === undefined) {
    return vectorWeight * Math.min(1, Math.max(0, (similarity - minSimilarity) / (maxSimilarity - minSimilarity)));
  }
  if (!(similarity > minSimilarity)) return 0;
  const margin = (similarity - spread.mean) / spread.deviation;
  return vectorWeight * Math.min(1, Math.max(0, (margin - minMargin) / (maxMargin - minMargin)));
}

/** The spread of the first {@link MARGIN_SAMPLE} similarities; undefined below {@link MIN_MARGIN_SAMPLE} or with none. */
function spreadOf(vector: readonly VectorHit[]): Spread | undefined {
  const sample = vector.slice(0, MARGIN_SAMPLE).map((hit) => hit.similarity);
  if (sample.length < MIN_MARGIN_SAMPLE) return undefined;
  const mean = sample.reduce((sum, x) => sum + x, 0) / sample.length;
  const deviation = Math.sqrt(sample.reduce((sum, x) => sum + (x - mean) ** 2, 0) / sample.length);
  return deviation > 0 ? { mean, deviation } : undefined;
}

/**
 * Hybrid ranking: fuses a keyword ranking (scores in [0, 1]) with a vector ranking (cosine
 * similarities, best first) into one list of hits with scores in [0, 1].
 *
 * **Rule.** Each signal is read as an absolute degree of relevance, never as a rank, so a score means
 * the same on any catalog (rank-based fusion such as RRF gives the best hit the same score whether it
 * is relevant or not, and on the development sets it lost 13 to 27 NDCG@10 to keywords alone). The
 * vector side is trusted as far as it agrees with the keyword side on this query: with `a` the share
 * of the {@link AGREEMENT_DEPTH} best keyword hits that the vector ranking lists too,
 * `w = vectorWeight × a²` (`vectorWeight` when there is no keyword hit at all). A similarity counts
 * by its margin over the query's {@link MARGIN_SAMPLE} nearest tools, `m = (similarity − mean) / sd`
 * (how far it stands out of what this embedder finds near any request, so it means the same on any
 * catalog), and becomes vector evidence `v = w × clamp((m − minMargin) / (maxMargin − minMargin), 0, 1)`,
 * 0 at or below `minSimilarity` (with fewer than {@link MIN_MARGIN_SAMPLE} nearest tools, the cosine
 * scale of {@link vectorEvidence} instead). The two combine as independent evidence (a noisy OR):
 *
 *     score = 1 − (1 − keywordScore) × (1 − v)
 *
 * - a tool found by both ranks above either alone, and never below its keyword score;
 * - a tool found only by keywords keeps its keyword score (a vector ranking is a top-k: absence from
 *   it is no evidence against the tool);
 * - a tool found only by vectors scores `v`: at most `w`, and 0 (it is dropped) at or below
 *   `minSimilarity` or `minMargin`, so weak semantic neighbours cannot flood the results;
 * - when the vectors find none of the best keyword hits (a request the embedder does not understand,
 *   such as Seal-Tools' and ToolBench's, where vectors alone reach a third of the keyword NDCG), they
 *   change nothing.
 *
 * Hits are sorted by score, then keyword score, then similarity, then id. One exception settles a tie
 * for first place, where the keywords cannot tell siblings apart (`get` and `list` of one service
 * share nearly every word): when the two best hits are within {@link TIE_EVIDENCE} of each other in
 * evidence units, both were found by the vectors, and the second is at least {@link TIE_SIMILARITY}
 * nearer by cosine similarity, the second moves first, its score raised just above the other's.
 * `matches` comes from the keyword hit; vector-only hits get `{}`. When an id appears twice in one
 * list, its first entry counts.
 */
export function fuseRankings(keyword: SearchHit[], vector: VectorHit[], options: FuseOptions = {}): SearchHit[] {
  const settings = resolveFusion(options);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (!(limit >= 0))
    throw new InvalidOptionError('limit', `limit must be a non-negative number, got ${String(limit)}.`);

  const fused = new Map<string, Fused>();
  for (const hit of keyword) {
    if (fused.has(hit.id)) continue;
    const score = Math.min(1, Math.max(0, hit.score));
    fused.set(hit.id, {
      hit: { id: hit.id, score, matches: hit.matches },
      keyword: score,
      similarity: -1,
      byVector: false,
    });
  }
  const weighted = { ...settings, vectorWeight: settings.vectorWeight * agreement(fused, vector) ** 2 };
  const spread = spreadOf(vector);
  const seen = new Set<string>();
  for (const { id, similarity } of vector) {
    if (seen.has(id)) continue;
    seen.add(id);
    const v = evidence(similarity, weighted, spread);
    const entry = fused.get(id);
    if (entry) {
      entry.similarity = similarity;
      entry.byVector = true;
      entry.hit.score = 1 - (1 - entry.keyword) * (1 - v);
    } else if (v > 0) {
      fused.set(id, { hit: { id, score: v, matches: {} }, keyword: 0, similarity, byVector: true });
    }
  }

  const ranked = [...fused.values()].sort(
    (a, b) =>
      b.hit.score - a.hit.score ||
      b.keyword - a.keyword ||
      b.similarity - a.similarity ||
      (a.hit.id < b.hit.id ? -1 : a.hit.id > b.hit.id ? 1 : 0),
  );
  settleTieForFirst(ranked);
  return ranked.slice(0, limit).map((entry) => entry.hit);
}

/** Evidence units of a score in [0, 1]: noisy-OR scores add there (1 is infinite evidence). */
function evidenceUnits(score: number): number {
  return -Math.log1p(-score);
}

/** Moves the second hit first when the two best are tied and the vectors clearly prefer it (in place). */
function settleTieForFirst(ranked: Fused[]): void {
  const [first, second] = ranked;
  if (first === undefined || second === undefined) return;
  if (!first.byVector || !second.byVector || first.hit.score >= 1) return;
  if (!(evidenceUnits(first.hit.score) - evidenceUnits(second.hit.score) <= TIE_EVIDENCE)) return;
  if (!(second.similarity - first.similarity >= TIE_SIMILARITY)) return;
  second.hit.score = Math.min(1, first.hit.score + 1e-6);
  ranked[0] = second;
  ranked[1] = first;
}

/**
 * The share of the {@link AGREEMENT_DEPTH} best keyword hits (score above 0) that the vector ranking
 * lists too; 1 when there is no keyword hit.
 */
function agreement(keyword: Map<string, { keyword: number }>, vector: readonly VectorHit[]): number {
  const best = [...keyword]
    .filter(([, entry]) => entry.keyword > 0)
    .sort(([idA, a], [idB, b]) => b.keyword - a.keyword || (idA < idB ? -1 : idA > idB ? 1 : 0))
    .slice(0, AGREEMENT_DEPTH);
  if (best.length === 0) return 1;
  const near = new Set(vector.map((hit) => hit.id));
  return best.filter(([id]) => near.has(id)).length / best.length;
}

/**
 * Fusion settings with their defaults, checked: an {@link InvalidOptionError} naming the bad one
 * under `path` (e.g. `fusion.` for an index's options).
 */
export function resolveFusion(options: FuseOptions, path = ''): FuseSettings {
  const settings = {
    minSimilarity: options.minSimilarity ?? DEFAULT_FUSE_OPTIONS.minSimilarity,
    maxSimilarity: options.maxSimilarity ?? DEFAULT_FUSE_OPTIONS.maxSimilarity,
    minMargin: options.minMargin ?? DEFAULT_FUSE_OPTIONS.minMargin,
    maxMargin: options.maxMargin ?? DEFAULT_FUSE_OPTIONS.maxMargin,
    vectorWeight: options.vectorWeight ?? DEFAULT_FUSE_OPTIONS.vectorWeight,
  };
  if (
    !(Number.isFinite(settings.minMargin) && Number.isFinite(settings.maxMargin)) ||
    !(settings.minMargin < settings.maxMargin)
  ) {
    throw new InvalidOptionError(
      `${path}minMargin`,
      `${path}minMargin and ${path}maxMargin must be finite numbers with minMargin < maxMargin, got ${String(settings.minMargin)} and ${String(settings.maxMargin)}.`,
    );
  }
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
