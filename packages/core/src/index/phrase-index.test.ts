import { describe, expect, it } from 'vitest';
import type { TermEntry } from './keyword-index.js';
import { distinctPairCount, PhraseIndex } from './phrase-index.js';
import { type Postings, postingsOf } from './postings.js';
import { INDEX_FIELDS } from './tool-document.js';

const lines = (...ids: number[]) => Int32Array.from(ids);

/** A keyword entry with only name postings (of frequency 1). */
function nameEntry(id: number, docs: number[]): TermEntry {
  const fields: (Postings | undefined)[] = [];
  fields[INDEX_FIELDS.indexOf('name')] = postingsOf(docs, new Array(docs.length).fill(1));
  return { id, term: `t${id}`, fields, refs: docs.length, lookupRefs: docs.length };
}

describe('distinctPairCount', () => {
  it('counts each unordered pair of different neighbours once, never across lines', () => {
    // 1 2 | 2 1 3 3 | 4 : pairs 1-2, 1-3 (3-3 is no pair; 2 and 2 sit on both sides of a line break)
    expect(distinctPairCount(lines(1, 2, -1, 2, 1, 3, 3, -1, 4))).toBe(2);
    expect(distinctPairCount(lines())).toBe(0);
    expect(distinctPairCount(lines(7))).toBe(0);
  });

  it('counts the pairs of a very long line in linear time', () => {
    // 160,000 different pairs, then each again in the other order: a scan of the pairs met so far
    // per pair took 11 s for the first half alone.
    const count = 160_000;
    const long = new Int32Array(2 * count + 3);
    for (let i = 0; i <= count; i++) long[i] = i;
    long[count + 1] = -1;
    for (let i = 0; i <= count; i++) long[count + 2 + i] = count - i;
    const started = performance.now();
    expect(distinctPairCount(long.subarray(0, count + 1))).toBe(count);
    expect(distinctPairCount(long)).toBe(count);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('PhraseIndex', () => {
  it('finds the documents where two terms stand side by side, in either order, with how often', () => {
    const index = new PhraseIndex();
    index.add(0, lines(1, 2, 3)); // 1-2 once
    index.add(1, lines(2, 1, -1, 1, 2)); // twice, once per line
    index.add(2, lines(1, -1, 2)); // not side by side: a line break between
    index.add(3, lines(1, 3, 2));
    const docs: number[] = [];
    const freqs: number[] = [];
    const postings = postingsOf([0, 1, 2, 3], [1, 1, 1, 1]);
    index.matches(1, 2, [postings, postings], [postings], new Int32Array(4), 2, docs, freqs);
    expect(docs).toEqual([0, 1]); // each document looked at once, though in both postings
    expect(freqs).toEqual([1, 2]);
  });

  it('looks only at the documents the other term is in, when it is rare enough to mark them', () => {
    const index = new PhraseIndex();
    index.add(0, lines(1, 2, 3));
    index.add(1, lines(2, 1, -1, 1, 2));
    index.add(2, lines(1, 2)); // has the pair, but the other term's postings (made up) leave it out
    const docs: number[] = [];
    const freqs: number[] = [];
    const seen = new Int32Array(3);
    const candidates = postingsOf([0, 1, 2], [1, 1, 1]);
    index.matches(1, 2, [candidates], [postingsOf([0, 1], [1, 1])], seen, 2, docs, freqs);
    expect(docs).toEqual([0, 1]);
    expect(freqs).toEqual([1, 2]);
    // Far more common than the candidates: not marked, every candidate's lines are scanned.
    docs.length = 0;
    const common = postingsOf(
      Array.from({ length: 100 }, (_, i) => i),
      new Array(100).fill(1),
    );
    index.matches(1, 2, [candidates], [common], new Int32Array(100), 2, docs, []);
    expect(docs).toEqual([0, 1, 2]);
  });

  it('finds every pair of a built index, with its count, as a scan of every document finds it', () => {
    // Seeded pseudo-random lines of 300 documents over 40 terms, with line breaks.
    let seed = 7;
    const next = (below: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return (seed >>> 8) % below;
    };
    const docLines = Array.from({ length: 300 }, () =>
      lines(...Array.from({ length: 1 + next(60) }, () => (next(12) === 0 ? -1 : next(40)))),
    );
    const buffer = Int32Array.from(docLines.flatMap((own) => [...own]));
    const starts = new Int32Array(docLines.length + 1);
    docLines.forEach((own, doc) => {
      starts[doc + 1] = starts[doc]! + own.length;
    });
    const index = PhraseIndex.fromBuffer(buffer, starts);
    const docsOf = (term: number) => docLines.flatMap((own, doc) => (own.includes(term) ? [doc] : []));
    const seen = new Int32Array(docLines.length);
    let stamp = 0;
    for (let a = 0; a < 40; a++) {
      for (let b = a + 1; b < 40; b++) {
        const expected: [number, number][] = [];
        docLines.forEach((own, doc) => {
          let freq = 0;
          for (let i = 0; i + 1 < own.length; i++) {
            if ((own[i] === a && own[i + 1] === b) || (own[i] === b && own[i + 1] === a)) freq += 1;
          }
          if (freq > 0) expected.push([doc, freq]);
        });
        const [ofA, ofB] = [docsOf(a), docsOf(b)];
        const docs: number[] = [];
        const freqs: number[] = [];
        stamp += 2;
        const postings = (of: number[]) => postingsOf(of, new Array(of.length).fill(1));
        index.matches(a, b, [postings(ofA)], [postings(ofB)], seen, stamp, docs, freqs);
        expect(docs.map((doc, i) => [doc, freqs[i]])).toEqual(expected);
      }
    }
  });

  it("keeps a pair's matches for the next query, until a document comes or goes", () => {
    const index = new PhraseIndex();
    index.add(0, lines(1, 2, 3));
    index.add(1, lines(2, 1, -1, 1, 2));
    index.add(2, lines(1, 3));
    const seen = new Int32Array(8);
    const matchesOf = (first: TermEntry, second: TermEntry, stamp: number) => {
      const { docs, freqs } = index.pairMatches(first, second, seen, stamp);
      return [...docs].map((doc, i) => [doc, freqs[i]]);
    };
    const one = nameEntry(1, [0, 1, 2]);
    const two = nameEntry(2, [0, 1]);
    expect(matchesOf(one, two, 2)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    // The same pair in the other order: the same matches, kept from the first time.
    expect(index.pairMatches(two, one, seen, 4)).toBe(index.pairMatches(one, two, seen, 6));
    index.add(3, lines(2, 1));
    expect(matchesOf(nameEntry(1, [0, 1, 2, 3]), nameEntry(2, [0, 1, 3]), 8)).toEqual([
      [0, 1],
      [1, 2],
      [3, 1],
    ]);
    index.remove(0);
    expect(matchesOf(nameEntry(1, [1, 2, 3]), nameEntry(2, [1, 3]), 10)).toEqual([
      [1, 2],
      [3, 1],
    ]);
  });

  it('keeps the running average of pairs per document as documents come and go', () => {
    const index = new PhraseIndex();
    index.add(0, lines(1, 2, 3)); // 2 pairs
    index.add(1, lines(4, 5)); // 1 pair
    expect(index.average).toBeCloseTo(1.5, 12);
    expect(index.length(0)).toBe(2);
    index.remove(0);
    expect(index.average).toBeCloseTo(1, 12);
    expect(index.has(0)).toBe(false);
    index.remove(0); // absent: nothing happens
    index.remove(1);
    expect(index.average).toBe(0);
    expect(index.size).toBe(0);
    expect(() => {
      index.add(2, lines());
      index.add(2, lines());
    }).toThrow(/added twice/);
  });

  it('holds the lines of a built or loaded index in one buffer, as if each document were added', () => {
    const docLines = [lines(1, 2, 3), lines(2, 1, -1, 1, 2), lines(1, -1, 2), lines(1, 3, 2)];
    const added = new PhraseIndex();
    docLines.forEach((own, doc) => {
      added.add(doc, own);
    });
    const buffer = Int32Array.from(docLines.flatMap((own) => [...own]));
    const starts = Int32Array.from([0, 3, 8, 11, 14]);
    const bulk = PhraseIndex.fromBuffer(buffer, starts);
    expect(bulk.average).toBe(added.average);
    expect(bulk.toJSON((id) => id)).toEqual(added.toJSON((id) => id));
    const match = (index: PhraseIndex) => {
      const docs: number[] = [];
      const freqs: number[] = [];
      const postings = postingsOf([0, 1, 2, 3, 4], [1, 1, 1, 1, 1]);
      index.matches(1, 2, [postings], [postings], new Int32Array(5), 2, docs, freqs);
      return { docs, freqs };
    };
    expect(match(bulk)).toEqual({ docs: [0, 1], freqs: [1, 2] });
    // A document of the buffer removed, and one added after: as with documents added one by one.
    for (const index of [bulk, added]) {
      index.remove(1);
      index.add(4, lines(2, 1));
    }
    expect(bulk.has(1)).toBe(false);
    expect(bulk.has(4)).toBe(true);
    expect(bulk.average).toBe(added.average);
    expect(match(bulk)).toEqual({ docs: [0, 4], freqs: [1, 1] });
    expect(bulk.toJSON((id) => id)).toEqual(added.toJSON((id) => id));
    expect(() => bulk.add(0, lines(1))).toThrow(/added twice/);
    // Loaded: the written pairs taken (the binary form checks them) and the average checked.
    expect(PhraseIndex.loaded(buffer, starts, [2, 1, 0, 2], 5, 1.25).size).toBe(4);
    expect(() => PhraseIndex.loaded(buffer, starts, [2, 1, 0, 2], 5, 2)).toThrow(/average 2 is not the mean/);
    expect(() => PhraseIndex.fromBuffer(buffer, Int32Array.from([0, 20]))).toThrow(/out of range/);
  });

  it('round-trips through JSON, terms as positions', () => {
    const index = new PhraseIndex();
    index.add(0, lines(10, 20, -1, 30));
    index.add(3, lines(20, 10));
    const json = index.toJSON((id) => id / 10);
    expect(json.documents).toEqual([
      [0, 1, [1, 2, -1, 3]],
      [3, 1, [2, 1]],
    ]);
    const loaded = PhraseIndex.fromJSON(JSON.parse(JSON.stringify(json)), (position) => position * 10);
    expect(loaded.toJSON((id) => id / 10)).toEqual(json);
    expect(loaded.average).toBe(index.average);
  });

  it('rejects a malformed serialisation with a specific error', () => {
    const idAt = (position: number) => (position < 5 ? position : undefined);
    expect(() => PhraseIndex.fromJSON(null, idAt)).toThrow(/not an object/);
    expect(() => PhraseIndex.fromJSON({ average: 'x', documents: [] }, idAt)).toThrow(/average/);
    expect(() => PhraseIndex.fromJSON({ average: 1, documents: [[0, 1]] }, idAt)).toThrow(/document entry/);
    expect(() => PhraseIndex.fromJSON({ average: 1, documents: [[0, 1, [9]]] }, idAt)).toThrow(/term 9 of document 0/);
    expect(() =>
      PhraseIndex.fromJSON(
        {
          average: 1,
          documents: [
            [0, 0, []],
            [0, 0, []],
          ],
        },
        idAt,
      ),
    ).toThrow(/document number 0 is not a document number above the one before/);
  });
});
