// Vitest globalSetup: starts a real, throwaway `redis-server` on loopback for the test run and gives
// its URL to the tests (`inject('redisUrl')`). Install the binary with `apt-get install redis-server`
// (or `brew install redis`); REDIS_SERVER_BIN overrides which binary is run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the server started for this test run. */
    redisUrl: string;
  }
}

/** A running throwaway Redis server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

/** Options of `startRedisServer`. */
export interface StartRedisServerOptions {
  /** The binary to run. Default `$REDIS_SERVER_BIN` or `redis-server` from PATH. */
  bin?: string;
  /** How long to wait for the server to answer PING, in ms. Default 10,000. */
  startTimeoutMs?: number;
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a Redis server answers PING on the port. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function startOnce(bin: string, startTimeoutMs: number): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'toolscout-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn(bin, [...args, '--dir', dir, '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 5000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5000);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `Cannot start "${bin}": it is not installed (or not on PATH). The @toolscout/redis tests run against a real Redis server; install it, e.g. \`apt-get install -y redis-server\` or \`brew install redis\`, or set REDIS_SERVER_BIN.`,
            )
          : new Error(`Cannot start "${bin}": ${error.message}`),
      );
    });
    child.once('exit', (code, signal) => {
      reject(new Error(`${bin} exited (code ${code}, signal ${signal}) before answering PING. Its output:\n${output}`));
    });
  });
  failed.catch(() => {});

  const ready = (async () => {
    const deadline = Date.now() + startTimeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) return false;
      if (await ping(port)) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  })();

  try {
    const ok = await Promise.race([ready, failed]);
    if (!ok) {
      throw new Error(`${bin} did not answer PING on port ${port} within ${startTimeoutMs} ms. Its output:\n${output}`);
    }
  } catch (error) {
    await stop();
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { output });
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}

/**
 * Starts `redis-server` on a free loopback port, without persistence, and resolves once it answers
 * PING. Retries twice with another port if the chosen one was taken meanwhile. Fails with a clear
 * message (never hangs) when the binary is missing or the server does not come up.
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServer> {
  const bin = options.bin ?? process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(bin, startTimeoutMs);
    } catch (error) {
      const portTaken = /address already in use/i.test((error as { output?: string }).output ?? '');
      if (!portTaken || attempt >= 3) throw error;
    }
  }
}

/** Vitest globalSetup: one server for the whole run, stopped on teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
