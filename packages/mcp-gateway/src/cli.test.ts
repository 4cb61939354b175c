import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor, withTimeout } from '../../mcp/test-utils/wait.js';
import { assertGatewayBuilt, GATEWAY_BIN, writeConfig } from '../test-utils/gateway-process.js';
import { CLIENT_HEADERS, httpRequest, initializeBody } from '../test-utils/http-request.js';
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
      allowedHosts: [],
      allowedOrigins: [],
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
        '--page-size',
        '50',
        '--search-resources',
        '--verbose',
        '--allowed-host',
        'mcp.example.test',
        '--allowed-host=10.0.0.2',
        '--allowed-origin',
        'https://app.example.test',
        '--auth-token-file',
        '/run/secrets/mcp-token',
        '--max-sessions',
        '25',
      ]),
    ).toEqual({
      config: 'mcp.json',
      http: 0,
      host: 'localhost',
      allowedHosts: ['mcp.example.test', '10.0.0.2'],
      allowedOrigins: ['https://app.example.test'],
      authTokenFile: '/run/secrets/mcp-token',
      maxSessions: 25,
      mode: 'proxy',
      pinned: ['github__create_issue', 'memory__read_graph'],
      callTimeoutMs: 1500,
      connectTimeoutMs: 9000,
      pageSize: 50,
      searchResources: true,
      verbose: true,
    });
    expect(parseGatewayArgs(['-h'])).toEqual({ help: true });
  });

  it('says what is wrong with a command line', () => {
    expect(usageError([])).toContain('--config FILE is required');
    expect(usageError(['--config', 'x', '--mode', 'fast'])).toBe(
      '--mode must be one of search-load, auto-load, catalog, proxy, code; got "fast".',
    );
    expect(usageError(['--config', 'x', '--timeout', '-5'])).toContain('--timeout');
    expect(usageError(['--config', 'x', '--page-size', '0'])).toBe('--page-size needs a positive integer; got "0".');
    expect(usageError(['--config', 'x', '--timeout', '0'])).toBe('--timeout needs a positive integer; got "0".');
    expect(usageError(['--config', 'x', '--http', '70000'])).toContain('from 0 to 65535');
    expect(usageError(['--config', 'x', '--host', '0.0.0.0'])).toBe('--host applies only with --http PORT.');
    for (const [option, value] of [
      ['--allowed-host', 'a.example'],
      ['--allowed-origin', 'https://a.example'],
      ['--auth-token-file', 'token'],
      ['--max-sessions', '5'],
    ]) {
      expect(usageError(['--config', 'x', option!, value!])).toBe(`${option} applies only with --http PORT.`);
    }
    expect(usageError(['--config', 'x', '--http', '0', '--max-sessions', '0'])).toBe(
      '--max-sessions needs a positive integer; got "0".',
    );
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
    for (const flag of [
      '--mode MODE',
      '--auth-token-file FILE',
      '--allowed-host NAME',
      '--allowed-origin ORIGIN',
      '--max-sessions N',
    ]) {
      expect(stderr.join('')).toContain(flag);
    }
    stderr.length = 0;
    expect(await runGatewayCli(['--version'], io(stderr))).toBe(0);
    expect(stderr.join('')).toBe('1.2.3\n');
  });
});

