import { InvalidOptionError } from '../errors.js';
import { describeValue, isRecord } from '../values.js';
import type { IndexField } from './tool-document.js';

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
  /**
   * Extra share of evidence for a tool whose name says the action a one-clause request asks for
   * (list, get, create, update, delete, or a synonym; 0 turns it off).
   */
  actionWeight: number;
  /** Evidence is divided by (distinct query terms)^this before it becomes a score. */
  lengthNorm: number;
  /**
   * Extra share of a one-clause request's object head (its object's last word: "servers" in "list
   * the servers in my subscription") matched by a tool whose name ends in it, actions aside (0 turns it off).
   */
  headWeight: number;
}

/** Parts of {@link RankingParams} to change; field weights may be given one by one. */
export type RankingOverrides = Partial<Omit<RankingParams, 'fieldWeights'>> & {
  /** Weights of the fields to change (the others keep their defaults). */
  fieldWeights?: Partial<Record<IndexField, number>>;
};

/** The ranking every index uses unless told otherwise; tuned on the benchmark datasets as a whole. */
export const DEFAULT_RANKING: Readonly<RankingParams> = Object.freeze({
  fieldWeights: Object.freeze({ name: 2, description: 1, tags: 0.5, source: 1, parameters: 0.5, phrases: 2 }),
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
  actionWeight: 0.3,
  headWeight: 0.5,
});

/** Longer query words get no typo search: typos are in words people type (a 32,768-letter one took 7 s). */
const MAX_TYPO_LENGTH = 64;
/**
 * Only a request's first this many distinct terms get a typo search (each scans the vocabulary): a
 * request of thousands of rare words is pasted, not typed (1 MB of made-up words took 17 s).
 */
export const MAX_TYPO_TERMS = 256;

/**
 * The edits a typo search of a query term allows (0: none): one from `fuzzyMinLength` letters, two
 * from `fuzzyTwoEditLength`, none past {@link MAX_TYPO_LENGTH}. (Only for a rare term: `fuzzyMaxTools`.)
 */
export function typoEdits(term: string, ranking: RankingParams): 0 | 1 | 2 {
  if (term.length > MAX_TYPO_LENGTH) return 0;
  return term.length >= ranking.fuzzyTwoEditLength ? 2 : term.length >= ranking.fuzzyMinLength ? 1 : 0;
}

/**
 * The default `minScore`: keeps every tool with real evidence and drops those whose only evidence is
 * weak (a word most tools share, a lone typo-level or prefix match). On the two benchmark sets every
 * relevant tool that reaches a top 10 scores above 0.42; nonsense such as "xyzzy quux" scores 0.
 */
export const DEFAULT_MIN_SCORE = 0.1;

/** A `minScore` as given: a number in [0, 1], else an {@link InvalidOptionError} naming `name`. */
export function checkMinScore(value: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > 1) {
    throw new InvalidOptionError(name, `${name} must be a number in [0, 1], got ${String(value)}`);
  }
  return value;
}

/**
 * The ranking of an index: {@link DEFAULT_RANKING} with the given overrides (an object, and its
 * `fieldWeights` an object when given). Each given number must be finite and not negative (an
 * {@link InvalidOptionError} names it, e.g. `ranking.fieldWeights.tags`); one left `undefined`
 * keeps its default, and a field weight of 0 switches that field off (`phrases`: phrase matching).
 */
export function resolveRanking(overrides: RankingOverrides | undefined): RankingParams {
  if (overrides === undefined) return DEFAULT_RANKING;
  checkObject(overrides, 'ranking');
  const { fieldWeights, ...params } = overrides;
  if (fieldWeights !== undefined) checkObject(fieldWeights, 'ranking.fieldWeights');
  return {
    ...DEFAULT_RANKING,
    ...checkedNumbers(params, PARAM_NAMES, 'ranking'),
    fieldWeights: {
      ...DEFAULT_RANKING.fieldWeights,
      ...checkedNumbers(fieldWeights ?? {}, FIELD_NAMES, 'ranking.fieldWeights'),
    },
  };
}

/** The ranking settings that are numbers (all but `fieldWeights`). */
const PARAM_NAMES: readonly string[] = Object.keys(DEFAULT_RANKING).filter((name) => name !== 'fieldWeights');
/** Ranking settings that are shares, at most 1 (BM25's `b`: above 1, long tools score below zero). */
const SHARES: readonly string[] = ['b'];
/** The fields that have a weight: the keyword index's, and `phrases`. */
const FIELD_NAMES: readonly string[] = Object.keys(DEFAULT_RANKING.fieldWeights);

/** Refuses a ranking setting that must be an object (of numbers) and is not. */
function checkObject(value: unknown, option: string): void {
  if (!isRecord(value)) {
    throw new InvalidOptionError(option, `${option} must be an object of numbers; got ${describeValue(value)}.`);
  }
}

/** The numbers of `values` that are given (not `undefined`), each a known setting, finite and >= 0. */
function checkedNumbers(values: object, known: readonly string[], path: string): Record<string, number> {
  const result: Record<string, number> = {};
  for (const [key, value] of Object.entries(values) as [string, unknown][]) {
    if (value === undefined) continue;
    const option = `${path}.${key}`;
    if (!known.includes(key)) {
      throw new InvalidOptionError(option, `${option} is not a ranking setting; use one of ${known.join(', ')}.`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidOptionError(option, `${option} must be a finite number >= 0, got ${String(value)}`);
    }
    if (SHARES.includes(key) && value > 1) {
      throw new InvalidOptionError(option, `${option} must be in [0, 1] (length normalisation), got ${String(value)}`);
    }
    result[key] = value;
  }
  return result;
}
