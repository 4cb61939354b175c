import { describe, expect, it } from 'vitest';
import { latencyChart, qualityChart } from './charts.js';
import type { PerfResult } from './perf.js';
import type { QualityResult } from './quality.js';

const metrics = (ndcg10: number) => ({ r1: 1, r5: 2, r10: 3, ndcg10, mrr: 4, complete10: 5, queryP50Ms: 0.5 });

const quality: QualityResult[] = [
  {
    dataset: 'alpha',
    tools: 10,
    queries: 3,
    engines: { toolscout: metrics(71.25), mastra: metrics(55), bm25: metrics(60) },
  },
  {
    dataset: 'beta',
    tools: 20,
    queries: 4,
    engines: { toolscout: metrics(90), mastra: metrics(70), bm25: metrics(80) },
  },
];

const perf: PerfResult[] = [
  {
    tools: 1000,
    engines: {
      toolscout: { timedOut: false, buildMs: 100, searchP50Ms: 0.5, searchP99Ms: 2, heapMB: 5 },
      mastra: { timedOut: false, buildMs: 50, searchP50Ms: 5, searchP99Ms: 9, heapMB: 3 },
    },
  },
  {
    tools: 100000,
    engines: {
      toolscout: { timedOut: false, buildMs: 9000, searchP50Ms: 20, searchP99Ms: 80, heapMB: 500 },
      mastra: { timedOut: true, timeoutMs: 120000, during: 'build' },
    },
  },
];

/** Checks that every opened element is closed, in order (the SVG is well-formed XML). */
function expectWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const match of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    if (selfClosing) continue;
    if (closing) expect(stack.pop()).toBe(name);
    else stack.push(name!);
  }
  expect(stack).toEqual([]);
}

describe('charts', () => {
  it('quality: one SVG with a bar and a value label per engine and dataset', async () => {
    const svg = await qualityChart(quality);
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*width="[\d.]+" height="[\d.]+"/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expectWellFormed(svg);
    expect(svg.match(/aria-roledescription="bar"/g)).toHaveLength(6);
    expect(svg.match(/aria-roledescription="text mark"/g)).toHaveLength(6);
    expect(svg).toContain('71.3');
    expect(svg).toContain('alpha (10 tools)');
    expect(svg).toContain('Ranking quality: NDCG@10');
    for (const engine of ['toolscout', 'mastra', 'bm25']) expect(svg).toContain(`>${engine}<`);
  });

  it('latency: log-scale axes, timed-out runs left out', async () => {
    const svg = await latencyChart(perf);
    expect(svg.startsWith('<svg')).toBe(true);
    expectWellFormed(svg);
    expect(svg).toContain('100,000');
    expect(svg).toContain('ms per search');
    expect(svg).toContain('>p99<');
    expect(svg).toContain('Not plotted: mastra timed out (&gt; 120 s) at 100,000 tools');
  });
});
