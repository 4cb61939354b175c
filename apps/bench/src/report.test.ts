import { describe, expect, it } from 'vitest';
import { loadDataset } from './datasets.js';
import type { GatewayResult } from './gateway.js';
import type { HostileResult } from './hostile.js';
import type { PerfResult } from './perf.js';
import { speedChecks } from './perf-checks.js';
import { runPreselect } from './preselect.js';
import type { QualityResult } from './quality.js';
import {
  ablationSection,
  type BenchResults,
  checks,
  gatewayTables,
  hostileTable,
  machineInfo,
  perfTable,
  preselectSection,
  tokensTables,
} from './report.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';
import type { TokenResult } from './tokens.js';

const m = (ndcg10: number) => ({ r1: 0, r5: 0, r10: 0, ndcg10, mrr: 0, complete10: 0, queryP50Ms: 1 });
const quality = (toolscout: number): QualityResult[] => [
  {
    dataset: 'toolbench',
    tools: 3,
    queries: 2,
    engines: { toolscout: m(toolscout), mastra: m(56), 'ai-sdk': m(14), bm25: m(58) },
  },
];
const figures = (buildMs: number, searchP50Ms: number) => ({
  timedOut: false as const,
  buildMs,
  searchP50Ms,
  searchP99Ms: searchP50Ms * 2,
  heapMB: 10,
});
const perf = (toolscoutP50: number, toolscoutBuild: number): PerfResult[] => [
  {
    tools: 10_000,
    engines: { toolscout: figures(toolscoutBuild, toolscoutP50), mastra: figures(1000, 20) },
    ratios: { buildMs: 1000 / toolscoutBuild, searchP50Ms: 20 / toolscoutP50, searchP99Ms: 1, heapMB: 1 },
  },
  {
    tools: 100_000,
    engines: { toolscout: figures(9000, 5), mastra: { timedOut: true, timeoutMs: 120_000, during: 'build' } },
  },
];
const tokens = (meta: number): TokenResult[] => [
  {
    dataset: 'toolbench',
    tools: 3,
    direct: 1000,
    sampledQueries: 2,
    explain: { off: 200, on: 290, perHit: 18, queries: 2 },
    modes: {
      'search-load': { metaTools: meta, instructions: 44, withFiveLoaded: 700, searchResult: 200 },
      'auto-load': { metaTools: 90, instructions: 45, withFiveLoaded: 600, searchResult: 400 },
      catalog: { metaTools: 900, instructions: 40, withFiveLoaded: 950, searchResult: null },
      proxy: { metaTools: 250, instructions: 50, withFiveLoaded: 250, searchResult: 200 },
      code: { metaTools: 180, instructions: 55, withFiveLoaded: 180, searchResult: 210 },
    },
    multiTool: {
      queries: 40,
      sampled: 2,
      modes: {
        'search-load': { steps: 5, inputTokens: 4000, outputTokens: 120, ranPercent: 90 },
        code: { steps: 2, inputTokens: 1200, outputTokens: 300, ranPercent: 90 },
      },
    },
  },
];

