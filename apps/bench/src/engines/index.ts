// Every engine of the benchmark, by name.
import { aiSdkEngine } from './ai-sdk.js';
import { bm25Engine } from './bm25.js';
import type { EngineName, RankingEngine } from './engine.js';
import { mastraEngine } from './mastra.js';
import { toolscoutEngine } from './toolscout.js';
import { toolscoutHybridEngine } from './toolscout-hybrid.js';

/** The engines, in table order. */
export const ENGINES: readonly RankingEngine[] = [
  toolscoutEngine,
  toolscoutHybridEngine,
  mastraEngine,
  aiSdkEngine,
  bm25Engine,
];

/** Engine names in table order. */
export const ENGINE_NAMES: readonly EngineName[] = ENGINES.map((engine) => engine.name);

/** The engines `perf` can compare (the two with an index built ahead of search). */
export const PERF_ENGINE_NAMES: readonly EngineName[] = ['toolscout', 'mastra'];

/** The engine of this name; throws for an unknown one. */
export function engineByName(name: string): RankingEngine {
  const engine = ENGINES.find((candidate) => candidate.name === name);
  if (!engine) throw new Error(`Unknown engine "${name}"; use one of ${ENGINE_NAMES.join(', ')}.`);
  return engine;
}

export {
  type EngineBuildOptions,
  type EngineIndex,
  type EngineName,
  EngineUnavailableError,
  engineToolNames,
  type PreparedCatalog,
  type RankingEngine,
  type SerializationFigures,
} from './engine.js';
