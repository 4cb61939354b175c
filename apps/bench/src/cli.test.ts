import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main, parseArgs, UsageError } from './cli.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    isolatePerf: false,
  });
  return { code, stdout, stderr };
}

const METRIC_KEYS = ['r1', 'r5', 'r10', 'ndcg10', 'mrr', 'complete10', 'queryP50Ms'];

describe('bench command line: argument errors', () => {
  it.each([
    [[], 'Missing command: one of quality, ablation, perf, tokens, gateway, hostile, preselect, feedback, report.'],
    [
      ['speed'],
      'Unknown command "speed": use one of quality, ablation, perf, tokens, gateway, hostile, preselect, feedback, report.',
    ],
    [['quality', '--fast'], 'Unknown option --fast.'],
    [['quality', 'extra'], 'Unexpected argument "extra".'],
    [['quality', '--sizes', '1000'], '--sizes does not apply to "quality" (only to perf, report).'],
    [['tokens', '--engines', 'bm25'], '--engines does not apply to "tokens" (only to quality, perf).'],
    [['quality', '--engines'], '--engines needs a value.'],
    [['quality', '--engines', '--json'], '--engines needs a value.'],
    [
      ['quality', '--engines', 'toolscout,lunr'],
      'Unknown engine "lunr" for quality: use toolscout, toolscout-hybrid, mastra, ai-sdk, bm25.',
    ],
    [['perf', '--engines', 'bm25'], 'Unknown engine "bm25" for perf: use toolscout, mastra.'],
    [['quality', '--engines', 'bm25,bm25'], '--engines lists an engine twice: "bm25,bm25".'],
    [['quality', '--engines', 'bm25,'], '--engines expects a comma-separated list, got "bm25,".'],
    [['perf', '--sizes', '1000,ten'], '--sizes expects a positive integer up to 10000000, got "ten".'],
    [['perf', '--sizes', '0'], '--sizes expects a positive integer up to 10000000, got "0".'],
    [['perf', '--timeout', '1.5'], '--timeout expects a positive integer up to 86400, got "1.5".'],
    [['perf', '--runs', '0'], '--runs expects a positive integer up to 100, got "0".'],
    [['perf', '--seed', '1', '--seed', '2'], '--seed is given twice.'],
    [['quality', '--json=yes'], '--json takes no value.'],
    [
      ['gateway', '--dataset', 'toolbench'],
      '--dataset does not apply to "gateway" (only to quality, ablation, perf, tokens, hostile, preselect, feedback, report).',
    ],
    [['gateway', '--clients', '50,0'], '--clients expects a positive integer up to 1000, got "0".'],
    [['gateway', '--calls', '1001'], '--calls expects a positive integer up to 1000, got "1001".'],
    [['hostile', '--clients', '5'], '--clients does not apply to "hostile" (only to gateway, report).'],
    [
      ['hostile', '--cases', 'schema-2kb,huge'],
      'Unknown hostile case "huge": use description-1mb, schema-2kb, unknown-name-1mb, load-name-1.3mb, unknown-name-1mb-one-letter, description-160k-words, schema-allof-22, schema-dag-24, schema-pattern-backtracking, search-word-32k, search-made-up-1mb.',
    ],
    [['hostile', '--cases', 'schema-2kb,schema-2kb'], '--cases lists a hostile case twice: "schema-2kb,schema-2kb".'],
    [['hostile', '--tools', '0'], '--tools expects a positive integer up to 1000000, got "0".'],
    [['quality', '--thresholds', '0.5'], '--thresholds does not apply to "quality" (only to preselect).'],
    [['preselect', '--thresholds', '0.5,1.2'], '--thresholds expects numbers from 0 to 1, got "1.2".'],
    [['preselect', '--thresholds', '0.5,-0.1'], '--thresholds expects numbers from 0 to 1, got "-0.1".'],
    [['preselect', '--thresholds', 'high'], '--thresholds expects numbers from 0 to 1, got "high".'],
    [['preselect', '--thresholds', '0.5,.50'], '--thresholds lists a value twice: "0.5,.50".'],
    [['preselect', '--limits', '1,0'], '--limits expects a positive integer up to 1000, got "0".'],
    [['preselect', '--limits', '3,3'], '--limits lists a value twice: "3,3".'],
    [['preselect', '--engines', 'bm25'], '--engines does not apply to "preselect" (only to quality, perf).'],
  ])('%j → exit 2: %s', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`bench: ${message}`);
    expect(result.stderr).toContain('Usage: pnpm bench <command> [options]');
  });

  it('rejects a --dataset folder without the two files, naming where it looked', async () => {
    const result = await run('quality', '--dataset', join(FIXTURE_DIR, '..'));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /--dataset .*test-fixtures: not a dataset folder \(it needs tools\.jsonl and queries\.jsonl; looked at /,
    );
  });

  it('prints the usage for --help, on stdout, with exit 0', async () => {
    const result = await run('perf', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--sizes n,n');
    expect(result.stderr).toBe('');
  });

  it('parses every option, with = or a separate value', () => {
    expect(
      parseArgs([
        'report',
        '--dataset=a',
        '--dataset',
        'b',
        '--sizes',
        '1_000,20',
        '--perf-queries=7',
        '--timeout',
        '5',
        '--runs',
        '2',
        '--seed',
        '3',
        '--token-queries',
        '4',
        '--clients=2,5',
        '--calls',
        '3',
        '--idle-timeout=4',
        '--cases',
        'schema-2kb',
        '--tools',
        '100',
        '--out',
        'x',
        '--json',
      ]),
    ).toEqual({
      command: 'report',
      datasets: ['a', 'b'],
      sizes: [1000, 20],
      perfQueries: 7,
      timeoutS: 5,
      runs: 2,
      seed: 3,
      tokenQueries: 4,
      clients: [2, 5],
      calls: 3,
      idleTimeoutS: 4,
      cases: ['schema-2kb'],
      tools: 100,
      out: 'x',
      json: true,
    });
    expect(() => parseArgs(['perf', '--perf-queries', '-3'])).toThrow(UsageError);
  });

  it('parses the preselect options', () => {
    expect(parseArgs(['preselect', '--dataset', 'a', '--thresholds=0.9,.5,1,0', '--limits', '2,10', '--json'])).toEqual(
      {
        command: 'preselect',
        datasets: ['a'],
        thresholds: [0.9, 0.5, 1, 0],
        limits: [2, 10],
        json: true,
      },
    );
  });
});

