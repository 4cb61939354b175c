import { type Embedder, InMemoryEmbeddingCache } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { hybridLine, measureHybrid } from './perf-hybrid.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

/** A deterministic embedder that takes a little time per call: letter counts, after a 2 ms wait. */
const slowLetters: Embedder = {
  id: 'letters-test',
  async embed(texts) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    return texts.map((text) => {
      const vector = new Array<number>(26).fill(0.01);
      for (const char of text.toLowerCase()) {
        const at = char.charCodeAt(0) - 97;
        if (at >= 0 && at < 26) vector[at]! += 1;
      }
      return vector;
    });
  },
};

describe('measureHybrid', () => {
  it("reports the embedder's share of a search and spares it on repeated queries (query cache)", async () => {
    const figures = await measureHybrid({
      datasets: [FIXTURE_DIR],
      size: 50,
      queries: 7,
      embedder: slowLetters,
      cache: new InMemoryEmbeddingCache(),
    });
    expect(figures).toMatchObject({ tools: 50, embedder: 'letters-test', repeatEmbedCalls: 0 });
    expect(figures.queries).toBeGreaterThan(0);
    // Timings are not asserted (they are the bench's job); only what holds on any machine: the
    // embedder took some time, a search's time contains its embedding, and repeats skip it.
    expect(figures.embedP50Ms).toBeGreaterThan(0);
    expect(figures.embedShare).toBeGreaterThan(0);
    expect(figures.embedShare).toBeLessThanOrEqual(1);
    expect(figures.searchP50Ms).toBeGreaterThanOrEqual(figures.embedP50Ms);
    expect(hybridLine(figures)).toMatch(/of which the embedder \d+%.*0 embedder calls \(query cache\)/);
  });
});
