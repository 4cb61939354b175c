// Ablation: toolscout's keyword ranking on each dataset with one ranking component switched off at a
// time, so that each component's gain can be read per dataset (a component that helps one dataset
// only is suspect: it may not carry over to catalogs nobody tuned for).
import { type RankingOverrides, ToolCatalog, ToolIndex } from '@toolscout/core';
import type { Dataset } from './datasets.js';
import { markdownTable } from './markdown.js';
import { evaluate } from './metrics.js';
import { QUALITY_LIMIT } from './quality.js';
import { round } from './stats.js';

/** One component of the ranking and the overrides that switch it off. */
export interface AblationComponent {
  /** Short name, as in the table. */
  name: string;
  /** What it is, in a few words. */
  description: string;
  /** The ranking with this component off. */
  off: RankingOverrides;
}

/** The components measured, each switched off through the index's `ranking` option. */
export const ABLATION_COMPONENTS: readonly AblationComponent[] = [
  { name: 'name field', description: 'matches in the tool name (and id words)', off: { fieldWeights: { name: 0 } } },
  { name: 'description field', description: 'matches in the description', off: { fieldWeights: { description: 0 } } },
  { name: 'tags field', description: 'matches in the tags', off: { fieldWeights: { tags: 0 } } },
  { name: 'source field', description: 'matches in the source (server, API)', off: { fieldWeights: { source: 0 } } },
  {
    name: 'parameters field',
    description: 'matches in parameter names and descriptions',
    off: { fieldWeights: { parameters: 0 } },
  },
  { name: 'phrases', description: 'neighbouring query words side by side', off: { fieldWeights: { phrases: 0 } } },
  { name: 'action verbs', description: 'verb families (list, get, create, ...)', off: { actionWeight: 0 } },
  {
    name: 'object head',
    description: "the request's object's last word as a tool name's last word",
    off: { headWeight: 0 },
  },
  { name: 'prefix', description: 'query word as the start of an indexed word', off: { prefixWeight: 0 } },
  { name: 'typo', description: 'one or two edits for rare words', off: { fuzzyWeight: 0 } },
  { name: 'coordination', description: 'reward for matching more query words', off: { coordination: 0 } },
  { name: 'source evidence', description: "what the rest of the tool's source matches", off: { sourceWeight: 0 } },
  { name: 'clauses', description: 'best single clause of a multi-part request', off: { clauseWeight: 0 } },
  { name: 'k1, b tuned', description: 'k1 2, b 0.9 instead of BM25 defaults 1.2, 0.75', off: { k1: 1.2, b: 0.75 } },
];

/** NDCG@10, R@1, R@5 and MRR (0-100) of one ranking on one dataset. */
export interface AblationFigures {
  ndcg10: number;
  r1: number;
  r5: number;
  mrr: number;
}

/** One dataset: the default ranking's figures and those with each component off. */
export interface AblationResult {
  dataset: string;
  full: AblationFigures;
  /** By component name, in {@link ABLATION_COMPONENTS} order. */
  without: Record<string, AblationFigures>;
}

/** Scores toolscout's keyword index (top {@link QUALITY_LIMIT}) on a dataset with the given overrides. */
async function score(dataset: Dataset, ranking: RankingOverrides | undefined): Promise<AblationFigures> {
  const index = new ToolIndex(new ToolCatalog(dataset.tools), ranking === undefined ? {} : { ranking });
  try {
    const rankings: string[][] = [];
    for (const query of dataset.queries) {
      rankings.push((await index.search(query.query, { limit: QUALITY_LIMIT })).map((hit) => hit.id));
    }
    const metrics = evaluate(rankings, dataset.queries);
    return { ndcg10: round(metrics.ndcg10), r1: round(metrics.r1), r5: round(metrics.r5), mrr: round(metrics.mrr) };
  } finally {
    index.dispose();
  }
}

/** Runs the default ranking and each component switched off on every dataset. */
export async function runAblation(
  datasets: readonly Dataset[],
  options: { components?: readonly AblationComponent[]; onProgress?: (line: string) => void } = {},
): Promise<AblationResult[]> {
  const { components = ABLATION_COMPONENTS, onProgress = () => {} } = options;
  const results: AblationResult[] = [];
  for (const dataset of datasets) {
    const full = await score(dataset, undefined);
    onProgress(`ablation: ${dataset.name}: default NDCG@10 ${full.ndcg10}, R@1 ${full.r1}`);
    const without: Record<string, AblationFigures> = {};
    for (const component of components) {
      without[component.name] = await score(dataset, component.off);
      onProgress(`ablation: ${dataset.name}: without ${component.name}: NDCG@10 ${without[component.name]!.ndcg10}`);
    }
    results.push({ dataset: dataset.name, full, without });
  }
  return results;
}

/** A signed difference with one decimal (`+1.2`, `-0.3`, `0.0`). */
function gain(full: number, without: number): string {
  const value = Math.round((full - without) * 10) / 10;
  return value > 0 ? `+${value.toFixed(1)}` : value === 0 ? '0.0' : value.toFixed(1);
}

/**
 * The ablation as a markdown table: per component, the gain it brings on each dataset (default
 * minus switched off) in NDCG@10 and R@1, and the figures with it off; a first row the default's.
 */
export function ablationTable(results: readonly AblationResult[]): string {
  const headers = ['component off', ...results.flatMap((r) => [`${r.dataset} NDCG@10`, `${r.dataset} R@1`])];
  const rows = [['(none: default)', ...results.flatMap((r) => [r.full.ndcg10.toFixed(1), r.full.r1.toFixed(1)])]];
  const names = Object.keys(results[0]?.without ?? {});
  for (const name of names) {
    rows.push([
      name,
      ...results.flatMap((r) => {
        const w = r.without[name]!;
        return [
          `${w.ndcg10.toFixed(1)} (${gain(r.full.ndcg10, w.ndcg10)})`,
          `${w.r1.toFixed(1)} (${gain(r.full.r1, w.r1)})`,
        ];
      }),
    ]);
  }
  return markdownTable(headers, rows, ['l', ...headers.slice(1).map(() => 'r' as const)]);
}
