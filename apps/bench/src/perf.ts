// Speed at catalog size: index build time, search latency, heap growth, (toolscout) the saved
// index, and the cold start of a fresh process, for each engine at each size, each run in its own
// child process with a time limit.
import { type ChildOutcome, compiledModule, runInChild } from './child-run.js';
import { timeColdStarts } from './cold-start.js';
import { loadDataset } from './datasets.js';
import { type EngineName, engineByName } from './engines/index.js';
import { garbageCollector } from './gc.js';
import { median, percentile, round } from './stats.js';
import { DEFAULT_SEED, poolTools, sampleQueries, syntheticCatalog } from './synthetic-catalog.js';

/** Catalog sizes measured by default. */
export const DEFAULT_SIZES: readonly number[] = [1_000, 10_000, 100_000];
/** Queries timed per engine and size by default. */
export const DEFAULT_PERF_QUERIES = 200;
/** How many times each engine is measured at each size by default (the median is reported). */
export const DEFAULT_RUNS = 5;

/** The time limit per engine and size by default (build, searches and serialisation). */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Results per search, as in the quality benchmark. */
export const PERF_LIMIT = 10;
/** Queries run before timing starts (they are timed again later). */
const WARM_UP_QUERIES = 20;

/** What one child measures: one engine at one catalog size. */
export interface PerfRequest {
  /** The engine to measure. */
  engine: EngineName;
  /** Tools in the generated catalog. */
  size: number;
  /** Dataset folders (paths) whose tools and queries the catalog and queries come from. */
  datasets: string[];
  /** How many queries are timed. */
  queries: number;
  /** Seed of the catalog and the query sample. */
  seed: number;
}

/** The figures of one engine at one size. */
export interface EngineFigures {
  /** Milliseconds from the tools (in the engine's own shape) to a searchable index. */
  buildMs: number;
  /** Median milliseconds per search (limit 10). */
  searchP50Ms: number;
  /** 99th percentile milliseconds per search. */
  searchP99Ms: number;
  /**
   * Memory growth over the build (MiB, after full GCs before and after): the V8 heap plus the
   * array buffers' backing stores (which live outside the heap), so typed arrays count too.
   */
  heapMB: number;
  /** MiB of the saved index (toolscout only; `ToolIndex.toBinary`). */
  indexMB?: number;
  /** Bytes of the saved index (toolscout only). */
  indexBytes?: number;
  /** Milliseconds to load the saved index (toolscout only; `ToolIndex.fromBinary`). */
  loadMs?: number;
  /**
   * Milliseconds from starting a fresh Node process to its first answer: it imports the engine,
   * makes the catalog, loads the saved index (toolscout) or builds the index (Mastra), and searches
   * once (see `timeColdStarts`).
   */
  coldStartMs?: number;
  /** The same with the index built (toolscout too). */
  coldBuildMs?: number;
  /** Milliseconds of a fresh Node process that does nothing, measured beside the cold starts. */
  nodeStartMs?: number;
}

/** The phases of a measurement, in order. */
export type PerfPhase = 'build' | 'search' | 'serialisation' | 'cold start';

/** What a measurement has so far: the phase it is in and the figures of the phases done. */
export type PerfProgress = Partial<EngineFigures> & { phase: PerfPhase };

/**
 * An engine over the time limit: the phase it was in when it was stopped, and the figures of the
 * phases it had finished (e.g. `buildMs` and `heapMB` when it was stopped while searching).
 */
export type TimedOutPerf = Partial<EngineFigures> & { timedOut: true; timeoutMs: number; during: PerfPhase };

/** One engine at one size: its figures, or why there are none. */
export type EnginePerf = (EngineFigures & { timedOut: false }) | TimedOutPerf | { timedOut: false; error: string };

/** Mastra's figure divided by toolscout's, at one size (above 1: toolscout is faster or smaller). */
export interface PerfRatios {
  buildMs: number | null;
  searchP50Ms: number | null;
  searchP99Ms: number | null;
  heapMB: number | null;
}

/** Every engine at one size. */
export interface PerfResult {
  /** Tools in the catalog. */
  tools: number;
  /** By engine name. */
  engines: Partial<Record<EngineName, EnginePerf>>;
  /** `mastra / toolscout` per figure, when both were measured. */
  ratios?: PerfRatios;
}

/** Options of {@link runPerf}. */
export interface PerfOptions {
  /** Dataset folders (paths or names under the datasets root). */
  datasets: string[];
  /** Catalog sizes. Default {@link DEFAULT_SIZES}. */
  sizes?: readonly number[];
  /** Engines, among those `perf` supports. Default toolscout and mastra. */
  engines?: readonly EngineName[];
  /** Queries timed. Default {@link DEFAULT_PERF_QUERIES}. */
  queries?: number;
  /** Time limit per engine and size. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Measurements per engine and size, each in a fresh process, the engines taking turns; each figure
   * reported is the median over them. Default {@link DEFAULT_RUNS}. An engine that times out or
   * fails at a size is not run again at that size.
   */
  runs?: number;
  /** Seed of catalogs and queries. Default {@link DEFAULT_SEED}. */
  seed?: number;
  /**
   * Run each engine and size in its own child process (default `true`): a clean heap per
   * measurement, and a hang is killed at the time limit. `false` runs in this process (tests).
   */
  isolate?: boolean;
  /** Receives progress lines. */
  onProgress?: (line: string) => void;
}