describe('bench command line: JSON documents on the fixture dataset', () => {
  it('quality --json: one document with every chosen engine and metric', async () => {
    const result = await run(
      'quality',
      '--json',
      '--dataset',
      FIXTURE_DIR,
      '--engines',
      'toolscout,mastra,ai-sdk,bm25',
    );
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(Object.keys(document)).toEqual(['quality']);
    expect(document.quality).toHaveLength(1);
    const [entry] = document.quality;
    expect(entry).toMatchObject({ dataset: 'tiny', tools: 12, queries: 7 });
    expect(Object.keys(entry.engines)).toEqual(['toolscout', 'mastra', 'ai-sdk', 'bm25']);
    for (const figures of Object.values<Record<string, number>>(entry.engines)) {
      expect(Object.keys(figures)).toEqual(METRIC_KEYS);
      for (const key of METRIC_KEYS.slice(0, -1)) {
        expect(figures[key]).toBeGreaterThanOrEqual(0);
        expect(figures[key]).toBeLessThanOrEqual(100);
      }
      expect(figures.queryP50Ms).toBeGreaterThanOrEqual(0);
      // every engine finds something relevant on these queries
      expect(figures.r10).toBeGreaterThan(50);
    }
    expect(result.stderr).toContain('quality: tiny, mastra: NDCG@10');
  });

  it('tokens --json: direct cost and every mode', async () => {
    const result = await run('tokens', '--json', '--dataset', FIXTURE_DIR, '--token-queries', '7');
    expect(result.code).toBe(0);
    const { tokens } = JSON.parse(result.stdout);
    expect(tokens).toHaveLength(1);
    const [entry] = tokens;
    expect(entry).toMatchObject({ dataset: 'tiny', tools: 12 });
    expect(entry.direct).toBeGreaterThan(500);
    expect(Object.keys(entry.modes)).toEqual(['search-load', 'auto-load', 'catalog', 'proxy', 'code']);
    const searchLoad = entry.modes['search-load'];
    expect(Object.keys(searchLoad)).toEqual(['metaTools', 'instructions', 'withFiveLoaded', 'searchResult']);
    // Mastra's sentences with the default names: about 40 tokens, a few more for auto-load's.
    for (const mode of ['search-load', 'auto-load', 'catalog', 'proxy']) {
      expect(entry.modes[mode].instructions, mode).toBeGreaterThan(25);
      expect(entry.modes[mode].instructions, mode).toBeLessThan(70);
    }
    expect(searchLoad.metaTools).toBeGreaterThan(50);
    expect(searchLoad.metaTools).toBeLessThanOrEqual(300);
    expect(searchLoad.withFiveLoaded).toBeGreaterThan(searchLoad.metaTools);
    expect(searchLoad.searchResult).toBeGreaterThan(0);
    expect(entry.modes.catalog.searchResult).toBeNull();
    expect(entry.modes.proxy.withFiveLoaded).toBe(entry.modes.proxy.metaTools);
    expect(entry.modes.code.withFiveLoaded).toBe(entry.modes.code.metaTools);
    expect(entry.modes.code.searchResult).toBeGreaterThan(0);
    // The fixture's multi-tool queries: code mode takes one program step and an answer.
    expect(entry.multiTool.queries).toBeGreaterThanOrEqual(2);
    expect(entry.multiTool.modes.code.steps).toBe(2);
    expect(entry.multiTool.modes['search-load'].steps).toBeGreaterThanOrEqual(4);
    expect(entry.multiTool.modes.code.ranPercent).toBe(entry.multiTool.modes['search-load'].ranPercent);
  });

  it('preselect --json: every setting per dataset, the combined table and the recommended default', async () => {
    const result = await run(
      'preselect',
      '--json',
      '--dataset',
      FIXTURE_DIR,
      '--thresholds',
      '0.3,0.5',
      '--limits',
      '1,3',
    );
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(Object.keys(document)).toEqual(['preselect']);
    const { preselect } = document;
    expect(Object.keys(preselect)).toEqual([
      'thresholds',
      'limits',
      'lambda',
      'rule',
      'datasets',
      'combined',
      'recommended',
      'stable',
      'sensitivity',
    ]);
    expect(preselect).toMatchObject({ thresholds: [0.3, 0.5], limits: [1, 3], lambda: 0.05, stable: true });
    const [entry] = preselect.datasets;
    expect(entry).toMatchObject({ dataset: 'tiny', tools: 12, queries: 7, regret: 0 });
    expect(Object.keys(entry)).toEqual(['dataset', 'tools', 'queries', 'baseline', 'rows', 'pick', 'regret']);
    expect(entry.baseline).toEqual({
      allGold: 0,
      anyGold: 0,
      preselected: 0,
      tokens: 0,
      wastedTokens: 0,
      precision: null,
      empty: 100,
    });
    expect(entry.rows.map((row: { minScore: number; limit: number }) => [row.minScore, row.limit])).toEqual([
      [0.3, 1],
      [0.3, 3],
      [0.5, 1],
      [0.5, 3],
    ]);
    for (const row of entry.rows) {
      expect(Object.keys(row)).toEqual([
        'minScore',
        'limit',
        'allGold',
        'anyGold',
        'preselected',
        'tokens',
        'wastedTokens',
        'precision',
        'empty',
        'value',
      ]);
      expect(row.allGold).toBeLessThanOrEqual(row.anyGold);
      expect(row.preselected).toBeLessThanOrEqual(row.limit);
      expect(row.wastedTokens).toBeLessThanOrEqual(row.tokens);
    }
    // The fixture's queries find something at 0.3: at limit 3 more tools, more waste, never less coverage.
    const [low1, low3] = entry.rows;
    expect(low1.preselected).toBeGreaterThan(0);
    expect(low3.tokens).toBeGreaterThan(low1.tokens);
    expect(low3.allGold).toBeGreaterThanOrEqual(low1.allGold);
    expect(preselect.combined.pick).toEqual(preselect.recommended);
    expect(preselect.recommended).toEqual(entry.pick);
    expect(result.stderr).toContain('preselect: tiny: 7 queries over 12 tools...');
  });

  it('preselect without --json: markdown tables and the recommendation', async () => {
    const result = await run('preselect', '--dataset', FIXTURE_DIR, '--limits', '1');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("## Preselect: the search hits of the user's message offered at step 1");
    expect(result.stdout).toContain('### tiny (12 tools, 7 queries)');
    expect(result.stdout).toMatch(/\| 0\.95 +\| 1 +\|/);
    expect(result.stdout).toContain('**Recommended default: minScore ');
  });

  it('perf --json: figures per engine and size, and the ratios', async () => {
    const result = await run(
      'perf',
      '--json',
      '--dataset',
      FIXTURE_DIR,
      '--sizes',
      '8,40',
      '--perf-queries',
      '5',
      '--runs',
      '2',
    );
    expect(result.code).toBe(0);
    const { perf } = JSON.parse(result.stdout);
    expect(perf.map((entry: { tools: number }) => entry.tools)).toEqual([8, 40]);
    for (const entry of perf) {
      expect(Object.keys(entry.engines)).toEqual(['toolscout', 'mastra']);
      for (const figures of Object.values<Record<string, unknown>>(entry.engines)) {
        expect(figures).toMatchObject({
          timedOut: false,
          buildMs: expect.any(Number),
          searchP50Ms: expect.any(Number),
          searchP99Ms: expect.any(Number),
          heapMB: expect.any(Number),
        });
        expect(figures.searchP99Ms as number).toBeGreaterThanOrEqual(figures.searchP50Ms as number);
      }
      expect(entry.engines.toolscout).toMatchObject({
        indexMB: expect.any(Number),
        indexBytes: expect.any(Number),
        loadMs: expect.any(Number),
        coldStartMs: expect.any(Number),
        coldBuildMs: expect.any(Number),
        nodeStartMs: expect.any(Number),
      });
      expect(entry.engines.mastra).toMatchObject({ coldStartMs: expect.any(Number), nodeStartMs: expect.any(Number) });
      expect(entry.ratios).toMatchObject({
        buildMs: expect.any(Number),
        searchP50Ms: expect.any(Number),
        searchP99Ms: expect.any(Number),
      });
      // (a few tools can leave the heap no bigger, or smaller: then there is no heap ratio)
      expect(entry.ratios.heapMB === null || typeof entry.ratios.heapMB === 'number').toBe(true);
    }
  });
});

