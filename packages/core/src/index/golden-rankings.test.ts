// The golden rankings: for every query of every dataset in shared/datasets, the top-10 ids (and
// their scores, to a tolerance) are those recorded in `golden-rankings.test.json`, so that no change
// made for speed (pruning, a saved format, a data layout) changes what a search returns.
//
// The record is compact: per query, a hash of its top-10 ids in order and the sum of their scores;
// plus the whole top-10 of a few queries per catalog, readable. To record today's rankings again
// (only for a change that is meant to change rankings, said so in its commit):
//
//   TOOLSCOUT_UPDATE_GOLDEN=1 pnpm exec vitest run src/index/golden-rankings.test.ts
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { parseQueriesJsonl, parseToolsJsonl, type RetrievalQuery } from '../importers/jsonl.js';
import type { SearchHit, ToolDescriptor } from '../types.js';
import { ToolIndex } from './tool-index.js';

// packages/core/src/index/ -> the folder that holds the repository, where shared/ sits beside it.
const datasets = new URL('../../../../../shared/datasets/', import.meta.url);
const haveDatasets = existsSync(fileURLToPath(datasets));
const goldenFile = fileURLToPath(new URL('./golden-rankings.test.json', import.meta.url));
const update = process.env.TOOLSCOUT_UPDATE_GOLDEN === '1';
const DATASETS = ['azuremcp', 'sealtools', 'toolbench'];
/** Scores may differ by this much (summed over a top 10): the order and the ids may not. */
const SCORE_TOLERANCE = 1e-9;
/** Queries per catalog whose whole top 10 is recorded readably (evenly spread). */
const SPOT_CHECKS = 4;

interface Golden {
  /** Per query (in file order): the first 12 hex digits of a SHA-1 of its top-10 ids (joined by line breaks). */
  ids: string[];
  /** Per query: the sum of its top-10 scores. */
  scores: number[];
  /** A few queries' whole top 10, for a readable failure. */
  spots: { query: string; top: [string, number][] }[];
}

/** {@link Golden} as saved: the lists as one line each (space-separated), so the file stays small. */
interface SavedGolden {
  ids: string;
  scores: string;
  /** A few queries' whole top 10, for a readable failure. */
  spots: { query: string; top: [string, number][] }[];
}

function readDataset(name: string): { tools: ToolDescriptor[]; queries: RetrievalQuery[] } {
  const file = (part: string) => fileURLToPath(new URL(`${name}/${part}.jsonl`, datasets));
  return {
    tools: parseToolsJsonl(readFileSync(file('tools'), 'utf8'), { file: file('tools') }),
    queries: parseQueriesJsonl(readFileSync(file('queries'), 'utf8'), { file: file('queries') }),
  };
}

/** The catalogs checked: each dataset on its own, and all of them in one catalog with every query. */
function catalogs(): { name: string; tools: ToolDescriptor[]; queries: string[] }[] {
  const sets = DATASETS.map((name) => ({ name, ...readDataset(name) }));
  return [
    ...sets.map((set) => ({ name: set.name, tools: set.tools, queries: set.queries.map((query) => query.query) })),
    {
      name: 'all',
      tools: sets.flatMap((set) => set.tools),
      queries: sets.flatMap((set) => set.queries.map((query) => query.query)),
    },
  ];
}

const idsHash = (hits: readonly SearchHit[]) =>
  createHash('sha1')
    .update(hits.map((hit) => hit.id).join('\n'))
    .digest('hex')
    .slice(0, 12);

/** A score as recorded: to 12 decimals, well inside the tolerance. */
const round = (score: number) => Number(score.toFixed(12));

/** Today's rankings of a catalog's queries, recorded as in {@link Golden}. */
async function record(index: ToolIndex, queries: readonly string[]): Promise<Golden> {
  const golden: Golden = { ids: [], scores: [], spots: [] };
  const spotEvery = Math.max(1, Math.floor(queries.length / SPOT_CHECKS));
  for (let q = 0; q < queries.length; q++) {
    const hits = await index.search(queries[q]!, { limit: 10, minScore: 0 });
    golden.ids.push(idsHash(hits));
    golden.scores.push(round(hits.reduce((sum, hit) => sum + hit.score, 0)));
    if (q % spotEvery === 0 && golden.spots.length < SPOT_CHECKS) {
      golden.spots.push({ query: queries[q]!, top: hits.map((hit) => [hit.id, round(hit.score)]) });
    }
  }
  return golden;
}

describe.skipIf(!haveDatasets)('golden rankings: every dataset query ranks as recorded', () => {
  const saved: Record<string, SavedGolden> = update ? {} : JSON.parse(readFileSync(goldenFile, 'utf8'));

  for (const { name, tools, queries } of haveDatasets ? catalogs() : []) {
    it(`${name}: ${queries.length} queries, top 10 of a built index and of it saved and loaded (binary)`, async () => {
      const catalog = new ToolCatalog(tools);
      const built = new ToolIndex(catalog);
      const actual = await record(built, queries);
      if (update) {
        saved[name] = { ids: actual.ids.join(' '), scores: actual.scores.join(' '), spots: actual.spots };
        writeFileSync(goldenFile, `${JSON.stringify(saved, null, 2)}\n`);
        return;
      }
      const { ids, scores, spots } = saved[name]!;
      const expected: Golden = { ids: ids.split(' '), scores: scores.split(' ').map(Number), spots };
      expect(expected.ids).toHaveLength(queries.length);
      for (const spot of expected.spots) {
        const hits = await built.search(spot.query, { limit: 10, minScore: 0 });
        expect(hits.map((hit) => hit.id)).toEqual(spot.top.map(([id]) => id));
        for (const [i, hit] of hits.entries()) expect(hit.score).toBeCloseTo(spot.top[i]![1], 9);
      }
      const changed = queries.filter((_, q) => actual.ids[q] !== expected.ids[q]);
      expect(changed.slice(0, 5), `${changed.length} queries rank other tools`).toEqual([]);
      const scored = queries.filter((_, q) => Math.abs(actual.scores[q]! - expected.scores[q]!) > SCORE_TOLERANCE);
      expect(scored.slice(0, 5), `${scored.length} queries' top-10 scores changed`).toEqual([]);

      const loaded = ToolIndex.fromBinary(catalog, built.toBinary());
      const again = await record(loaded, queries);
      expect(again.ids).toEqual(expected.ids);
      expect(again.scores).toEqual(actual.scores); // (to the bit: a loaded index ranks like the saved one)
    }, 120_000);
  }
});

if (!haveDatasets) {
  const reason = `golden rankings skipped: ${fileURLToPath(datasets)} is absent (shared/ must sit beside the repository)`;
  console.info(reason);
  it.skip(reason, () => {});
}