const operation = (p50Ms: number) => ({ count: 200, p50Ms, p99Ms: p50Ms * 2 });
const gatewayLevel = (clients: number, errors: number, heapAfter: number): GatewayResult => ({
  clients,
  callsPerClient: 6,
  ops: clients * 10,
  wallMs: 2000,
  opsPerSecond: clients * 5,
  operations: {
    initialize: operation(100),
    list: operation(50),
    search: operation(40),
    load: operation(30),
    call: { count: clients * 6, p50Ms: 20, p99Ms: 45.25 },
    delete: operation(5),
  },
  errors,
  errorSamples: errors > 0 ? ['call: wrong answer "nothing"'] : [],
  timedOut: false,
  memory: { rssMB: { before: 100, peak: 210, after: 208 }, heapMB: { before: 20, peak: 85, after: heapAfter } },
  sessions: {
    peak: clients,
    dropped: clients / 2,
    afterLeaving: clients / 2,
    afterIdle: 0,
    idleMs: 2000,
    expiredAfterMs: 3100,
  },
  threadsLeft: 0,
  cpu: { clientsS: 1.7, gatewayS: 1.5 },
  loadAverage: 0.5,
});
const gateway = (errors: number, heapAfter: number): GatewayResult[] => [
  gatewayLevel(50, 0, 21),
  gatewayLevel(200, errors, heapAfter),
];
const ok = (ms: number) => ({
  status: 'ok' as const,
  input: '1,048,576 characters',
  ms,
  phases: { add: ms },
  outcome: 'ok',
  crashed: false,
});
const hostile = (schemaMs: number | null): HostileResult[] => [
  { case: 'description-1mb', what: 'index one tool with a 1 MB description', claimed: true, tools: 10_000, ...ok(90) },
  {
    case: 'schema-2kb',
    what: 'validate a call against a 2 KB adversarial schema',
    claimed: true,
    tools: 10_000,
    ...(schemaMs === null
      ? { status: 'timed-out', timeoutMs: 10_000, input: '2,016 bytes', during: 'call', phases: { add: 1, load: 1 } }
      : { ...ok(schemaMs), phases: { add: 1, load: 1, call: schemaMs - 2 } }),
  },
  {
    case: 'unknown-name-1mb',
    what: 'answer a call of a 1 MB unknown tool name',
    claimed: true,
    tools: 10_000,
    ...ok(600),
  },
  {
    case: 'schema-dag-24',
    what: 'add and call a tool whose schema reuses one sub-object at 24 levels',
    claimed: false,
    tools: 10_000,
    status: 'failed',
    error: 'the child exited (SIGABRT) without a result\nmore',
  },
];
const all = (values: { gateway: GatewayResult[]; hostile: HostileResult[] }) => values;
/** The claims but the speed goals (checked in perf-checks.test.ts). */
const withoutSpeedGoals = (list: ReturnType<typeof checks>) =>
  list.filter((check) => !speedChecks([]).some((goal) => goal.claim === check.claim));