const MIB = 1024 * 1024;

/** What {@link measureEngine} tells its caller while it runs. */
export interface MeasureHooks {
  /** The catalog and queries are ready: the time limit starts now. */
  ready?(): void;
  /** A phase begins; `progress` holds the figures of the phases done. */
  progress?(progress: PerfProgress): void;
}

/**
 * Measures one engine at one size, in this process: generates the catalog and queries, calls
 * `ready` (the time limit starts there), then builds (timed, heap measured), warms up, times every
 * query, and serialises and reloads the index when the engine can.
 */
export async function measureEngine(request: PerfRequest, hooks: MeasureHooks = {}): Promise<EngineFigures> {
  const { ready = () => {}, progress = () => {} } = hooks;
  const datasets = request.datasets.map((folder) => loadDataset(folder));
  const tools = syntheticCatalog(poolTools(datasets), request.size, request.seed);
  const queries = sampleQueries(datasets, request.queries, request.seed);
  const engine = engineByName(request.engine);
  const gc = garbageCollector();
  ready();
  progress({ phase: 'build' });
  const prepared = await engine.prepare(tools);
  gc();
  gc();
  const heapBefore = memoryUsed();
  const started = performance.now();
  const index = await prepared.build({ limit: PERF_LIMIT });
  const buildMs = performance.now() - started;
  gc();
  gc();
  const heapMB = (memoryUsed() - heapBefore) / MIB;
  progress({ phase: 'search', buildMs: round(buildMs, 1), heapMB: round(heapMB, 1) });
  for (const query of queries.slice(0, WARM_UP_QUERIES)) await index.search(query);
  const times: number[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    await index.search(query);
    times.push(performance.now() - t0);
  }
  const figures: EngineFigures = {
    buildMs: round(buildMs, 1),
    searchP50Ms: round(percentile(times, 0.5), 3),
    searchP99Ms: round(percentile(times, 0.99), 3),
    heapMB: round(heapMB, 1),
  };
  let saved: Uint8Array | undefined;
  if (index.measureSerialization) {
    progress({ phase: 'serialisation', ...figures });
    const { bytes, loadMs, data } = await index.measureSerialization();
    figures.indexMB = round(bytes / MIB, 2);
    figures.indexBytes = bytes;
    figures.loadMs = round(loadMs, 1);
    saved = data;
  }
  progress({ phase: 'cold start', ...figures });
  const query = queries[0] ?? '';
  const expected = (await index.search(query))[0] ?? '';
  index.dispose?.();
  const cold = timeColdStarts(request.engine, tools, query, expected, saved);
  figures.coldStartMs = round(cold.coldStartMs, 1);
  figures.coldBuildMs = round(cold.coldBuildMs, 1);
  figures.nodeStartMs = round(cold.nodeStartMs, 1);
  return figures;
}

