import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../mcp/test-utils/wait.js';

/** The MCP conformance runner installed from the npm registry (`@modelcontextprotocol/conformance`). */
export const CONFORMANCE_BIN = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);

/** What one run of the runner's server scenarios gave: the scenarios passed and failed, by name. */
export interface ConformanceResult {
  passed: string[];
  failed: string[];
  /** The first failure message of each failed scenario. */
  why: Record<string, string>;
}

interface Check {
  status: string;
  errorMessage?: string;
}

/** `server-<scenario>-<ISO time with dashes>` → the scenario. */
function scenarioOf(folder: string): string {
  return folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
}

/**
 * Runs every active server scenario of the conformance runner against `url` (Streamable HTTP, the
 * only transport it drives) and reads each scenario's `checks.json`: a scenario passes when none of
 * its checks failed and at least one succeeded.
 */
export async function runServerConformance(url: URL, timeoutMs = 120_000): Promise<ConformanceResult> {
  const out = mkdtempSync(join(tmpdir(), 'toolscout-conformance-'));
  try {
    await new Promise<void>((resolve, reject) => {
      // Exit code 1 means "a scenario failed": the checks say which.
      execFile(
        process.execPath,
        [CONFORMANCE_BIN, 'server', '--url', url.href, '-o', out],
        { timeout: timeoutMs },
        (error) => (error && error.code !== 1 ? reject(error) : resolve()),
      );
    });
    const result: ConformanceResult = { passed: [], failed: [], why: {} };
    for (const folder of readdirSync(out).sort()) {
      const scenario = scenarioOf(folder);
      const checks = JSON.parse(readFileSync(join(out, folder, 'checks.json'), 'utf8')) as Check[];
      const failure = checks.find((check) => check.status === 'FAILURE');
      if (!failure && checks.some((check) => check.status === 'SUCCESS')) result.passed.push(scenario);
      else {
        result.failed.push(scenario);
        result.why[scenario] = failure?.errorMessage ?? 'no check succeeded';
      }
    }
    return result;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A free loopback port (for servers that take a port, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A child process serving Streamable HTTP, and how to stop it. */
export interface HttpServerProcess {
  url: URL;
  stop(): Promise<void>;
}

/**
 * Starts `args` with this Node and waits until its output (stdout or stderr) matches `listening`,
 * whose first group (when it has one) is the URL; else `url` is used.
 */
export async function startHttpServer(
  args: string[],
  listening: RegExp,
  options: { env?: NodeJS.ProcessEnv; url?: string } = {},
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...options.env } });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  };
  try {
    const match = await waitFor(
      () => listening.exec(output) ?? (child.exitCode !== null && 'exited'),
      25_000,
      `${args[0]} to listen`,
    );
    if (match === 'exited') throw new Error(`${args.join(' ')} exited before listening:\n${output}`);
    return { url: new URL(match[1] ?? options.url ?? ''), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
