import { describe, expect, it } from 'vitest';
import { GatewayUsageError, parseGatewayArgs, runGatewayCli } from './cli.js';

function usageError(argv: string[]): string {
  try {
    parseGatewayArgs(argv);
  } catch (error) {
    if (GatewayUsageError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error('expected a GatewayUsageError');
}

describe('parseGatewayArgs', () => {
  it('reads the options, with defaults', () => {
    expect(parseGatewayArgs(['--config', 'mcp.json'])).toEqual({
      config: 'mcp.json',
      host: '127.0.0.1',
      mode: 'search-load',
      pinned: [],
      callTimeoutMs: 60_000,
      connectTimeoutMs: 30_000,
      verbose: false,
    });
    expect(
      parseGatewayArgs([
        '--config=mcp.json',
        '--http',
        '0',
        '--host',
        'localhost',
        '--mode',
        'proxy',
        '--pin',
        'github__create_issue',
        '--pin',
        'memory__read_graph',
        '--timeout',
        '1500',
        '--connect-timeout',
        '9000',
        '--verbose',
      ]),
    ).toEqual({
      config: 'mcp.json',
      http: 0,
      host: 'localhost',
      mode: 'proxy',
      pinned: ['github__create_issue', 'memory__read_graph'],
      callTimeoutMs: 1500,
      connectTimeoutMs: 9000,
      verbose: true,
    });
    expect(parseGatewayArgs(['-h'])).toEqual({ help: true });
  });

  it('says what is wrong with a command line', () => {
    expect(usageError([])).toContain('--config FILE is required');
    expect(usageError(['--config', 'x', '--mode', 'fast'])).toBe(
      '--mode must be one of search-load, auto-load, catalog, proxy; got "fast".',
    );
    expect(usageError(['--config', 'x', '--timeout', '-5'])).toContain('--timeout');
    expect(usageError(['--config', 'x', '--timeout', '0'])).toBe('--timeout needs a positive integer; got "0".');
    expect(usageError(['--config', 'x', '--http', '70000'])).toContain('from 0 to 65535');
    expect(usageError(['--config', 'x', '--host', '0.0.0.0'])).toBe('--host applies only with --http PORT.');
    expect(usageError(['--config', 'x', '--bogus'])).toContain("Unknown option '--bogus'");
  });
});

describe('runGatewayCli before serving', () => {
  const io = (stderr: string[]) => ({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: { write: (text: string) => stderr.push(text) },
    onSignal: () => () => {},
    version: '1.2.3',
  });

  it('exits 2 with the usage for a bad command line, 1 for a missing config, 0 for --help', async () => {
    const stderr: string[] = [];
    expect(await runGatewayCli(['--mode', 'x'], io(stderr))).toBe(2);
    expect(stderr.join('')).toContain('Usage: toolscout-mcp --config FILE');
    stderr.length = 0;
    expect(await runGatewayCli(['--config', '/nonexistent/mcp.json'], io(stderr))).toBe(1);
    expect(stderr.join('')).toBe('toolscout-mcp: /nonexistent/mcp.json: the file does not exist\n');
    stderr.length = 0;
    expect(await runGatewayCli(['--help'], io(stderr))).toBe(0);
    expect(stderr.join('')).toContain('--mode MODE');
    stderr.length = 0;
    expect(await runGatewayCli(['--version'], io(stderr))).toBe(0);
    expect(stderr.join('')).toBe('1.2.3\n');
  });
});
