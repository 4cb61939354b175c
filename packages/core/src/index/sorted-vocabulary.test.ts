import fc from 'fast-check';
import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import type { TermEntry } from './keyword-index.js';
import { SortedVocabulary } from './sorted-vocabulary.js';

const entry = (term: string, id: number): TermEntry => ({ id, term, fields: [], refs: 1, lookupRefs: 1 });

/** The lookups of both structures over the same terms, as comparable values. */
function both(terms: readonly string[]) {
  const entries = [...new Set(terms)].map(entry);
  const tree = new SearchableMap<TermEntry>();
  for (const item of entries) tree.set(item.term, item);
  const sorted = SortedVocabulary.sorting(entries);
  const ids = (found: Iterable<[string, TermEntry]>) => [...found].map(([term, item]) => `${term}:${item.id}`).sort();
  const fuzzy = (found: Map<string, [TermEntry, number]>) =>
    [...found].map(([term, [item, distance]]) => `${term}:${item.id}:${distance}`).sort();
  return {
    prefix: (prefix: string) => [ids(sorted.atPrefix(prefix)), ids(tree.atPrefix(prefix))],
    fuzzy: (query: string, max: number) => [fuzzy(sorted.fuzzyGet(query, max)), fuzzy(tree.fuzzyGet(query, max))],
  };
}

describe('SortedVocabulary', () => {
  it('finds what the radix tree finds: prefixes, and typos with their edit distance', () => {
    const words = ['weather', 'weathers', 'whether', 'feather', 'wealth', 'we', 'w', 'forecast', 'forecasts', 'fore'];
    const lookups = both(words);
    for (const prefix of ['', 'w', 'we', 'wea', 'weather', 'weatherx', 'fore', 'z']) {
      const [sorted, tree] = lookups.prefix(prefix);
      expect(sorted).toEqual(tree);
    }
    for (const query of ['weathr', 'wether', 'forcast', 'feathers', 'we', 'x', 'weatherss']) {
      for (const max of [1, 2]) {
        const [sorted, tree] = lookups.fuzzy(query, max);
        expect(sorted).toEqual(tree);
      }
    }
    expect(lookups.fuzzy('weathr', 1)[0]).toEqual(['weather:0:1']);
  });

  it('agrees with the radix tree on any vocabulary and query (property)', () => {
    // Small alphabets make shared prefixes, near spellings and skipped ranges common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'é', '字'), maxLength: 9 });
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), word, fc.integer({ min: 0, max: 3 }), (terms, query, max) => {
        const lookups = both(terms);
        const [sortedFuzzy, treeFuzzy] = lookups.fuzzy(query, max);
        expect(sortedFuzzy).toEqual(treeFuzzy);
        const [sortedPrefix, treePrefix] = lookups.prefix(query);
        expect(sortedPrefix).toEqual(treePrefix);
      }),
      { numRuns: 500 },
    );
  });

  it('looks up a query far longer than any term without rows for its whole length', () => {
    // (rows for every unit of a 1,048,576-unit query would need 4 TB: it threw a RangeError, as
    // the radix tree still does)
    const lookups = both(['weather', 'a'.repeat(40)]);
    const sortedOnly = SortedVocabulary.sorting(['weather', 'a'.repeat(40)].map(entry));
    expect(sortedOnly.fuzzyGet('a'.repeat(1 << 20), 2).size).toBe(0);
    const [sorted, tree] = lookups.fuzzy('a'.repeat(42), 2);
    expect(sorted).toEqual([`${'a'.repeat(40)}:1:2`]);
    expect(sorted).toEqual(tree);
  });
});
