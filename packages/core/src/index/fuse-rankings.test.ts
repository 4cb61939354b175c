import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import type { SearchHit } from '../types.js';
import {
  DEFAULT_FUSE_OPTIONS,
  fuseRankings,
  MIN_MARGIN_SAMPLE,
  TIE_EVIDENCE,
  TIE_SIMILARITY,
  vectorEvidence,
} from './fuse-rankings.js';

const hit = (id: string, score: number): SearchHit => ({ id, score, matches: { [id]: ['name'] } });

describe('vectorEvidence', () => {
  it('maps similarity linearly from minSimilarity (0) to maxSimilarity (vectorWeight), clamped', () => {
    const { minSimilarity, maxSimilarity, vectorWeight } = DEFAULT_FUSE_OPTIONS;
    expect(vectorEvidence(-1)).toBe(0);
    expect(vectorEvidence(minSimilarity)).toBe(0);
    expect(vectorEvidence((minSimilarity + maxSimilarity) / 2)).toBeCloseTo(vectorWeight / 2, 10);
    expect(vectorEvidence(maxSimilarity)).toBeCloseTo(vectorWeight, 10);
    expect(vectorEvidence(1)).toBeCloseTo(vectorWeight, 10);
    expect(vectorEvidence(0.5, { minSimilarity: 0, maxSimilarity: 1, vectorWeight: 1 })).toBe(0.5);
  });
});