describe('checks', () => {
  it('holds when the figures bear the claims out', () => {
    const results: BenchResults = {
      quality: quality(68),
      perf: perf(1.5, 900),
      tokens: tokens(197),
      ...all({ gateway: gateway(0, 23), hostile: hostile(40) }),
    };
    expect(withoutSpeedGoals(checks(results)).map((check) => [check.claim, check.holds])).toEqual([
      ["toolbench: toolscout's NDCG@10 ahead of mastra, ai-sdk and bm25", true],
      ["10,000 tools: toolscout's search p50 at least 10× lower than mastra's", true],
      ["10,000 tools: toolscout's build time no higher than mastra's", true],
      ['100,000 tools: toolscout builds and searches', true],
      ["toolbench: in search-load mode the meta-tools' definitions cost at most 300 tokens", true],
      [
        'the HTTP gateway: 200 concurrent clients, 0 errors, every session closed once the clients left (DELETE or idle timeout), heap back within 10 MB of the start',
        true,
      ],
      [
        '10,000 tools: indexing one tool with a 1 MB description, validating a call against a 2 KB adversarial schema and answering a 1 MB unknown tool name each take under 1 s',
        true,
      ],
    ]);
  });

  it('says which claims fail, with the figures', () => {
    const results: BenchResults = {
      quality: quality(57),
      perf: perf(2.5, 1200),
      tokens: tokens(301),
      ...all({ gateway: gateway(0, 35), hostile: hostile(null) }),
    };
    const list = withoutSpeedGoals(checks(results));
    expect(list.map((check) => check.holds)).toEqual([false, false, false, true, false, false, false]);
    expect(list[0]!.detail).toBe('toolscout 57.0; mastra 56.0, ai-sdk 14.0, bm25 58.0');
    expect(list[1]!.detail).toBe('toolscout 2.50 ms, mastra 20.00 ms (8.00×)');
    expect(list[5]!.detail).toBe(
      '200 clients: 0 errors; sessions left 100 once all had left (100 without DELETE), 0 after the idle timeout; heap 20.0 / 85.0 / 35.0 MB, RSS 100.0 / 210.0 / 208.0 MB (before / peak / after)',
    );
    expect(list[6]!.detail).toBe(
      'description-1mb 90.0 ms (add 90.0); schema-2kb timed out (> 10 s) during call; unknown-name-1mb 600.0 ms (add 600.0)',
    );
  });

  it('fails the gateway claim on any error, and the hostile one on a case that answers after 1 s or crashes', () => {
    const results: BenchResults = {
      quality: [],
      perf: [],
      tokens: [],
      ...all({ gateway: gateway(3, 21), hostile: hostile(1500) }),
    };
    expect(
      checks(results)
        .slice(-2)
        .map((check) => check.holds),
    ).toEqual([false, false]);
    // A crash (a RangeError thrown out of the session) is no answer, however fast.
    results.hostile = hostile(40);
    expect(checks(results).at(-1)?.holds).toBe(true);
    results.hostile[2] = {
      ...results.hostile[2]!,
      outcome: 'threw RangeError: Array buffer allocation failed',
      crashed: true,
    } as HostileResult;
    expect(checks(results).at(-1)?.holds).toBe(false);
    expect(hostileTable(results.hostile)).toContain('| no: crashed |');
    results.gateway = [{ clients: 200, error: "not run: the run's limit of 120 s was reached" }];
    expect(checks(results).at(-2)).toMatchObject({
      holds: false,
      detail: "200 clients: not run: the run's limit of 120 s was reached",
    });
  });

  it('counts a 100,000-tool run stopped while serialising as built and searched, and says so', () => {
    const results: BenchResults = { quality: [], perf: perf(1.5, 900), tokens: [], gateway: [], hostile: [] };
    results.perf[1]!.engines.toolscout = {
      timedOut: true,
      timeoutMs: 120_000,
      during: 'serialisation',
      buildMs: 40_000,
      heapMB: 400,
      searchP50Ms: 30,
      searchP99Ms: 90,
    };
    const check = checks(results).find((entry) => entry.claim.startsWith('100,000'))!;
    expect(check.holds).toBe(true);
    expect(check.detail).toBe(
      "build 40,000 ms, search p50 30.00 ms, p99 90.00 ms; the saved index's round trip did not finish within 120 s",
    );
    results.perf[1]!.engines.toolscout = {
      timedOut: true,
      timeoutMs: 120_000,
      during: 'search',
      buildMs: 40_000,
      heapMB: 400,
    };
    expect(checks(results).find((entry) => entry.claim.startsWith('100,000'))).toMatchObject({
      holds: false,
      detail: '40,000, timed out while searching (> 120 s), 400.0',
    });
  });

  it('reports claims whose figures were not measured as such', () => {
    const list = checks({ quality: [], perf: [], tokens: [], gateway: [], hostile: [] });
    // (the three perf claims, the six speed goals, the gateway's and the hostile input's)
    expect(list.map((check) => check.holds)).toEqual(Array.from({ length: 11 }, () => null));
  });
});

