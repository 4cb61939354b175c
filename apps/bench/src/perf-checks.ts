// The speed goals (issue #18) checked against the perf figures, for the report's "What the figures
// show": search at 100,000 tools, the saved index's load, the cold start, build against Mastra, heap.
import { fmt } from './markdown.js';
import { type EngineFigures, type PerfResult, perfFigures } from './perf.js';

/** A goal and whether the figures meet it (null: not measured). */
export interface SpeedCheck {
  claim: string;
  holds: boolean | null;
  detail: string;
}

/** Search p50 and p99 at 100,000 tools at most these (ms). */
export const SEARCH_GOAL_100K = { p50: 5, p99: 25 } as const;
/** Loading the saved index at least this many times faster than a build. */
export const LOAD_SPEED_UP_GOAL = 10;
/** A fresh process's first answer at 10,000 tools within this (ms). */
export const COLD_START_GOAL_MS = 150;
/** toolscout's build at 10,000 tools at least this many times faster than Mastra's. */
export const BUILD_SPEED_UP_GOAL = 2;
/** Heap after the build at 100,000 tools at most this (MB). */
export const HEAP_GOAL_100K_MB = 120;

function at(results: readonly PerfResult[], tools: number, engine: 'toolscout' | 'mastra') {
  return perfFigures(results.find((result) => result.tools === tools)?.engines[engine]);
}

/** A check of figures that may be missing: `test` runs only when every one of `needed` is there. */
function check(
  claim: string,
  figures: Partial<EngineFigures> | undefined,
  needed: readonly (keyof EngineFigures)[],
  test: (figures: EngineFigures) => [boolean, string],
): SpeedCheck {
  if (!figures || needed.some((key) => figures[key] === undefined))
    return { claim, holds: null, detail: 'not measured' };
  const [holds, detail] = test(figures as EngineFigures);
  return { claim, holds, detail };
}

/** The goals, each checked where the run measured what it needs. */
export function speedChecks(results: readonly PerfResult[]): SpeedCheck[] {
  const out: SpeedCheck[] = [];
  out.push(
    check(
      `100,000 tools: toolscout's search p50 at most ${SEARCH_GOAL_100K.p50} ms and p99 at most ${SEARCH_GOAL_100K.p99} ms`,
      at(results, 100_000, 'toolscout'),
      ['searchP50Ms', 'searchP99Ms'],
      (f) => [
        f.searchP50Ms <= SEARCH_GOAL_100K.p50 && f.searchP99Ms <= SEARCH_GOAL_100K.p99,
        `p50 ${fmt(f.searchP50Ms, 2)} ms, p99 ${fmt(f.searchP99Ms, 2)} ms`,
      ],
    ),
  );
  for (const tools of [10_000, 100_000]) {
    out.push(
      check(
        `${fmt(tools, 0)} tools: the saved index loads at least ${LOAD_SPEED_UP_GOAL}× faster than a build`,
        at(results, tools, 'toolscout'),
        ['loadMs', 'buildMs'],
        (f) => [
          f.loadMs! * LOAD_SPEED_UP_GOAL <= f.buildMs,
          `load ${fmt(f.loadMs, 0)} ms, build ${fmt(f.buildMs, 0)} ms (${fmt(f.buildMs / f.loadMs!, 1)}×); ${fmt(f.indexMB, 2)} MB`,
        ],
      ),
    );
  }
  out.push(
    check(
      `10,000 tools: a fresh process's first answer within ${COLD_START_GOAL_MS} ms, from the saved index and from a build`,
      at(results, 10_000, 'toolscout'),
      ['coldStartMs', 'coldBuildMs', 'nodeStartMs'],
      (f) => [
        Math.max(f.coldStartMs!, f.coldBuildMs!) <= COLD_START_GOAL_MS,
        `load ${fmt(f.coldStartMs, 0)} ms, build ${fmt(f.coldBuildMs, 0)} ms (Node alone ${fmt(f.nodeStartMs, 0)} ms)`,
      ],
    ),
  );
  const mastra = at(results, 10_000, 'mastra');
  out.push(
    check(
      `10,000 tools: toolscout builds at least ${BUILD_SPEED_UP_GOAL}× faster than mastra`,
      at(results, 10_000, 'toolscout'),
      ['buildMs'],
      (f) =>
        mastra?.buildMs === undefined
          ? [false, 'mastra not measured']
          : [
              f.buildMs * BUILD_SPEED_UP_GOAL <= mastra.buildMs,
              `toolscout ${fmt(f.buildMs, 0)} ms, mastra ${fmt(mastra.buildMs, 0)} ms (${fmt(mastra.buildMs / f.buildMs, 2)}×)`,
            ],
    ),
  );
  out.push(
    check(
      `100,000 tools: toolscout's heap after the build at most ${HEAP_GOAL_100K_MB} MB`,
      at(results, 100_000, 'toolscout'),
      ['heapMB'],
      (f) => [f.heapMB <= HEAP_GOAL_100K_MB, `${fmt(f.heapMB, 1)} MB`],
    ),
  );
  return out;
}
