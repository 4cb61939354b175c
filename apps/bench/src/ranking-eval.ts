// Ranking quality on every dataset under ../shared/datasets: toolscout's keyword index against a
// plain BM25 floor (the datasets' README). Run: pnpm --filter @toolscout/bench eval [options]
//
//   --datasets toolbench,sealtools   only these folders
//   --min-score 0.1                  the index's minScore (default: the index's own default)
//   --ranking '{"k1":1.5}'           override ranking parameters (experiments only)
//   --splits                         also print NDCG@10 per split
//   --no-baseline                    skip the BM25 floor
import { pathToFileURL } from 'node:url';
import { type RankingOverrides, ToolCatalog, ToolIndex } from '@toolscout/core';
import { type Dataset, type DatasetQuery, listDatasets, loadDataset } from './datasets.js';
import { createBm25Ranker } from './engines/bm25.js';
import { evaluate, METRIC_COLUMNS, type MetricValues } from './metrics.js';

/** How deep each system ranks (MRR looks at the whole ranking; the other metrics at the top 10). */
const DEPTH = 100;

function parseArgs(argv: readonly string[]) {
  const args = { datasets: undefined as string[] | undefined, minScore: undefined as number | undefined };
  const out = { ...args, ranking: undefined as RankingOverrides | undefined, splits: false, baseline: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--datasets') out.datasets = value().split(',');
    else if (arg === '--min-score') out.minScore = Number(value());
    else if (arg === '--ranking') out.ranking = JSON.parse(value()) as RankingOverrides;
    else if (arg === '--splits') out.splits = true;
    else if (arg === '--no-baseline') out.baseline = false;
    else throw new Error(`Unknown option ${arg}`);
  }
  return out;
}

/**
 * The README's floor: Okapi BM25 (k1 1.2, b 0.75) over one text per tool (name, description, tags,
 * source, parameter names and descriptions), words split at camelCase and snake_case, lower-cased,
 * no stemming and no stop words.
 */
export function baselineRankings(dataset: Dataset): string[][] {
  const rank = createBm25Ranker(dataset.tools);
  return dataset.queries.map((query) => rank(query.query, DEPTH));
}

async function toolscoutRankings(
  dataset: Dataset,
  options: { minScore?: number; ranking?: RankingOverrides },
): Promise<{ rankings: string[][]; buildMs: number; searchMs: number }> {
  const started = performance.now();
  const catalog = new ToolCatalog(dataset.tools);
  const index = new ToolIndex(catalog, {
    ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
    ...(options.ranking !== undefined ? { ranking: options.ranking } : {}),
  });
  const buildMs = performance.now() - started;
  const searchStarted = performance.now();
  const rankings: string[][] = [];
  for (const query of dataset.queries) {
    const hits = await index.search(query.query, { limit: DEPTH });
    rankings.push(hits.map((hit) => hit.id));
  }
  return { rankings, buildMs, searchMs: performance.now() - searchStarted };
}

function formatRow(label: string, values: MetricValues, widths: number[]): string {
  const cells = [label, ...METRIC_COLUMNS.map(({ key }) => values[key].toFixed(1))];
  return `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
}

function printTable(rows: { label: string; values: MetricValues }[]): void {
  const headers = ['set / system', ...METRIC_COLUMNS.map(({ label }) => label)];
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...(i === 0 ? rows.map((row) => row.label.length) : [5])),
  );
  console.log(`| ${headers.map((header, i) => header.padEnd(widths[i]!)).join(' | ')} |`);
  console.log(
    `|${widths.map((width, i) => (i === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
  );
  for (const row of rows) console.log(formatRow(row.label, row.values, widths));
}

function bySplit(queries: readonly DatasetQuery[], rankings: readonly string[][]): string {
  const groups = new Map<string, number[]>();
  queries.forEach((query, i) => {
    const list = groups.get(query.split) ?? [];
    list.push(i);
    groups.set(query.split, list);
  });
  return [...groups]
    .map(([split, indexes]) => {
      const m = evaluate(
        indexes.map((i) => rankings[i]!),
        indexes.map((i) => queries[i]!),
      );
      return `${split} ${m.ndcg10.toFixed(1)}`;
    })
    .join(', ');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const names = args.datasets ?? listDatasets();
  const rows: { label: string; values: MetricValues }[] = [];
  for (const name of names) {
    const dataset = loadDataset(name);
    const result = await toolscoutRankings(dataset, args);
    const values = evaluate(result.rankings, dataset.queries);
    rows.push({ label: `${name} / toolscout keyword`, values });
    console.error(
      `${name}: ${dataset.tools.length} tools, ${dataset.queries.length} queries; build ${result.buildMs.toFixed(0)} ms, ` +
        `search ${(result.searchMs / dataset.queries.length).toFixed(2)} ms/query`,
    );
    if (args.splits) console.error(`  toolscout NDCG@10 by split: ${bySplit(dataset.queries, result.rankings)}`);
    if (args.baseline) {
      const baseline = baselineRankings(dataset);
      rows.push({ label: `${name} / BM25 floor (all fields)`, values: evaluate(baseline, dataset.queries) });
      if (args.splits) console.error(`  BM25 NDCG@10 by split: ${bySplit(dataset.queries, baseline)}`);
    }
  }
  printTable(rows);
}

// Run when executed, not when imported (the tests import the helpers).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
