import { describe, expect, it } from 'vitest';
import { TermSumCache, termSums } from './term-sums.js';

describe('termSums', () => {
  it('lists the touched documents in ascending order with their scores', () => {
    const scores = new Float64Array([0, 0.5, 0, 1.5, 2.5]);
    const sums = termSums(Int32Array.from([4, 1, 3, 9]), 3, scores);
    expect([...sums.docs]).toEqual([1, 3, 4]);
    expect([...sums.scores]).toEqual([0.5, 1.5, 2.5]);
  });
});

describe('TermSumCache', () => {
  const sums = (n: number) => ({ docs: new Int32Array(n), scores: new Float64Array(n) });

  it('keeps at most its budget of documents, the least recently used out first', () => {
    const cache = new TermSumCache(10, 100);
    cache.set('a', sums(4));
    cache.set('b', sums(4));
    expect(cache.get('a')).toBeDefined(); // (now the most recently used)
    cache.set('c', sums(4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('d', sums(11)); // (over the budget alone: not kept, the others stay)
    expect(cache.get('d')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most its number of terms, even of terms that touched no document', () => {
    const cache = new TermSumCache(10, 3);
    for (let i = 0; i < 1_000; i++) cache.set(`unknown${i}`, sums(0));
    expect(cache.size).toBe(3);
    expect(cache.get('unknown999')).toBeDefined();
    expect(cache.get('unknown996')).toBeUndefined();
  });
});