describe('tables', () => {
  it('perf: a row per engine, a timed-out engine, and the ratios row', () => {
    const table = perfTable(perf(1.5, 900)).replace(/ +/g, ' ');
    expect(table).toContain('| 10,000 | toolscout | 900 | 1.50 | 3.00 | 10.0 | – | – |');
    expect(table).toContain('| 10,000 | _mastra ÷ toolscout_ | 1.11× | 13.3× | 1.00× | 1.00× | | |');
    expect(table).toContain('| 100,000 | mastra | timed out while building (> 120 s) | – | – | – | – | – |');
  });

  it('pads columns as Biome formats markdown tables', () => {
    const lines = perfTable(perf(1.5, 900)).split('\n');
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
    expect(lines[1]).toMatch(/^\| -+: \| -+ \| -+: \|/);
  });

  it('tokens: the direct cost in the heading and each mode', () => {
    const table = tokensTables(tokens(197)).replace(/ +/g, ' ');
    expect(table).toContain('every definition offered directly = 1,000 tokens per step');
    expect(table).toContain('| search-load | 197 | 44 | 700 | 70.00 % | 200 |');
    expect(table).toContain('| catalog | 900 | 40 | 950 | 95.00 % | – (no search tool) |');
    expect(table).toContain('| code | 180 | 55 | 180 | 18.00 % | 210 |');
    expect(table).toContain(
      'With `search.explain` on, a `search_tools` result (search-load, 5 hits) is 290 tokens instead of 200 (+45 %, +18.0 per hit; medians over 2 queries).',
    );
    expect(table).toContain('Requests that need two or more tools (2 of 40, medians)');
    expect(table).toContain('| search-load | 5 | 4,000 | 120 | 90.0 % |');
    expect(table).toContain('| code | 2 | 1,200 | 300 | 90.0 % |');
  });

  it('gateway: latency per operation, then memory, sessions and CPU, and the errors below', () => {
    const text = gatewayTables([
      ...gateway(2, 23),
      { clients: 400, error: 'failed: the gateway process exited (code 1)' },
    ]);
    const flat = text.replace(/ +/g, ' ');
    expect(flat).toContain(
      '| 200 | 2,000 | 1,000 | 100.0 / 200.0 | 50.0 / 100.0 | 40.0 / 80.0 | 30.0 / 60.0 | 20.0 / 45.3 | 5.0 / 10.0 | 2 |',
    );
    expect(flat).toContain(
      '| 200 | 100.0 / 210.0 / 208.0 | 20.0 / 85.0 / 23.0 | 200 | 100 (100 dropped) | 0 (3.1 s) | 0 | 1.70 / 1.50 | 0.50 |',
    );
    expect(flat).toContain('| left after the 2 s idle timeout |');
    expect(flat).toContain('| 400 | failed: the gateway process exited (code 1) |');
    expect(text).toContain('- 200 clients: call: wrong answer "nothing"');
  });

  it("hostile: the issue's cases in bold, a time-out with its phase, a failure in one line", () => {
    const flat = hostileTable(hostile(null)).replace(/ +/g, ' ');
    expect(flat).toContain('| case (10,000 tools) | input | time | under 1 s | what came back |');
    expect(flat).toContain(
      '| **index one tool with a 1 MB description** | 1,048,576 characters | 90.0 ms (add 90.0) | yes | ok |',
    );
    expect(flat).toContain(
      '| **validate a call against a 2 KB adversarial schema** | 2,016 bytes | timed out (> 10 s) during call | no | – |',
    );
    expect(flat).toContain(
      '| add and call a tool whose schema reuses one sub-object at 24 levels | – | failed: the child exited (SIGABRT) without a result | – | – |',
    );
    expect(hostileTable(hostile(40))).toMatch(/40\.0 ms \(add 1\.0, load 1\.0, call 38\.0\)/);
  });
});

describe('machineInfo', () => {
  it('names the versions compared, the MCP SDK of the gateway figures included', () => {
    const { packages } = machineInfo();
    expect(packages['@modelcontextprotocol/sdk']).toMatch(/^\d+\.\d+\.\d+/);
    expect(packages['@mastra/core']).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('preselectSection', () => {
  it("says how core's preselect is measured, then gives its tables and the recommended default", async () => {
    const result = await runPreselect([loadDataset(FIXTURE_DIR)], { thresholds: [0.5], limits: [1] });
    const text = preselectSection(result);
    expect(text).toContain("## Preselect: the tools of the user's message offered at step 1");
    expect(text).toContain('a session with `preselect: { minScore, limit }`');
    expect(text).toContain('### tiny (12 tools,');
    expect(text).toContain('**Recommended default: minScore 0.5, limit 1**');
  });
});

describe('ablationSection', () => {
  it('explains the ablation and tables each component off, per dataset', () => {
    const figures = { ndcg10: 91.4, r1: 81, r5: 97.3, mrr: 88.6 };
    const section = ablationSection([
      { dataset: 'azuremcp', full: figures, without: { 'action verbs': { ...figures, ndcg10: 89.1, r1: 76.5 } } },
    ]);
    expect(section).toMatch(/^## Ranking components, gain per set\n/);
    expect(section).toContain('| azuremcp NDCG@10 | azuremcp R@1 |');
    expect(section).toMatch(/\| action verbs +\| +89\.1 \(\+2\.3\) \| +76\.5 \(\+4\.5\) \|/);
  });
});