describe('the built bin (node dist/bin.js)', () => {
  it("keeps Node's compile cache in the temporary folder, unless NODE_DISABLE_COMPILE_CACHE is set", () => {
    assertGatewayBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-bin-'));
    const { NODE_COMPILE_CACHE: _cache, NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env;
    const run = (temporary: string, extra: Record<string, string> = {}) => {
      mkdirSync(temporary);
      const result = spawnSync(process.execPath, [GATEWAY_BIN, '--version'], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...env, TMPDIR: temporary, ...extra },
      });
      expect(result.status).toBe(0);
      expect(result.stderr).toMatch(/^\d+\.\d+\.\d+/);
      return join(temporary, 'node-compile-cache');
    };
    try {
      expect(existsSync(run(join(dir, 'cache')))).toBe(true);
      expect(existsSync(run(join(dir, 'no-cache'), { NODE_DISABLE_COMPILE_CACHE: '1' }))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('runGatewayCli over HTTP: who may connect', { timeout: 20_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-cli-'));
  const config = writeConfig(dir, {});
  const token = 'cli-test-token-0123456789';
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the CLI; `stop()` ends it the way a parent process does (closing its stdin). */
  function run(argv: string[], env: Record<string, string | undefined> = {}) {
    const stderr: string[] = [];
    const stdin = new PassThrough();
    const exit = runGatewayCli(argv, {
      stdin,
      stdout: new PassThrough(),
      stderr: { write: (text: string) => stderr.push(text) },
      onSignal: () => () => {},
      version: '1.2.3',
      env,
    });
    return {
      stderr: () => stderr.join(''),
      exit: withTimeout(exit, 10_000, 'the CLI to exit'),
      stop: () => stdin.end(),
    };
  }

  it('refuses to listen beyond loopback without a token, before starting any server', async () => {
    const cli = run(['--config', config, '--http', '0', '--host', '0.0.0.0']);
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toMatch(/^toolscout-mcp: Listening on host "0\.0\.0\.0" is not a loopback address/);
    expect(cli.stderr()).toContain('--auth-token-file or TOOLSCOUT_MCP_AUTH_TOKEN');
    expect(cli.stderr()).not.toContain('serving');
  });

  it('refuses an empty, missing or doubly given token', async () => {
    const empty = join(dir, 'empty');
    writeFileSync(empty, '  \n');
    const emptyFile = run(['--config', config, '--http', '0', '--auth-token-file', empty]);
    expect(await emptyFile.exit).toBe(1);
    expect(emptyFile.stderr()).toBe(
      `toolscout-mcp: --auth-token-file ${empty} is empty: put the token in it, e.g. from \`openssl rand -hex 32\`.\n`,
    );
    const missing = run(['--config', config, '--http', '0', '--auth-token-file', join(dir, 'nope')]);
    expect(await missing.exit).toBe(1);
    expect(missing.stderr()).toContain('nope: the file does not exist');
    const emptyEnv = run(['--config', config, '--http', '0'], { TOOLSCOUT_MCP_AUTH_TOKEN: '' });
    expect(await emptyEnv.exit).toBe(1);
    expect(emptyEnv.stderr()).toContain('TOOLSCOUT_MCP_AUTH_TOKEN is set but empty');
    const twice = run(['--config', config, '--http', '0', '--auth-token-file', tokenFile], {
      TOOLSCOUT_MCP_AUTH_TOKEN: token,
    });
    expect(await twice.exit).toBe(2);
    expect(twice.stderr()).toContain('given twice');
  });

  async function served(cli: ReturnType<typeof run>): Promise<URL> {
    const href = await waitFor(() => /on (http:\/\/[^ ]+\/mcp)/.exec(cli.stderr())?.[1], 10_000, 'the CLI to serve');
    const url = new URL(href);
    url.hostname = '127.0.0.1';
    return url;
  }

  it('with --auth-token-file on 0.0.0.0: requests need the token, and --allowed-host names pass the Host check', async () => {
    const cli = run([
      '--config',
      config,
      '--http',
      '0',
      '--host',
      '0.0.0.0',
      '--auth-token-file',
      tokenFile,
      '--allowed-host',
      'mcp.example.test',
    ]);
    const url = await served(cli);
    const post = (headers: Record<string, string>) =>
      httpRequest(url, { headers: { ...CLIENT_HEADERS, ...headers }, body: initializeBody() });
    expect((await post({})).status).toBe(401);
    const authorization = `Bearer ${token}`;
    expect((await post({ authorization, host: 'mcp.example.test' })).status).toBe(200);
    expect((await post({ authorization, host: 'attacker.example' })).status).toBe(403);
    cli.stop();
    expect(await cli.exit).toBe(0);
  });

  it('reads the token from TOOLSCOUT_MCP_AUTH_TOKEN, and caps sessions with --max-sessions', async () => {
    const cli = run(['--config', config, '--http', '0', '--max-sessions', '1'], { TOOLSCOUT_MCP_AUTH_TOKEN: token });
    const url = await served(cli);
    const post = () =>
      httpRequest(url, {
        headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
        body: initializeBody(),
      });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(503);
    cli.stop();
    expect(await cli.exit).toBe(0);
  });
});
