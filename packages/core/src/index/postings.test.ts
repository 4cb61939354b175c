import { describe, expect, it } from 'vitest';
import { buildKeywordIndex } from './keyword-build.js';
import {
  appendPosting,
  emptyPostings,
  findDoc,
  type Postings,
  postingDocs,
  postingFreqs,
  postingsOf,
  removePosting,
} from './postings.js';

const plain = (postings: Postings) => ({ docs: postingDocs(postings), freqs: postingFreqs(postings) });

describe('postings', () => {
  it('grows a list in a buffer of its own, keeping its postings', () => {
    const postings = emptyPostings(1);
    for (let doc = 0; doc < 10; doc++) appendPosting(postings, doc * 2, doc + 1);
    expect(plain(postings)).toEqual({
      docs: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18],
      freqs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    });
    expect(findDoc(postings, 8)).toBe(4);
    expect(findDoc(postings, 9)).toBe(-1);
    removePosting(postings, 0);
    removePosting(postings, 8);
    expect(plain(postings)).toEqual({ docs: [2, 4, 6, 8, 10, 12, 14, 16], freqs: [2, 3, 4, 5, 6, 7, 8, 9] });
  });

  it('packs a build into one buffer, and a list an update changes never writes into its neighbours', () => {
    const index = buildKeywordIndex(1, undefined, (builder) => {
      const [a, b, c] = [builder.term('a'), builder.term('b'), builder.term('c')];
      builder.add('x', [[a, b, b, c]]);
      builder.add('y', [[a, c]]);
    });
    const postingsOfTerm = (term: string) => index.get(term)!.fields[0]!;
    const [a, b, c] = [postingsOfTerm('a'), postingsOfTerm('b'), postingsOfTerm('c')];
    expect(a.data).toBe(b.data); // one shared buffer
    expect(b.data).toBe(c.data);
    expect(a.data.length).toBe(2 * 5); // five postings, no spare room
    expect([plain(a), plain(b), plain(c)]).toEqual([
      { docs: [0, 1], freqs: [1, 1] },
      { docs: [0], freqs: [2] },
      { docs: [0, 1], freqs: [1, 1] },
    ]);
    // A removal shifts within the list's own room; an addition moves the full list out.
    index.remove('x');
    index.add('z', [['a', 'c', 'c']]);
    expect(index.get('b')).toBeUndefined();
    expect(plain(index.get('a')!.fields[0]!)).toEqual({ docs: [1, 2], freqs: [1, 1] });
    expect(plain(index.get('c')!.fields[0]!)).toEqual({ docs: [1, 2], freqs: [1, 2] });
    expect(postingsOf([3], [4]).data).toEqual(Int32Array.from([3, 4]));
  });
});
