import { describe, expect, it } from 'vitest';
import { loadDataset } from './datasets.js';
import { askedAgainTable, feedbackPairs, feedbackTable, runFeedback } from './feedback.js';
import { seededRandom } from './stats.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

describe('feedback bench', () => {
  const dataset = loadDataset(FIXTURE_DIR);
  const ids = dataset.tools.map((tool) => tool.id);

  it('feeds every relevant tool of a query, a seeded share replaced by a tool the query does not need', () => {
    const right = feedbackPairs(dataset.queries, ids, 0, seededRandom(1));
    expect(right.length).toBe(dataset.queries.reduce((n, q) => n + q.relevant.length, 0));
    expect(right.every((pair) => !pair.wrong)).toBe(true);
    const wrong = feedbackPairs(dataset.queries, ids, 1, seededRandom(1));
    for (const [i, pair] of wrong.entries()) {
      const query = dataset.queries.find((q) => q.query === pair.query)!;
      expect(pair.wrong).toBe(true);
      expect(query.relevant).not.toContain(pair.toolId);
      expect(ids).toContain(pair.toolId);
      expect(pair.query).toBe(right[i]!.query);
    }
    expect(feedbackPairs(dataset.queries, ids, 1, seededRandom(1))).toEqual(wrong); // deterministic
  });

  it('scores the other half with and without feedback, the same on every run', async () => {
    const first = await runFeedback([dataset], { seed: 3 });
    const [result] = first.datasets;
    expect(result?.variants.map((v) => v.name)).toEqual(['none', 'feedback', 'feedback, 20 % wrong', 'all wrong']);
    expect(result!.fedQueries + result!.scoredQueries).toBe(dataset.queries.length);
    expect(result!.variants[0]!.fed).toBe(0);
    expect(result!.variants[3]!.wrong).toBe(result!.variants[3]!.fed);
    expect(await runFeedback([dataset], { seed: 3 })).toEqual(first);
    expect(feedbackTable(first)).toContain('| tiny');
    expect(result!.askedAgain.feedback.ndcg10).toBeGreaterThanOrEqual(result!.askedAgain.none.ndcg10);
    expect(askedAgainTable(first)).toMatch(/\| tiny +\| +\d+ \|/);
    await expect(runFeedback([dataset], { wrongShare: 2 })).rejects.toThrow(/wrong share must be in \[0, 1\]/);
  });
});
