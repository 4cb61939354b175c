import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { parseToolsJsonl } from '../importers/jsonl.js';
import type { ToolDescriptor } from '../types.js';
import { ToolIndex } from './tool-index.js';

/** A deterministic pseudo-random generator (mulberry32), so the catalog is the same every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Words that share prefixes at every length (`ge`, `get`, `gen`, `getter`...), so that the
 * vocabulary's radix tree splits its edges as terms come, and a prefix or a typo matches many terms.
 */
function words(next: () => number, count: number): string[] {
  const stems = ['ge', 'se', 'pro', 'con', 'tra', 'de', 're', 'in', 'ma', 'pa'];
  const middles = ['t', 'n', 'rv', 'ss', 'nd', 'ck', 'mp', 'ft', 'l', 'gr'];
  const ends = ['', 'er', 'ing', 'ion', 'ory', 'al', 'ant', 'ize', 'ure', 'ist'];
  const pick = (list: string[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, () => `${pick(stems)}${pick(middles)}${pick(ends)}${pick(['', 'a', 'o'])}`);
}

function syntheticTools(count: number): ToolDescriptor[] {
  const next = random(7);
  return Array.from({ length: count }, (_, i) => {
    const [a, b, c] = words(next, 3);
    return {
      id: `tool_${i}_${a}_${b}`,
      name: `${a} ${b}`,
      description: `${words(next, 8).join(' ')}. ${c} ${words(next, 4).join(' ')}.`,
      tags: words(next, 2),
    };
  });
}

/** Queries of every kind the scorer treats apart: exact words, prefixes, typos, pairs, sentences. */
function queriesFor(tools: readonly ToolDescriptor[]): string[] {
  const next = random(11);
  const text = tools.map((tool) => `${tool.name ?? ''} ${tool.description ?? ''}`).join(' ');
  const vocabulary = [...new Set(text.split(/[^a-z]+/).filter((word) => word.length > 1))];
  const pick = () => vocabulary[Math.floor(next() * vocabulary.length)]!;
  return Array.from({ length: 150 }, (_, i) => {
    const word = pick();
    switch (i % 5) {
      case 0:
        return word.slice(0, Math.max(2, word.length - 3)); // a prefix
      case 1:
        return `${word.slice(0, -1)}x${pick()}`; // a typo
      case 2:
        return `${pick()} ${pick()}`;
      case 3:
        return `Please ${pick()} the ${pick()} with ${pick()}, then ${pick()} it. And ${pick()} ${pick()}?`;
      default:
        return tools[Math.floor(next() * tools.length)]!.id;
    }
  });
}

/** Searches each query on both indexes; returns the queries whose hits (ids, scores, matches) differ. */
async function differences(a: ToolIndex, b: ToolIndex, queries: readonly string[]): Promise<string[]> {
  const differ: string[] = [];
  for (const query of queries) {
    const options = { limit: 20, minScore: 0 };
    const [left, right] = [await a.search(query, options), await b.search(query, options)];
    if (JSON.stringify(left) !== JSON.stringify(right)) differ.push(query);
  }
  return differ;
}

/**
 * Saves `index` before any search, after searches, and after catalog changes, and checks that
 * each loaded index ranks every query exactly as `index` (same ids, same scores to the last bit).
 */
async function expectLoadedRanksAlike(catalog: ToolCatalog, queries: readonly string[]): Promise<void> {
  const index = new ToolIndex(catalog);
  const saved = JSON.stringify(index.toJSON());
  const unsearched = ToolIndex.fromJSON(catalog, saved);
  expect(await differences(index, unsearched, queries)).toEqual([]);
  // The vocabulary tree is built by the first prefix or typo lookup: save after it (the same JSON).
  expect(JSON.stringify(index.toJSON())).toBe(saved);
  const searched = ToolIndex.fromJSON(catalog, saved);
  expect(await differences(index, searched, queries)).toEqual([]);
  // After updates, the tree and the vocabulary have each followed the catalog.
  const tools = catalog.list();
  for (const tool of tools.slice(0, 40)) catalog.remove(tool.id);
  for (const tool of tools.slice(0, 20)) catalog.add({ ...tool, tags: [...(tool.tags ?? []), 'readded'] });
  const updated = ToolIndex.fromJSON(catalog, JSON.stringify(index.toJSON()));
  expect(await differences(index, updated, queries)).toEqual([]);
  // And a loaded index saved again ranks alike too.
  await differences(updated, updated, queries);
  const again = ToolIndex.fromJSON(catalog, JSON.stringify(updated.toJSON()));
  expect(await differences(index, again, queries)).toEqual([]);
  for (const each of [index, unsearched, searched, updated, again]) each.dispose();
}

describe('a saved index ranks exactly like the index it was saved from', () => {
  it('on a catalog whose words share prefixes, before and after searches and updates', async () => {
    const tools = syntheticTools(1500);
    await expectLoadedRanksAlike(new ToolCatalog(tools), queriesFor(tools));
  });

  const toolbench = fileURLToPath(new URL('../../../../../shared/datasets/toolbench/tools.jsonl', import.meta.url));
  if (!existsSync(toolbench))
    console.info(
      `saved index on the toolbench catalog skipped: ${toolbench} is absent (shared/ must sit beside the repository)`,
    );
  it.skipIf(!existsSync(toolbench))('on the toolbench catalog and its queries', async () => {
    const tools = parseToolsJsonl(readFileSync(toolbench, 'utf8'));
    const queriesFile = toolbench.replace(/tools\.jsonl$/, 'queries.jsonl');
    const queries = readFileSync(queriesFile, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(0, 200)
      .map((line) => (JSON.parse(line) as { query: string }).query);
    await expectLoadedRanksAlike(new ToolCatalog(tools), [...queries, ...queriesFor(tools).slice(0, 50)]);
  });
});
