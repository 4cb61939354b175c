import { describe, expect, it } from 'vitest';
import { evaluate, meanMetrics, relevantSlots, scoreRanking } from './metrics.js';

const log2 = Math.log2;

describe('relevantSlots', () => {
  it('makes each relevant id a slot and each alternatives group one slot', () => {
    const { slotOf, slots } = relevantSlots({ relevant: ['a', 'b', 'x'], alternatives: [['a', 'a2']] });
    expect(slots).toBe(3);
    expect(slotOf.get('a')).toBe(slotOf.get('a2'));
    expect(slotOf.get('b')).not.toBe(slotOf.get('a'));
  });
});

describe('scoreRanking', () => {
  it('scores a perfect ranking at 100 everywhere', () => {
    const m = scoreRanking(['a', 'b', 'c'], { relevant: ['a', 'b'] });
    expect(m).toEqual({ r1: 50, r5: 100, r10: 100, ndcg10: 100, mrr: 100, complete10: 100 });
  });

  it('computes recall, NDCG, MRR and completeness for a mixed ranking', () => {
    // relevant a (rank 2) and b (rank 7); c is never ranked
    const m = scoreRanking(['x', 'a', 'y', 'z', 'w', 'v', 'b', 'u'], { relevant: ['a', 'b', 'c'] });
    expect(m.r1).toBe(0);
    expect(m.r5).toBeCloseTo(100 / 3);
    expect(m.r10).toBeCloseTo(200 / 3);
    const dcg = 1 / log2(3) + 1 / log2(8);
    const idcg = 1 + 1 / log2(3) + 1 / log2(4);
    expect(m.ndcg10).toBeCloseTo((100 * dcg) / idcg);
    expect(m.mrr).toBe(50);
    expect(m.complete10).toBe(0);
  });

  it('counts only the top 10 for NDCG and Complete@10 but the whole ranking for MRR', () => {
    const ranking = Array.from({ length: 12 }, (_, i) => `n${i}`);
    ranking[11] = 'a';
    const m = scoreRanking(ranking, { relevant: ['a'] });
    expect(m.ndcg10).toBe(0);
    expect(m.r10).toBe(0);
    expect(m.complete10).toBe(0);
    expect(m.mrr).toBeCloseTo(100 / 12);
  });

  it('fills an alternatives slot once, with whichever member ranks first', () => {
    const judgement = { relevant: ['a', 'b'], alternatives: [['a', 'a2']] };
    const m = scoreRanking(['a2', 'a', 'b'], judgement);
    // a2 fills the slot at rank 1, a (rank 2) adds nothing, b fills the second slot at rank 3
    const dcg = 1 + 1 / log2(4);
    const idcg = 1 + 1 / log2(3);
    expect(m.r1).toBe(50);
    expect(m.r5).toBe(100);
    expect(m.ndcg10).toBeCloseTo((100 * dcg) / idcg);
    expect(m.complete10).toBe(100);
  });

  it('ignores a tool ranked twice after its first place', () => {
    const m = scoreRanking(['x', 'x', 'a'], { relevant: ['a'] });
    expect(m.mrr).toBe(50);
  });

  it('scores an empty ranking at zero', () => {
    expect(scoreRanking([], { relevant: ['a'] })).toEqual({ r1: 0, r5: 0, r10: 0, ndcg10: 0, mrr: 0, complete10: 0 });
  });

  it('rejects a judgement without relevant tools', () => {
    expect(() => scoreRanking(['a'], { relevant: [] })).toThrow();
  });
});

describe('evaluate', () => {
  it('averages per-query metrics', () => {
    const m = evaluate([['a'], ['x']], [{ relevant: ['a'] }, { relevant: ['b'] }]);
    expect(m.r1).toBe(50);
    expect(m.mrr).toBe(50);
    expect(m.complete10).toBe(50);
    expect(meanMetrics([]).ndcg10).toBe(0);
  });
});
