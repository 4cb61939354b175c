import { describe, expect, it } from 'vitest';
import type { PerfResult } from './perf.js';
import type { QualityResult } from './quality.js';
import { type BenchResults, checks, perfTable, tokensTables } from './report.js';
import type { TokenResult } from './tokens.js';

const m = (ndcg10: number) => ({ r1: 0, r5: 0, r10: 0, ndcg10, mrr: 0, complete10: 0, queryP50Ms: 1 });
const quality = (toolscout: number): QualityResult[] => [
  {
    dataset: 'toolbench',
    tools: 3,
    queries: 2,
    engines: { toolscout: m(toolscout), mastra: m(56), 'ai-sdk': m(14), bm25: m(58) },
  },
];
const figures = (buildMs: number, searchP50Ms: number) => ({
  timedOut: false as const,
  buildMs,
  searchP50Ms,
  searchP99Ms: searchP50Ms * 2,
  heapMB: 10,
});
const perf = (toolscoutP50: number, toolscoutBuild: number): PerfResult[] => [
  {
    tools: 10_000,
    engines: { toolscout: figures(toolscoutBuild, toolscoutP50), mastra: figures(1000, 20) },
    ratios: { buildMs: 1000 / toolscoutBuild, searchP50Ms: 20 / toolscoutP50, searchP99Ms: 1, heapMB: 1 },
  },
  {
    tools: 100_000,
    engines: { toolscout: figures(9000, 5), mastra: { timedOut: true, timeoutMs: 120_000, during: 'build' } },
  },
];
const tokens = (meta: number): TokenResult[] => [
  {
    dataset: 'toolbench',
    tools: 3,
    direct: 1000,
    sampledQueries: 2,
    modes: {
      'search-load': { metaTools: meta, withFiveLoaded: 700, searchResult: 200 },
      'auto-load': { metaTools: 90, withFiveLoaded: 600, searchResult: 400 },
      catalog: { metaTools: 900, withFiveLoaded: 950, searchResult: null },
      proxy: { metaTools: 250, withFiveLoaded: 250, searchResult: 200 },
    },
  },
];

describe('checks', () => {
  it('holds when the figures bear the claims out', () => {
    const results: BenchResults = { quality: quality(68), perf: perf(1.5, 900), tokens: tokens(197) };
    expect(checks(results).map((check) => [check.claim, check.holds])).toEqual([
      ["toolbench: toolscout's NDCG@10 ahead of mastra, ai-sdk and bm25", true],
      ["10,000 tools: toolscout's search p50 at least 10× lower than mastra's", true],
      ["10,000 tools: toolscout's build time no higher than mastra's", true],
      ['100,000 tools: toolscout builds and searches', true],
      ["toolbench: in search-load mode the meta-tools' definitions cost at most 300 tokens", true],
    ]);
  });

  it('says which claims fail, with the figures', () => {
    const results: BenchResults = { quality: quality(57), perf: perf(2.5, 1200), tokens: tokens(301) };
    const list = checks(results);
    expect(list.map((check) => check.holds)).toEqual([false, false, false, true, false]);
    expect(list[0]!.detail).toBe('toolscout 57.0; mastra 56.0, ai-sdk 14.0, bm25 58.0');
    expect(list[1]!.detail).toBe('toolscout 2.50 ms, mastra 20.00 ms (8.00×)');
  });

  it('counts a 100,000-tool run stopped while serialising as built and searched, and says so', () => {
    const results: BenchResults = { quality: [], perf: perf(1.5, 900), tokens: [] };
    results.perf[1]!.engines.toolscout = {
      timedOut: true,
      timeoutMs: 120_000,
      during: 'serialisation',
      buildMs: 40_000,
      heapMB: 400,
      searchP50Ms: 30,
      searchP99Ms: 90,
    };
    const check = checks(results).find((entry) => entry.claim.startsWith('100,000'))!;
    expect(check.holds).toBe(true);
    expect(check.detail).toBe(
      "build 40,000 ms, search p50 30.00 ms, p99 90.00 ms; the saved index's round trip did not finish within 120 s",
    );
    results.perf[1]!.engines.toolscout = {
      timedOut: true,
      timeoutMs: 120_000,
      during: 'search',
      buildMs: 40_000,
      heapMB: 400,
    };
    expect(checks(results).find((entry) => entry.claim.startsWith('100,000'))).toMatchObject({
      holds: false,
      detail: '40,000, timed out while searching (> 120 s), 400.0',
    });
  });

  it('reports claims whose figures were not measured as such', () => {
    const list = checks({ quality: [], perf: [], tokens: [] });
    expect(list.map((check) => check.holds)).toEqual([null, null, null]);
  });
});

describe('tables', () => {
  it('perf: a row per engine, a timed-out engine, and the ratios row', () => {
    const table = perfTable(perf(1.5, 900)).replace(/ +/g, ' ');
    expect(table).toContain('| 10,000 | toolscout | 900 | 1.50 | 3.00 | 10.0 | – | – |');
    expect(table).toContain('| 10,000 | _mastra ÷ toolscout_ | 1.11× | 13.3× | 1.00× | 1.00× | | |');
    expect(table).toContain('| 100,000 | mastra | timed out while building (> 120 s) | – | – | – | – | – |');
  });

  it('pads columns as Biome formats markdown tables', () => {
    const lines = perfTable(perf(1.5, 900)).split('\n');
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
    expect(lines[1]).toMatch(/^\| -+: \| -+ \| -+: \|/);
  });

  it('tokens: the direct cost in the heading and each mode', () => {
    const table = tokensTables(tokens(197)).replace(/ +/g, ' ');
    expect(table).toContain('every definition offered directly = 1,000 tokens per step');
    expect(table).toContain('| search-load | 197 | 700 | 70.00 % | 200 |');
    expect(table).toContain('| catalog | 900 | 950 | 95.00 % | – (no search tool) |');
  });
});