/** Bytes of the V8 heap in use plus those of array buffers (off the heap). */
function memoryUsed(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

function ratio(numerator: number | undefined, denominator: number | undefined): number | null {
  if (numerator === undefined || denominator === undefined || !(denominator > 0)) return null;
  return round(numerator / denominator, 2);
}

/** The figures an engine has, complete or (timed out) partial; undefined for a failure. */
export function perfFigures(perf: EnginePerf | undefined): Partial<EngineFigures> | undefined {
  return perf && !('error' in perf) ? perf : undefined;
}

/**
 * `mastra / toolscout` for each figure both engines have (also from a run stopped at the time limit
 * after that figure was measured), or undefined unless both ran.
 */
export function perfRatios(engines: PerfResult['engines']): PerfRatios | undefined {
  const toolscout = perfFigures(engines.toolscout);
  const mastra = perfFigures(engines.mastra);
  if (!toolscout || !mastra) return undefined;
  if (toolscout.buildMs === undefined && mastra.buildMs === undefined) return undefined;
  return {
    buildMs: ratio(mastra.buildMs, toolscout.buildMs),
    searchP50Ms: ratio(mastra.searchP50Ms, toolscout.searchP50Ms),
    searchP99Ms: ratio(mastra.searchP99Ms, toolscout.searchP99Ms),
    heapMB: ratio(mastra.heapMB, toolscout.heapMB),
  };
}

function timedOut(timeoutMs: number, progress: PerfProgress | undefined): TimedOutPerf {
  const { phase, ...done } = progress ?? { phase: 'build' as const };
  return { timedOut: true, timeoutMs, during: phase, ...done };
}

function fromOutcome(outcome: ChildOutcome<EngineFigures, PerfProgress>, timeoutMs: number): EnginePerf {
  if (outcome.status === 'ok') return { timedOut: false, ...outcome.value };
  if (outcome.status === 'timed-out') return timedOut(timeoutMs, outcome.progress);
  return { timedOut: false, error: outcome.message };
}

async function inProcess(request: PerfRequest, timeoutMs: number): Promise<EnginePerf> {
  let timer: NodeJS.Timeout | undefined;
  let last: PerfProgress | undefined;
  try {
    const limit = new Promise<EnginePerf>((resolve) => {
      timer = setTimeout(() => resolve(timedOut(timeoutMs, last)), timeoutMs);
    });
    const run = measureEngine(request, {
      progress: (progress) => {
        last = progress;
      },
    }).then(
      (figures): EnginePerf => ({ timedOut: false, ...figures }),
      (error: unknown): EnginePerf => ({
        timedOut: false,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return await Promise.race([run, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(perf: EnginePerf): string {
  if (perf.timedOut) {
    const done =
      perf.buildMs === undefined
        ? ''
        : ` (build ${perf.buildMs} ms, heap ${perf.heapMB} MB${perf.searchP50Ms === undefined ? '' : `, search p50 ${perf.searchP50Ms} ms, p99 ${perf.searchP99Ms} ms`})`;
    return `timed out after ${perf.timeoutMs / 1000} s, during ${perf.during}${done}`;
  }
  if ('error' in perf) return `failed: ${perf.error}`;
  const saved = perf.indexMB !== undefined ? `, index ${perf.indexMB} MB, load ${perf.loadMs} ms` : '';
  const cold =
    perf.coldStartMs !== undefined
      ? `, cold start ${perf.coldStartMs} ms (build ${perf.coldBuildMs} ms; node alone ${perf.nodeStartMs} ms)`
      : '';
  const extra = saved + cold;
  return `build ${perf.buildMs} ms, search p50 ${perf.searchP50Ms} ms, p99 ${perf.searchP99Ms} ms, heap ${perf.heapMB} MB${extra}`;
}

/** The figures not every engine has. */
const OPTIONAL_FIGURES = ['indexMB', 'indexBytes', 'loadMs', 'coldStartMs', 'coldBuildMs', 'nodeStartMs'] as const;

/** Each figure's median over several complete measurements. */
export function medianFigures(runs: readonly EngineFigures[]): EngineFigures {
  const middle = (pick: (figures: EngineFigures) => number | undefined) => {
    const values = runs.map(pick).filter((value): value is number => value !== undefined);
    return values.length === 0 ? undefined : median(values);
  };
  const figures: EngineFigures = {
    buildMs: middle((run) => run.buildMs)!,
    searchP50Ms: middle((run) => run.searchP50Ms)!,
    searchP99Ms: middle((run) => run.searchP99Ms)!,
    heapMB: middle((run) => run.heapMB)!,
  };
  for (const key of OPTIONAL_FIGURES) {
    const value = middle((run) => run[key]);
    if (value !== undefined) figures[key] = value;
  }
  return figures;
}

/**
 * Runs every engine at every size (sizes in order; within a size, `runs` rounds in which the
 * engines take turns), and reports each engine's median figures.
 */
export async function runPerf(options: PerfOptions): Promise<PerfResult[]> {
  const {
    sizes = DEFAULT_SIZES,
    engines = ['toolscout', 'mastra'],
    queries = DEFAULT_PERF_QUERIES,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    runs = DEFAULT_RUNS,
    seed = DEFAULT_SEED,
    isolate = true,
    onProgress = () => {},
  } = options;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a positive integer, got ${runs}`);
  const childPath = compiledModule('perf-child.js');
  const results: PerfResult[] = [];
  for (const size of sizes) {
    const at = `${size.toLocaleString('en-US')} tools`;
    const complete = new Map<EngineName, EngineFigures[]>(engines.map((engine) => [engine, []]));
    const stopped = new Map<EngineName, EnginePerf>();
    for (let round = 1; round <= runs; round++) {
      for (const engine of engines) {
        if (stopped.has(engine)) continue;
        const which = runs > 1 ? ` (run ${round} of ${runs})` : '';
        onProgress(`perf: ${engine} at ${at}${which}...`);
        const request: PerfRequest = { engine, size, datasets: options.datasets, queries, seed };
        const perf = isolate
          ? fromOutcome(
              await runInChild<EngineFigures, PerfProgress>(childPath, request, {
                timeoutMs,
                execArgv: ['--expose-gc'],
              }),
              timeoutMs,
            )
          : await inProcess(request, timeoutMs);
        onProgress(`perf: ${engine} at ${at}${which}: ${describe(perf)}`);
        if (perf.timedOut || 'error' in perf) stopped.set(engine, perf);
        else complete.get(engine)!.push(perf);
      }
    }
    const result: PerfResult = { tools: size, engines: {} };
    for (const engine of engines) {
      const done = complete.get(engine)!;
      // A time-out or a failure is what the engine does at this size, whatever runs came before.
      result.engines[engine] = stopped.get(engine) ?? { timedOut: false, ...medianFigures(done) };
    }
    const ratios = perfRatios(result.engines);
    if (ratios) result.ratios = ratios;
    results.push(result);
  }
  return results;
}