describe('bench command line: the gateway and hostile input', () => {
  it('gateway --json: one level per --clients, run against a real gateway, with no dataset needed', async () => {
    const result = await run('gateway', '--json', '--clients', '2', '--calls', '1', '--idle-timeout', '1');
    expect(result.code).toBe(0);
    const { gateway } = JSON.parse(result.stdout);
    expect(gateway).toHaveLength(1);
    expect(gateway[0]).toMatchObject({
      clients: 2,
      callsPerClient: 1,
      ops: 11,
      errors: 0,
      sessions: { afterIdle: 0, idleMs: 1000 },
    });
  });

  it('hostile --json: the chosen cases against a catalog of --tools tools', async () => {
    const result = await run(
      'hostile',
      '--json',
      '--dataset',
      FIXTURE_DIR,
      '--cases',
      'load-name-1.3mb',
      '--tools',
      '30',
    );
    expect(result.code).toBe(0);
    const { hostile } = JSON.parse(result.stdout);
    expect(hostile).toEqual([
      expect.objectContaining({
        case: 'load-name-1.3mb',
        tools: 30,
        status: 'ok',
        phases: { load: expect.any(Number) },
      }),
    ]);
  });
});

describe('bench report', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-report-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes benchmarks.md and the two charts, and prints the seven results as one JSON document', async () => {
    const result = await run(
      'report',
      '--json',
      '--dataset',
      FIXTURE_DIR,
      '--sizes',
      '12',
      '--perf-queries',
      '4',
      '--token-queries',
      '7',
      '--clients',
      '2',
      '--calls',
      '1',
      '--idle-timeout',
      '1',
      '--cases',
      'description-1mb',
      '--tools',
      '30',
      '--out',
      out,
    );
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(Object.keys(document)).toEqual([
      'quality',
      'perf',
      'tokens',
      'gateway',
      'hostile',
      'preselect',
      'feedback',
      'ablation',
    ]);
    const markdown = readFileSync(join(out, 'benchmarks.md'), 'utf8');
    expect(markdown).toContain(`Generated by \`pnpm bench report --dataset ${FIXTURE_DIR} --sizes 12`);
    expect(markdown).toMatch(/\*\*Machine:\*\* .+, \d+ cores, .*Node v\d+/);
    expect(markdown).toContain('### tiny (12 tools, 7 queries)');
    expect(markdown).toMatch(/\| +12 \| _mastra ÷ toolscout_ +\|/);
    expect(markdown).toContain('![NDCG@10 per engine and dataset](benchmarks-quality.svg)');
    expect(markdown).toContain('## Ranking components, gain per set');
    expect(markdown).toContain('in search-load mode the meta-tools');
    expect(markdown).toContain("## Preselect: the tools of the user's message offered at step 1");
    expect(markdown).toContain('**Recommended default: minScore');
    expect(markdown).toContain('## Learning from use');
    expect(markdown).toMatch(/\| tiny +\| feedback, 20 % wrong +\|/);
    expect(markdown).toContain('## The HTTP gateway under load');
    expect(markdown).toMatch(/\| +2 \| +11 \| /);
    expect(markdown).toContain('## Hostile input');
    expect(markdown).toContain('| **index one tool with a 1 MB description** |');
    for (const chart of ['benchmarks-quality.svg', 'benchmarks-latency.svg']) {
      expect(readFileSync(join(out, chart), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    // Every benchmark of the report runs, perf five times in fresh processes: about 30 s on a busy machine.
  }, 90_000);
});
