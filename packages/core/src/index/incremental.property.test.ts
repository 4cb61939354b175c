// Property test of what a search keeps between searches (each query term's summed scores, its
// vocabulary lookups, phrase matches) against what the catalog does in between: after any sequence
// of searches, additions, removals and replacements, the long-lived index answers every search as
// an index built fresh from the same catalog does: the same tools, in the same order, with the same
// scores (to 12 decimals). Small catalogs and a small vocabulary make terms come again often, so
// kept sums are read back, thrown out on a change, and (past their budget of 16 documents per tool)
// evicted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import type { ToolDescriptor } from '../types.js';
import { ToolIndex } from './tool-index.js';

const WORDS = ['weather', 'forecast', 'city', 'send', 'email', 'list', 'message', 'get', 'stock', 'price', 'file'];
// (typos, prefixes and plurals too; "and" and "then" make requests of several clauses)
const word = fc.constantFrom(...WORDS, 'wether', 'emails', 'pric', 'and', 'then');
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));

const tool = fc.record({
  id: fc.integer({ min: 0, max: 11 }).map((n) => `tool_${n}`),
  name: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join('_')),
  description: text(0, 8),
  source: fc.option(fc.constantFrom('mail', 'weather', 'files'), { nil: undefined }),
  parameter: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
});

type GeneratedTool = typeof tool extends fc.Arbitrary<infer T> ? T : never;

type Step =
  | { kind: 'search'; query: string; limit: number }
  | { kind: 'upsert'; tool: GeneratedTool }
  | { kind: 'remove'; id: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('search' as const), query: text(1, 4), limit: fc.constantFrom(1, 3, 20) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('upsert' as const), tool }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 11 }) }) },
);

function descriptor(generated: GeneratedTool): ToolDescriptor {
  const { parameter, source, ...rest } = generated;
  return {
    ...rest,
    ...(source === undefined ? {} : { source }),
    ...(parameter === undefined
      ? {}
      : { inputSchema: { type: 'object', properties: { [parameter]: { type: 'string' } } } }),
  };
}

describe('a long-lived index against a fresh one', () => {
  it('answers every search after any catalog changes exactly as an index built fresh from the catalog', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tool, { minLength: 1, maxLength: 8 }),
        fc.array(step, { maxLength: 40 }),
        async (initial, steps) => {
          const catalog = new ToolCatalog();
          for (const generated of initial) catalog.upsert(descriptor(generated));
          const index = new ToolIndex(catalog);
          try {
            for (const next of steps) {
              if (next.kind === 'upsert') catalog.upsert(descriptor(next.tool));
              else if (next.kind === 'remove') {
                if (catalog.get(`tool_${next.id}`)) catalog.remove(`tool_${next.id}`);
              } else {
                const options = { limit: next.limit, minScore: 0 };
                const fresh = new ToolIndex(new ToolCatalog(catalog.list()));
                const expected = await fresh.search(next.query, options);
                fresh.dispose();
                const hits = await index.search(next.query, options);
                expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
                // (to the last bits only: the long-lived index's field length totals are kept by
                // adding and subtracting, so its averages can differ from a fresh count's in the last bit)
                for (const [i, hit] of hits.entries()) {
                  expect(hit.score).toBeCloseTo(expected[i]!.score, 12);
                }
              }
            }
          } finally {
            index.dispose();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