describe('fuseRankings', () => {
  const options = { minSimilarity: 0.2, maxSimilarity: 0.6, vectorWeight: 0.8 };

  it('combines keyword score and vector evidence as a noisy OR, keeping keyword matches', () => {
    const fused = fuseRankings(
      [hit('both', 0.5), hit('keyword-only', 0.6)],
      [
        { id: 'both', similarity: 0.4 },
        { id: 'vector-only', similarity: 0.6 },
        { id: 'keyword-only', similarity: 0.1 },
      ],
      options,
    );
    expect(fused).toEqual([
      { id: 'vector-only', score: expect.closeTo(0.8, 10), matches: {} },
      { id: 'both', score: expect.closeTo(1 - 0.5 * (1 - 0.4), 10), matches: { both: ['name'] } },
      { id: 'keyword-only', score: 0.6, matches: { 'keyword-only': ['name'] } },
    ]);
  });

  it('trusts the vectors as far as they find the best keyword hits (the square of the share found)', () => {
    const keyword = [hit('a', 0.9), hit('b', 0.8), hit('c', 0.7), hit('d', 0.6), hit('e', 0.5), hit('f', 0.4)];
    const settings = { minSimilarity: 0, maxSimilarity: 1, vectorWeight: 1 };
    // The vectors find 2 of the 5 best keyword hits ('f' is not among them): w = (2/5)² = 0.16.
    const fused = fuseRankings(
      keyword,
      [
        { id: 'x', similarity: 1 },
        { id: 'a', similarity: 0.5 },
        { id: 'e', similarity: 0 },
        { id: 'f', similarity: 1 },
      ],
      settings,
    );
    expect(fused.find((result) => result.id === 'x')!.score).toBeCloseTo(0.16, 10);
    expect(fused.find((result) => result.id === 'a')!.score).toBeCloseTo(1 - 0.1 * (1 - 0.08), 10);
    // None of them: the vectors change nothing, and bring nothing in.
    const apart = fuseRankings(
      keyword,
      [
        { id: 'x', similarity: 1 },
        { id: 'f', similarity: 1 },
      ],
      settings,
    );
    expect(apart.map((result) => [result.id, result.score])).toEqual(keyword.map((k) => [k.id, k.score]));
    // No keyword hit at all (a request in other words): the vectors count fully.
    expect(fuseRankings([], [{ id: 'x', similarity: 0.75 }], settings)).toEqual([
      { id: 'x', score: 0.75, matches: {} },
    ]);
  });

  it('keeps scores in [0, 1] and never lowers a keyword score', () => {
    const keyword = [hit('a', 1), hit('b', 0.9), hit('c', 0.01), hit('d', 1.5), hit('e', -0.2)];
    const vector = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ id, similarity: 1 - i * 0.35 }));
    const fused = fuseRankings(keyword, vector, { minSimilarity: -1, maxSimilarity: 1, vectorWeight: 1 });
    for (const result of fused) {
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(1);
      const keywordScore = keyword.find((k) => k.id === result.id)?.score ?? 0;
      expect(result.score).toBeGreaterThanOrEqual(Math.min(1, Math.max(0, keywordScore)));
    }
  });

  it('drops vector-only hits at or below minSimilarity, so weak neighbours cannot flood the results', () => {
    const keyword = [hit('weather', 0.7), hit('forecast', 0.4)];
    const vector = Array.from({ length: 500 }, (_, i) => ({ id: `noise-${i}`, similarity: 0.2 - i * 0.0001 }));
    const fused = fuseRankings(keyword, vector, options);
    expect(fused.map((result) => result.id)).toEqual(['weather', 'forecast']);
    // Just above the floor, a vector-only hit scores little and ranks below real keyword hits.
    const weak = fuseRankings(
      keyword,
      [
        { id: 'weather', similarity: 0.1 },
        { id: 'forecast', similarity: 0.1 },
        { id: 'near', similarity: 0.25 },
      ],
      options,
    );
    expect(weak.map((result) => result.id)).toEqual(['weather', 'forecast', 'near']);
    expect(weak[2]!.score).toBeCloseTo(0.1, 10);
  });

  it('breaks ties by keyword score, then similarity, then id, and honours limit', () => {
    const fused = fuseRankings(
      [hit('k2', 0.5), hit('k1', 0.5)],
      [
        { id: 'v2', similarity: 0.5 },
        { id: 'v1', similarity: 0.5 },
        { id: 'k1', similarity: 0 },
        { id: 'k2', similarity: 0 },
      ],
      { minSimilarity: 0, maxSimilarity: 1, vectorWeight: 1 },
    );
    expect(fused.map((result) => result.id)).toEqual(['k1', 'k2', 'v1', 'v2']);
    expect(fuseRankings([hit('a', 0.5), hit('b', 0.4)], [], { limit: 1 }).map((result) => result.id)).toEqual(['a']);
    expect(fuseRankings([hit('a', 0.5)], [], { limit: 0 })).toEqual([]);
  });

  describe('a tie for first place', () => {
    // vectorWeight 0: the fused scores are the keyword scores, so only the tie rule moves anything.
    const keywordsOnly = { vectorWeight: 0 };
    const siblings = [hit('storage_get', 0.62), hit('storage_list', 0.6), hit('storage_set', 0.59)];
    const ids = (hits: SearchHit[]) => hits.map((result) => result.id);

    it('goes to the second hit when the vectors find it clearly nearer, its score raised just above', () => {
      const vector = [
        { id: 'storage_list', similarity: 0.8 },
        { id: 'storage_get', similarity: 0.8 - TIE_SIMILARITY },
        { id: 'storage_set', similarity: 0.5 },
      ];
      const fused = fuseRankings(siblings, vector, keywordsOnly);
      expect(ids(fused)).toEqual(['storage_list', 'storage_get', 'storage_set']);
      expect(fused[0]!.score).toBeGreaterThan(0.62);
      expect(fused[0]!.score).toBeCloseTo(0.62, 5);
      expect(fused[0]!.matches).toEqual({ storage_list: ['name'] });
      expect(fused[1]!.score).toBe(0.62);
      expect(ids(fuseRankings(siblings, vector, { ...keywordsOnly, limit: 1 }))).toEqual(['storage_list']);
    });

    it('stays with the first hit when the vectors barely prefer the second', () => {
      const vector = [
        { id: 'storage_list', similarity: 0.8 },
        { id: 'storage_get', similarity: 0.8 - TIE_SIMILARITY * 0.9 },
      ];
      expect(ids(fuseRankings(siblings, vector, keywordsOnly))).toEqual(['storage_get', 'storage_list', 'storage_set']);
    });

    it('stays with the first hit when the keywords clearly prefer it', () => {
      // 0.8 and 0.6 lie ln(0.4 / 0.2) ≈ 0.69 evidence units apart, more than TIE_EVIDENCE.
      expect(Math.log(0.4 / 0.2)).toBeGreaterThan(TIE_EVIDENCE);
      const apart = [hit('storage_get', 0.8), hit('storage_list', 0.6)];
      const vector = [
        { id: 'storage_list', similarity: 0.9 },
        { id: 'storage_get', similarity: 0.5 },
      ];
      expect(ids(fuseRankings(apart, vector, keywordsOnly))).toEqual(['storage_get', 'storage_list']);
    });

    it('needs both found by the vectors, and settles only first place', () => {
      const onlySecond = [{ id: 'storage_list', similarity: 0.9 }];
      expect(ids(fuseRankings(siblings, onlySecond, keywordsOnly))).toEqual([
        'storage_get',
        'storage_list',
        'storage_set',
      ]);
      // The third is far nearer, but a tie for first is between the first two only.
      const third = [
        { id: 'storage_set', similarity: 0.95 },
        { id: 'storage_get', similarity: 0.5 },
        { id: 'storage_list', similarity: 0.5 },
      ];
      expect(ids(fuseRankings(siblings, third, keywordsOnly))).toEqual(['storage_get', 'storage_list', 'storage_set']);
      // A certain first hit (score 1) is never displaced.
      const certain = [hit('storage_get', 1), hit('storage_list', 0.99)];
      const vector = [
        { id: 'storage_list', similarity: 0.9 },
        { id: 'storage_get', similarity: 0.5 },
      ];
      expect(ids(fuseRankings(certain, vector, keywordsOnly))).toEqual(['storage_get', 'storage_list']);
    });
  });

  it('counts the first entry of an id listed twice and does not mutate its inputs', () => {
    const keyword = [hit('a', 0.5), hit('a', 0.9)];
    const vector = [
      { id: 'a', similarity: 0.2 },
      { id: 'a', similarity: 0.6 },
    ];
    expect(fuseRankings(keyword, vector, options)).toEqual([{ id: 'a', score: 0.5, matches: { a: ['name'] } }]);
    expect(keyword[0]!.score).toBe(0.5);
  });

  it('returns the keyword ranking unchanged when there are no vector hits', () => {
    const keyword = [hit('a', 0.9), hit('b', 0.3)];
    expect(fuseRankings(keyword, [])).toEqual(keyword);
    expect(fuseRankings([], [])).toEqual([]);
  });

  it('reads similarities as margins over the nearest tools once there are enough of them', () => {
    // 19 neighbours at 0.6 and 0.7 (alternating) and one at 0.9: mean and deviation of the 20.
    const vector = Array.from({ length: 19 }, (_, i) => ({ id: `n${i}`, similarity: i % 2 === 0 ? 0.6 : 0.7 }));
    vector.unshift({ id: 'best', similarity: 0.9 });
    const sims = vector.map((hit) => hit.similarity);
    const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
    const sd = Math.sqrt(sims.reduce((a, b) => a + (b - mean) ** 2, 0) / sims.length);
    const margin = (0.9 - mean) / sd;
    const { minMargin, maxMargin, vectorWeight } = DEFAULT_FUSE_OPTIONS;
    const expected = vectorWeight * Math.min(1, Math.max(0, (margin - minMargin) / (maxMargin - minMargin)));
    expect(expected).toBeGreaterThan(0);
    const fused = fuseRankings([], vector);
    // No keyword hit: the vectors count fully; the neighbours stand out by less than minMargin and are dropped.
    expect(fused).toEqual([{ id: 'best', score: expect.closeTo(expected, 10), matches: {} }]);
    // The same similarity among tools that are all about as near stands out by nothing.
    const flat = Array.from({ length: MIN_MARGIN_SAMPLE }, (_, i) => ({ id: `f${i}`, similarity: 0.9 - i * 0.001 }));
    expect(fuseRankings([], flat).map((hit) => hit.id)).toEqual([]);
  });

  it('drops a similarity at or below minSimilarity whatever its margin', () => {
    const vector = Array.from({ length: 20 }, (_, i) => ({ id: `n${i}`, similarity: i === 0 ? 0.45 : 0.1 }));
    expect(fuseRankings([], vector)).toEqual([]);
    expect(fuseRankings([], vector, { minSimilarity: 0.4 }).map((hit) => hit.id)).toEqual(['n0']);
  });

  it('rejects inconsistent options', () => {
    expect(() => fuseRankings([], [], { minMargin: 3, maxMargin: 3 })).toThrow(/minMargin/);
    expect(() => fuseRankings([], [], { maxMargin: Number.POSITIVE_INFINITY })).toThrow(/maxMargin/);
    expect(() => fuseRankings([], [], { minSimilarity: 0.8, maxSimilarity: 0.5 })).toThrow(InvalidOptionError);
    expect(() => fuseRankings([], [], { vectorWeight: 1.5 })).toThrow(/vectorWeight/);
    expect(() => fuseRankings([], [], { limit: -1 })).toThrow(/limit/);
    expect(() => vectorEvidence(0.5, { minSimilarity: Number.NaN })).toThrow(/minSimilarity/);
  });
});
