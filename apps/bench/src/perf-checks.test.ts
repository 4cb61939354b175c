import { describe, expect, it } from 'vitest';
import type { PerfResult } from './perf.js';
import { speedChecks } from './perf-checks.js';

const figures = (overrides: Record<string, number> = {}) => ({
  timedOut: false as const,
  buildMs: 400,
  searchP50Ms: 2,
  searchP99Ms: 9,
  heapMB: 35,
  indexMB: 1.4,
  loadMs: 70,
  coldStartMs: 360,
  coldBuildMs: 600,
  nodeStartMs: 32,
  ...overrides,
});

describe('speedChecks', () => {
  it("checks each of the issue's goals against the figures, with the figures behind the verdict", () => {
    const results: PerfResult[] = [
      { tools: 10_000, engines: { toolscout: figures(), mastra: figures({ buildMs: 1000 }) } },
      {
        tools: 100_000,
        engines: { toolscout: figures({ buildMs: 2500, searchP50Ms: 4, searchP99Ms: 30, loadMs: 200, heapMB: 190 }) },
      },
    ];
    const list = speedChecks(results);
    expect(list.map((check) => [check.claim.slice(0, 40), check.holds])).toEqual([
      ["100,000 tools: toolscout's search p50 at", false],
      ['10,000 tools: the saved index loads at l', false],
      ['100,000 tools: the saved index loads at ', true],
      ["10,000 tools: a fresh process's first an", false],
      ['10,000 tools: toolscout builds at least ', true],
      ["100,000 tools: toolscout's heap after th", false],
    ]);
    expect(list[0]!.detail).toBe('p50 4.00 ms, p99 30.00 ms');
    expect(list[1]!.detail).toBe('load 70 ms, build 400 ms (5.7×); 1.40 MB');
    expect(list[3]!.detail).toBe('load 360 ms, build 600 ms (Node alone 32 ms)');
    expect(list[4]!.detail).toBe('toolscout 400 ms, mastra 1,000 ms (2.50×)');
  });

  it('says "not measured" where a figure is missing, and an engine that failed has none', () => {
    const results: PerfResult[] = [{ tools: 10_000, engines: { toolscout: { timedOut: false, error: 'crashed' } } }];
    for (const check of speedChecks(results)) expect(check).toMatchObject({ holds: null, detail: 'not measured' });
  });
});
