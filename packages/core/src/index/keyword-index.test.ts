import SearchableMap from 'minisearch/SearchableMap';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildKeywordIndex } from './keyword-build.js';
import { KeywordIndex, type KeywordIndexBuilder } from './keyword-index.js';
import { keywordIndexFromJSON } from './keyword-index-reader.js';
import { type Postings, postingDocs, postingFreqs } from './postings.js';

/** A list's postings as plain arrays. */
const plain = (postings: Postings | undefined) =>
  postings === undefined ? undefined : { docs: postingDocs(postings), freqs: postingFreqs(postings) };

/** Two fields: 0 looked up by prefix and typo, 1 only matched exactly (like word pairs). */
function indexOf(documents: [string, string[], string[]][]): KeywordIndex {
  const index = new KeywordIndex(2, [0]);
  for (const [id, words, pairs] of documents) index.add(id, [words, pairs]);
  return index;
}

const DOCS: [string, string[], string[]][] = [
  ['a', ['weather', 'forecast', 'weather'], ['forecast+weather']],
  ['b', ['forecast', 'city'], ['city+forecast']],
  ['c', ['stock', 'quote', 'stocks'], []],
];

const terms = (entries: Iterable<[string, unknown]>) => [...entries].map(([term]) => term);

describe('KeywordIndex', () => {
  it('keeps postings in document order with term frequencies, and field lengths as distinct terms', () => {
    const index = indexOf(DOCS);
    expect(index.size).toBe(3);
    const weather = index.get('weather')!;
    expect(plain(weather.fields[0])).toEqual({ docs: [0], freqs: [2] });
    expect(plain(index.get('forecast')!.fields[0])).toEqual({ docs: [0, 1], freqs: [1, 1] });
    expect(index.fieldLength(0, 0)).toBe(2);
    expect(index.averageLength(0)).toBeCloseTo((2 + 2 + 3) / 3, 12);
    expect(index.averageLength(1)).toBeCloseTo(2 / 3, 12);
    expect(index.idOf(2)).toBe('c');
  });

  it('looks up prefixes and typos among the looked-up fields only', () => {
    const index = indexOf(DOCS);
    expect(terms(index.atPrefix('stock')).sort()).toEqual(['stock', 'stocks']);
    expect(terms(index.atPrefix('forecast'))).toEqual(['forecast']); // not the pair `forecast+weather`
    expect([...index.fuzzyGet('wether', 1).keys()]).toEqual(['weather']);
    expect(plain(index.get('city+forecast')!.fields[1])).toEqual({ docs: [1], freqs: [1] });
  });

  it('removes a document from every posting and the vocabulary at once, as if never added', () => {
    const index = indexOf(DOCS);
    expect(terms(index.atPrefix('sto')).sort()).toEqual(['stock', 'stocks']); // the tree is built now
    expect(index.remove('c')).toBe(true);
    expect(index.remove('c')).toBe(false);
    expect(index.has('c')).toBe(false);
    expect(index.get('stock')).toBeUndefined();
    expect(terms(index.atPrefix('sto'))).toEqual([]);
    index.remove('a');
    expect(plain(index.get('forecast')!.fields[0])).toEqual({ docs: [1], freqs: [1] });
    expect(index.get('forecast+weather')).toBeUndefined();
    const fresh = indexOf([DOCS[1]!]);
    expect(index.size).toBe(1);
    expect(index.averageLength(0)).toBeCloseTo(fresh.averageLength(0), 12);
    expect(index.averageLength(1)).toBeCloseTo(fresh.averageLength(1), 12);
  });

  it('replaces a document added again under the same id', () => {
    const index = indexOf(DOCS);
    index.add('b', [['translate'], []]);
    expect(index.size).toBe(3);
    expect(index.get('city')).toBeUndefined();
    expect(plain(index.get('translate')!.fields[0])).toEqual({ docs: [3], freqs: [1] });
    expect(() => index.add('x', [['one']])).toThrow(/expected 2 fields/);
  });

  it('round-trips through JSON to an index with the same statistics and lookups', () => {
    const index = indexOf(DOCS);
    index.remove('b');
    index.add('d', [['stockholm', 'city'], []]);
    const json = JSON.parse(JSON.stringify(index.toJSON()));
    const loaded = keywordIndexFromJSON(json, 2, [0]);
    expect(loaded.toJSON()).toEqual(index.toJSON());
    // (a loaded index looks terms up in its sorted vocabulary, an updated one in its tree: same terms)
    expect(terms(loaded.atPrefix('stock')).sort()).toEqual(terms(index.atPrefix('stock')).sort());
    const typos = (found: Map<string, [unknown, number]>) =>
      [...found].map(([term, [, distance]]) => `${term} ${distance}`);
    expect(typos(loaded.fuzzyGet('stocc', 2)).sort()).toEqual(typos(index.fuzzyGet('stocc', 2)).sort());
    expect(typos(loaded.fuzzyGet('stocc', 2))).toContain('stock 1');
    expect(loaded.averageLength(0)).toBe(index.averageLength(0));
    loaded.remove('d');
    expect(loaded.get('stockholm')).toBeUndefined();
  });

  it('builds many documents at once exactly as adding them one by one', () => {
    // Seeded pseudo-random documents: repeats within a field, terms shared across fields.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const documents = Array.from({ length: 60 }, (_, d) => ({
      id: `doc${d}`,
      fields: [0, 1, 2].map(() =>
        Array.from({ length: Math.floor(random() * 8) }, () => words[Math.floor(random() * 40)]!),
      ),
    }));
    documents.push({ id: 'empty', fields: [[], [], []] });
    const oneByOne = new KeywordIndex(3, [0, 1]);
    for (const { id, fields } of documents) oneByOne.add(id, fields);
    const numbers = new Map<string, number>();
    const built = buildKeywordIndex(3, [0, 1], (builder) => {
      for (const { id, fields } of documents) {
        const termNumbers = fields.map((terms) =>
          terms.map((term) => {
            const number = builder.term(term);
            numbers.set(term, number);
            return number;
          }),
        );
        builder.add(id, termNumbers);
      }
    });
    for (const [term, number] of numbers) expect(built.get(term)?.id).toBe(number);
    expect(built.toJSON()).toEqual(oneByOne.toJSON());
    expect(terms(built.atPrefix('w1')).sort()).toEqual(terms(oneByOne.atPrefix('w1')).sort());
    // and it is an ordinary index afterwards
    built.remove('doc3');
    oneByOne.remove('doc3');
    expect(built.remove('empty')).toBe(true);
    oneByOne.remove('empty');
    built.add('late', [['w1', 'w1'], [], ['w39']]);
    oneByOne.add('late', [['w1', 'w1'], [], ['w39']]);
    expect(built.toJSON()).toEqual(oneByOne.toJSON());
  });

  it('numbers terms alike whether a build is told a term is new (newTerm) or looks it up (term)', () => {
    const built = buildKeywordIndex(1, undefined, (builder) => {
      expect(builder.newTerm('a')).toBe(0);
      expect(builder.term('b')).toBe(1);
      expect(builder.newTerm('c')).toBe(2);
      expect([builder.term('a'), builder.term('c'), builder.term('b'), builder.term('d')]).toEqual([0, 2, 1, 3]);
      builder.add('x', [[0, 1, 2, 3]]);
    });
    expect(['a', 'b', 'c', 'd'].map((term) => built.get(term)?.id)).toEqual([0, 1, 2, 3]);
  });

  it('refuses bad input to a build with a specific error', () => {
    expect(() => buildKeywordIndex(2, undefined, (builder) => builder.add('a', [[0], []]))).toThrow(
      /unknown term number 0/,
    );
    expect(() =>
      buildKeywordIndex(2, undefined, (builder) => {
        const term = builder.term('x');
        builder.add('a', [[term], []]);
        builder.add('a', [[term], []]);
      }),
    ).toThrow(/"a" added twice/);
    expect(() => buildKeywordIndex(2, undefined, (builder) => builder.add('a', [[]]))).toThrow(
      /expected 2 fields, got 1/,
    );
    let escaped: KeywordIndexBuilder | undefined;
    buildKeywordIndex(1, undefined, (builder) => {
      escaped = builder;
    });
    expect(() => escaped!.add('b', [[]])).toThrow(/after the build/);
  });

  describe('the lookups of an unchanged index', () => {
    afterEach(() => vi.restoreAllMocks());

    /** DOCS built at once (as a ToolIndex builds), and a spy on the radix tree's inserts. */
    function built() {
      const inserts = vi.spyOn(SearchableMap.prototype, 'set');
      const index = buildKeywordIndex(2, [0], (builder) => {
        for (const [id, ...fields] of DOCS)
          builder.add(
            id,
            fields.map((words) => words.map((w) => builder.term(w))),
          );
      });
      const lookups = () => [
        terms(index.atPrefix('stoc')).sort(),
        [...index.fuzzyGet('wether', 1)].map(([term, [, distance]]) => `${term} ${distance}`),
      ];
      return { index, inserts, lookups };
    }

    it('search the terms in sorted order, with no radix tree built', () => {
      const { inserts, lookups } = built();
      const first = lookups();
      expect(first).toEqual([['stock', 'stocks'], ['weather 1']]);
      for (let i = 0; i < 50; i++) expect(lookups()).toEqual(first);
      expect(inserts).not.toHaveBeenCalled();
    });

    it('go to the tree once the index changes, with the same answers', () => {
      const { index, inserts, lookups } = built();
      const before = lookups();
      index.add('d', [['stockholm'], []]);
      expect(terms(index.atPrefix('stoc')).sort()).toEqual(['stock', 'stockholm', 'stocks']);
      expect(inserts).toHaveBeenCalledWith('stockholm', expect.anything());
      index.remove('d');
      expect(lookups()).toEqual(before);
    });
  });

  it('rejects a malformed serialisation with a specific error', () => {
    const json = indexOf(DOCS).toJSON();
    const attempt = (value: unknown) => () => keywordIndexFromJSON(value, 2, [0]);
    expect(attempt(null)).toThrow(/not an object/);
    expect(attempt({ ...json, fields: 3 })).toThrow(/"fields" is 3, expected 2/);
    expect(attempt({ ...json, averages: [1] })).toThrow(/averages/);
    expect(attempt({ ...json, documents: [[0, 'a', [1]], ...json.documents.slice(1)] })).toThrow(/field lengths/);
    expect(attempt({ ...json, terms: [['weather', [[0, [7], [1]]]]] })).toThrow(/postings of "weather"/);
    expect(attempt({ ...json, terms: [['weather', [[0, [1, 0], [1, 1]]]]] })).toThrow(/postings of "weather"/);
  });
});
