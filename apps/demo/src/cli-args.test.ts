import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DemoUsageError, parseDemoArgs, tracedFrameworks } from './cli-args.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

function runBin(args: string[]) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (pnpm --filter @toolscout/demo build).`);
  return spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
  });
}

describe('parseDemoArgs', () => {
  it('defaults to every framework, the default requests and the servers', () => {
    expect(parseDemoArgs([])).toEqual({
      requests: [],
      frameworks: ['mcp', 'ai-sdk', 'mastra', 'langchain', 'tanstack-ai'],
      offline: false,
    });
  });

  it('reads --catalog, repeated --request and --framework (in the demo order), --offline and --help', () => {
    expect(
      parseDemoArgs([
        '--catalog',
        'tools.jsonl',
        '--request',
        'add 2 and 3',
        '--request',
        ' echo hi ',
        '--framework',
        'langchain',
        '--framework',
        'mcp',
        '--offline',
      ]),
    ).toEqual({
      catalog: 'tools.jsonl',
      requests: ['add 2 and 3', 'echo hi'],
      frameworks: ['mcp', 'langchain'],
      offline: true,
    });
    expect(parseDemoArgs(['-h'])).toEqual({ help: true });
    // `pnpm demo -- --offline` hands the script a bare `--`.
    expect(parseDemoArgs(['--', '--offline'])).toMatchObject({ offline: true });
  });

  it('reads --trace: a framework that runs, or all', () => {
    expect(parseDemoArgs(['--trace', 'mastra'])).toMatchObject({ trace: 'mastra' });
    expect(parseDemoArgs(['--trace', 'all'])).toMatchObject({ trace: 'all' });
    expect(parseDemoArgs([])).not.toHaveProperty('trace');
  });

  it.each([
    [['--trace', 'crewai'], /Unknown framework "crewai" for --trace; use all or one of mcp, ai-sdk/],
    [
      ['--trace', 'mastra', '--framework', 'mcp'],
      /--trace mastra: that framework does not run; add --framework mastra\./,
    ],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--catalog'], /--catalog/],
    [['--catalog', ' '], /--catalog needs a file name/],
    [['--request', '  '], /--request needs a non-empty text/],
    [
      ['--framework', 'crewai'],
      /Unknown framework "crewai" for --framework; use one of mcp, ai-sdk, mastra, langchain, tanstack-ai\./,
    ],
    [['extra'], /positional/i],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseDemoArgs(argv)).toThrow(DemoUsageError);
    expect(() => parseDemoArgs(argv)).toThrow(message);
  });
});

describe('tracedFrameworks', () => {
  it('traces the AI SDK agent by default, else the first framework run; all or the one named when asked', () => {
    expect(tracedFrameworks(['mcp', 'ai-sdk', 'mastra'], undefined)).toEqual(['ai-sdk']);
    expect(tracedFrameworks(['mcp', 'langchain'], undefined)).toEqual(['mcp']);
    expect(tracedFrameworks(['mcp', 'langchain'], 'langchain')).toEqual(['langchain']);
    expect(tracedFrameworks(['mcp', 'langchain'], 'all')).toEqual(['mcp', 'langchain']);
  });
});

describe('the demo command', () => {
  it('prints the usage with --help and exits 0', () => {
    const result = runBin(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--catalog FILE');
    expect(result.stdout).toContain('OPENAI_API_KEY');
  });

  it('exits 2 with the error and the usage on stderr for a bad argument', () => {
    const result = runBin(['--framework', 'crewai']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('toolscout demo: Unknown framework "crewai"');
    expect(result.stderr).toContain('Usage: pnpm demo');
  });

  it('exits 1 naming the file when the catalog file cannot be read', () => {
    const result = runBin(['--catalog', 'no-such-catalog.jsonl']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/toolscout demo: Cannot read the catalog file .*no-such-catalog\.jsonl: ENOENT/);
  });
});
