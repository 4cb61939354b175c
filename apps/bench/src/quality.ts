// Ranking quality: every engine ranks each dataset's catalog for its queries, scored as the datasets'
// README defines (metrics.ts).
import type { Dataset, DatasetQuery } from './datasets.js';
import {
  ENGINE_NAMES,
  type EngineIndex,
  type EngineName,
  EngineUnavailableError,
  engineByName,
  type RankingEngine,
} from './engines/index.js';
import { evaluate, type MetricValues } from './metrics.js';
import { median, round } from './stats.js';

/** How many tools every engine returns per query. */
export const QUALITY_LIMIT = 10;

/** One engine on one dataset: the metrics (0-100) and the median search latency. */
export interface EngineQuality extends MetricValues {
  /** Median milliseconds per query (the engine's search alone, index built). */
  queryP50Ms: number;
}

/** Every engine on one dataset. */
export interface QualityResult {
  /** The dataset folder's name. */
  dataset: string;
  /** Tools in its catalog. */
  tools: number;
  /** Judged queries. */
  queries: number;
  /** By engine name; an engine that could not run is in `skipped` instead. */
  engines: Partial<Record<EngineName, EngineQuality>>;
  /** Engines that could not run here, with the reason (e.g. optional packages missing). */
  skipped?: Partial<Record<EngineName, string>>;
  /** Engines that failed on this dataset (an error building or searching), with the error: the run goes on. */
  failed?: Partial<Record<EngineName, string>>;
  /** How an engine was built, where it matters to read its figures. */
  notes?: Partial<Record<EngineName, string>>;
}

/** Options of {@link runQuality}. */
export interface QualityOptions {
  /** Engines (names, or engines of your own), in table order. Default: all. */
  engines?: readonly (EngineName | RankingEngine)[];
  /** Receives progress lines. */
  onProgress?: (line: string) => void;
}

/**
 * Ranks every dataset with every engine (limit {@link QUALITY_LIMIT}) and scores the rankings. An
 * engine that fails on a dataset (its build or a search throws) is listed in that dataset's
 * `failed` with the error, and the run goes on with the next engine.
 */
export async function runQuality(datasets: readonly Dataset[], options: QualityOptions = {}): Promise<QualityResult[]> {
  const { engines = ENGINE_NAMES, onProgress = () => {} } = options;
  const results: QualityResult[] = [];
  for (const dataset of datasets) {
    const result: QualityResult = {
      dataset: dataset.name,
      tools: dataset.tools.length,
      queries: dataset.queries.length,
      engines: {},
    };
    for (const choice of engines) {
      const engine = typeof choice === 'string' ? engineByName(choice) : choice;
      const name = engine.name;
      onProgress(`quality: ${dataset.name}, ${name}: building over ${dataset.tools.length} tools...`);
      let index: EngineIndex | undefined;
      const rankings: string[][] = [];
      const times: number[] = [];
      let query: DatasetQuery | undefined;
      try {
        index = await (await engine.prepare(dataset.tools)).build({ limit: QUALITY_LIMIT });
        if (index.note !== undefined) result.notes = { ...result.notes, [name]: index.note };
        for (query of dataset.queries) {
          const started = performance.now();
          const ranking = await index.search(query.query);
          times.push(performance.now() - started);
          rankings.push(ranking.slice(0, QUALITY_LIMIT));
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (EngineUnavailableError.isInstance(error)) {
          result.skipped = { ...result.skipped, [name]: message };
        } else {
          const at = index === undefined ? 'building its index' : `searching for query "${query?.id}"`;
          result.failed = { ...result.failed, [name]: `failed ${at}: ${message}` };
        }
        onProgress(`quality: ${dataset.name}, ${name}: ${result.failed?.[name] ?? message}`);
        continue;
      } finally {
        index?.dispose?.();
      }
      const metrics = evaluate(rankings, dataset.queries);
      result.engines[name] = {
        r1: round(metrics.r1),
        r5: round(metrics.r5),
        r10: round(metrics.r10),
        ndcg10: round(metrics.ndcg10),
        mrr: round(metrics.mrr),
        complete10: round(metrics.complete10),
        queryP50Ms: round(median(times), 3),
      };
      onProgress(
        `quality: ${dataset.name}, ${name}: NDCG@10 ${metrics.ndcg10.toFixed(1)}, R@5 ${metrics.r5.toFixed(1)}, p50 ${median(times).toFixed(2)} ms`,
      );
    }
    results.push(result);
  }
  return results;
}
