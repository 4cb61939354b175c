import { describe, expect, it } from 'vitest';
import { loadDataset } from './datasets.js';
import { percentile, seededRandom, shuffled } from './stats.js';
import { poolTools, sampleQueries, syntheticCatalog } from './synthetic-catalog.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

const dataset = loadDataset(FIXTURE_DIR);

describe('syntheticCatalog', () => {
  it('samples real tools up to their number', () => {
    const tools = syntheticCatalog(dataset.tools, 5, 7);
    expect(tools).toHaveLength(5);
    for (const tool of tools) expect(dataset.tools).toContain(tool);
  });

  it('varies real tools beyond it: unique ids, a qualified name, a description mixed with another tool', () => {
    const tools = syntheticCatalog(dataset.tools, 100, 7);
    expect(tools).toHaveLength(100);
    expect(new Set(tools.map((tool) => tool.id)).size).toBe(100);
    const variant = tools.find((tool) => tool.id === 'getStockQuote~3')!;
    expect(variant.name).toMatch(/^getStockQuote \w+$/);
    expect(variant.description!.startsWith('Latest price quote of a stock by its ticker symbol.')).toBe(true);
    expect(variant.inputSchema).toEqual(dataset.tools.find((tool) => tool.id === 'getStockQuote')!.inputSchema);
    expect(variant.source).toBe('markets');
  });

  it('is the same for the same seed, and differs for another', () => {
    const ids = (seed: number) =>
      syntheticCatalog(dataset.tools, 40, seed).map((tool) => `${tool.id} ${tool.name} ${tool.description}`);
    expect(ids(1)).toEqual(ids(1));
    expect(ids(1)).not.toEqual(ids(2));
  });

  it('rejects a size that is not a positive integer, and an empty pool', () => {
    expect(() => syntheticCatalog(dataset.tools, 0)).toThrow('A catalog size must be a positive integer, got 0.');
    expect(() => syntheticCatalog([], 10)).toThrow('Cannot make a catalog from no tools.');
  });
});

describe('sampleQueries and poolTools', () => {
  it('takes a fixed sample of the queries, deterministic for a seed', () => {
    const sample = sampleQueries([dataset], 4, 9);
    expect(sample).toHaveLength(4);
    expect(sample).toEqual(sampleQueries([dataset], 4, 9));
    for (const query of sample) expect(dataset.queries.map((q) => q.query)).toContain(query);
    expect(sampleQueries([dataset], 50, 9)).toHaveLength(dataset.queries.length);
  });

  it('keeps each tool id once across datasets', () => {
    expect(poolTools([dataset, dataset])).toHaveLength(dataset.tools.length);
  });
});

describe('stats', () => {
  it('nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([3], 0.99)).toBe(3);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('a seeded shuffle is a permutation', () => {
    const items = [1, 2, 3, 4, 5, 6];
    expect(shuffled(items, seededRandom(1)).sort()).toEqual(items);
  });
});
