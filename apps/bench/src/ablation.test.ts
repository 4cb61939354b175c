import { ToolCatalog, ToolIndex } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { ABLATION_COMPONENTS, ablationTable, runAblation } from './ablation.js';
import { loadDataset } from './datasets.js';
import { evaluate } from './metrics.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

const dataset = loadDataset(FIXTURE_DIR);

/** NDCG@10 of toolscout's keyword index on the fixture with the given ranking overrides. */
async function ndcg(ranking: object): Promise<number> {
  const index = new ToolIndex(new ToolCatalog(dataset.tools), { ranking });
  const rankings = await Promise.all(
    dataset.queries.map(async (query) => (await index.search(query.query, { limit: 10 })).map((hit) => hit.id)),
  );
  return Number(evaluate(rankings, dataset.queries).ndcg10.toFixed(2));
}

describe('runAblation', () => {
  it('scores the default ranking and each component switched off, on each dataset', async () => {
    const components = ABLATION_COMPONENTS.filter((c) => c.name === 'name field' || c.name === 'description field');
    const [result] = await runAblation([dataset], { components });
    expect(result!.dataset).toBe(dataset.name);
    expect(result!.full.ndcg10).toBe(await ndcg({}));
    expect(Object.keys(result!.without)).toEqual(['name field', 'description field']);
    expect(result!.without['name field']!.ndcg10).toBe(await ndcg({ fieldWeights: { name: 0 } }));
  });

  it('switches each component off through a ranking setting the index accepts', () => {
    const catalog = new ToolCatalog(dataset.tools);
    for (const component of ABLATION_COMPONENTS) {
      expect(() => new ToolIndex(catalog, { ranking: component.off }).dispose(), component.name).not.toThrow();
    }
  });

  it('prints a markdown table of the gain per dataset, signed', () => {
    const figures = { ndcg10: 90, r1: 80, r5: 95, mrr: 85 };
    const table = ablationTable([
      { dataset: 'a', full: figures, without: { phrases: { ...figures, ndcg10: 88.5, r1: 80.4 } } },
    ]);
    expect(table).toContain('| component off');
    expect(table).toContain('a NDCG@10');
    expect(table).toMatch(/\| phrases +\| +88\.5 \(\+1\.5\) \| +80\.4 \(-0\.4\) \|/);
  });
});
