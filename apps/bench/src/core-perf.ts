// Core performance at 10,000 tools: index build time, search latency (long requests and short
// keyword queries), heap growth, serialised size and load time, incremental updates. The catalog is
// the one `bench perf` generates; the queries are real dataset queries.
//
//   node --expose-gc apps/bench/dist/core-perf.js [--tools 10000] [--queries 300] [--json]
import { pathToFileURL } from 'node:url';
import { ToolCatalog, ToolIndex } from '@toolscout/core';
import { listDatasets, loadDataset } from './datasets.js';
import { poolTools, syntheticCatalog } from './synthetic-catalog.js';

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

function parseArgs(argv: readonly string[]): { tools: number; queries: number; json: boolean } {
  const out = { tools: 10_000, queries: 300, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--tools') out.tools = Number(argv[++i]);
    else if (arg === '--queries') out.queries = Number(argv[++i]);
    else if (arg === '--json') out.json = true;
    else throw new Error(`Unknown option ${arg}`);
  }
  if (!(out.tools >= 1) || !(out.queries >= 1)) throw new Error('--tools and --queries must be positive numbers.');
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if ((globalThis as { gc?: () => void }).gc === undefined) {
    console.error('note: run with node --expose-gc for exact heap figures');
  }
  const datasets = listDatasets().map((name) => loadDataset(name));
  // The catalog `bench perf` measures (the datasets' real tools, then variants of them).
  const tools = syntheticCatalog(poolTools(datasets), args.tools);
  // The same queries every run, evenly spread over each dataset's queries: the requests as written
  // (long, 40-50 words on average), and short keyword queries (the name of a tool each one needs).
  const perSet = Math.ceil(args.queries / datasets.length);
  const sample = datasets.flatMap((dataset) =>
    Array.from({ length: Math.min(perSet, dataset.queries.length) }, (_, i) => ({
      dataset,
      query: dataset.queries[Math.floor((i * dataset.queries.length) / perSet)]!,
    })),
  );
  const queries = sample.map(({ query }) => query.query);
  const shortQueries = sample.map(({ dataset, query }) => {
    const tool = dataset.tools.find((candidate) => candidate.id === query.relevant[0]);
    return tool?.name ?? query.relevant[0]!;
  });

  const catalog = new ToolCatalog(tools);
  const heapBefore = heapUsed();
  const buildStarted = performance.now();
  const index = new ToolIndex(catalog);
  const buildMs = performance.now() - buildStarted;
  const heapAfter = heapUsed();

  const time = async (list: readonly string[]) => {
    for (const query of list.slice(0, 20)) await index.search(query); // warm-up
    const latencies: number[] = [];
    for (const query of list) {
      const started = performance.now();
      await index.search(query);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    return {
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      p99: percentile(latencies, 0.99),
      mean: latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length,
    };
  };
  const longSearch = await time(queries);
  const shortSearch = await time(shortQueries);

  const serialiseStarted = performance.now();
  const json = JSON.stringify(index.toJSON());
  const serialiseMs = performance.now() - serialiseStarted;
  const loadStarted = performance.now();
  const loaded = ToolIndex.fromJSON(catalog, json);
  const loadMs = performance.now() - loadStarted;
  // The loaded index ranks every query exactly as the index it was saved from (ids, scores to the bit).
  for (const query of [...queries, ...shortQueries]) {
    const [a, b] = [await index.search(query), await loaded.search(query)];
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`The loaded index ranks "${query}" differently.`);
  }
  loaded.dispose();

  // Incremental updates: the index follows the catalog (add, replace, remove), no rebuild.
  const updates = 200;
  const updateStarted = performance.now();
  for (let i = 0; i < updates; i++) {
    const base = tools[i]!;
    catalog.add({ ...base, id: `${base.id}#new` });
    catalog.replace({ ...base, id: `${base.id}#new`, description: `${base.description ?? ''} (updated)` });
    catalog.remove(`${base.id}#new`);
  }
  const updateMs = (performance.now() - updateStarted) / (3 * updates);

  const result = {
    tools: catalog.size,
    queries: queries.length,
    buildMs,
    searchMs: longSearch,
    shortSearchMs: shortSearch,
    heapGrowthMiB: (heapAfter - heapBefore) / 2 ** 20,
    serialisedMiB: Buffer.byteLength(json) / 2 ** 20,
    serialiseMs,
    loadMs,
    updateMs,
  };
  if (args.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
  console.log(
    `toolscout core, keyword index: ${result.tools} tools, ${result.queries} dataset requests and as many tool-name queries (limit 10)`,
  );
  console.log('| measure | value |');
  console.log('|---|---:|');
  console.log(`| index build | ${ms(buildMs)} |`);
  for (const [label, figures] of [
    ['search, dataset requests', longSearch],
    ['search, tool-name queries', shortSearch],
  ] as const) {
    console.log(
      `| ${label}: p50 / p95 / p99 / mean | ${ms(figures.p50)} / ${ms(figures.p95)} / ${ms(figures.p99)} / ${ms(figures.mean)} |`,
    );
  }
  console.log(`| heap growth (index) | ${result.heapGrowthMiB.toFixed(1)} MiB |`);
  console.log(`| serialised size (JSON) | ${result.serialisedMiB.toFixed(1)} MiB |`);
  console.log(`| toJSON + stringify | ${ms(serialiseMs)} |`);
  console.log(`| fromJSON (parse + load) | ${ms(loadMs)} |`);
  console.log(`| incremental add / replace / remove | ${ms(updateMs)} per change |`);
}

// Run when executed, not when imported (the tests import the helpers).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
