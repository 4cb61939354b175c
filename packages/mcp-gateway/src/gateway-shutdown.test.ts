import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantPids, isAlive, waitFor } from '../../mcp/test-utils/wait.js';
import { assertGatewayBuilt, FIXTURE_SERVER, GATEWAY_BIN, writeConfig } from '../test-utils/gateway-process.js';
import { type RawGateway, spawnRawGateway } from '../test-utils/raw-gateway.js';

const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.mjs', import.meta.url));

/** The pids of a gateway's whole tree once every upstream process has started. */
async function treeOf(gateway: RawGateway, count: number): Promise<number[]> {
  return waitFor(
    () => {
      const pids = descendantPids(gateway.process.pid!);
      return pids.length >= count && pids;
    },
    10_000,
    `${count} processes under the gateway`,
  );
}

describe('stopping the gateway leaves no process behind', { timeout: 30_000 }, () => {
  let dir: string;
  let config: string;
  const started: RawGateway[] = [];

  beforeAll(() => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-shutdown-'));
    config = writeConfig(dir, {
      // Never answers `initialize`: still starting when the gateway is stopped.
      silent: { command: 'sleep', args: ['300'] },
      // The same behind a shell that does not exec it: `sleep` is the shell's child.
      shell: { command: 'sh', args: ['-c', 'sleep 301; exit 0'] },
      // A real server that leaves a process of its own running in the background.
      real: { command: 'sh', args: ['-c', `sleep 302 & exec "${process.execPath}" "${FIXTURE_SERVER}"`] },
    });
  });

  afterAll(() => {
    for (const gateway of started) {
      for (const pid of descendantPids(gateway.process.pid!)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      gateway.process.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  function start(connectTimeoutMs: number, command?: string[]): RawGateway {
    const gateway = spawnRawGateway(['--config', config, '--connect-timeout', String(connectTimeoutMs)], { command });
    started.push(gateway);
    return gateway;
  }

  it('on SIGTERM during start-up, stops the servers still starting and what they started', async () => {
    const gateway = start(20_000);
    // sleep, sh + its sleep, sh-exec'd node + its background sleep
    const tree = await treeOf(gateway, 5);
    await waitFor(() => gateway.stderr().includes('server "real" is up'), 10_000, 'the real server');
    gateway.process.kill('SIGTERM');
    expect(await gateway.exited()).toBe(0);
    expect(gateway.stderr()).toContain('shutting down (SIGTERM)');
    expect(tree.filter(isAlive)).toEqual([]);
  });

  it('when stdin closes during start-up, stops the servers still starting and what they started', async () => {
    const gateway = start(20_000);
    const tree = await treeOf(gateway, 5);
    await waitFor(() => gateway.stderr().includes('server "real" is up'), 10_000, 'the real server');
    gateway.process.stdin.end();
    expect(await gateway.exited()).toBe(0);
    expect(gateway.stderr()).toContain('shutting down (stdin closed)');
    expect(tree.filter(isAlive)).toEqual([]);
  });

  it('answers what a client sent while the servers were still starting', async () => {
    const gateway = start(1_500);
    await treeOf(gateway, 5);
    // Sent before the gateway serves: kept, then answered once the silent servers have timed out.
    const answer = (await gateway.initialize(1, 1)) as { result?: { serverInfo?: { name?: string } } };
    expect(gateway.stderr()).toContain('serving');
    expect(answer.result?.serverInfo?.name).toBe('toolscout-mcp');
    gateway.process.stdin.end();
    expect(await gateway.exited()).toBe(0);
  });

  it('on a second SIGTERM, exits at once (130) and still leaves nothing behind', async () => {
    // A server that has spoken (so it gets the grace period) and ignores both stdin closing and
    // SIGTERM: the first shutdown is still waiting for it when the second signal comes.
    const stubborn = writeConfig(
      dir,
      { stubborn: { command: 'sh', args: ['-c', 'trap "" TERM; echo "{}"; sleep 303'] } },
      'stubborn.json',
    );
    const gateway = spawnRawGateway(['--config', stubborn, '--connect-timeout', '20000']);
    started.push(gateway);
    const tree = await treeOf(gateway, 2); // sh and its sleep
    gateway.process.kill('SIGTERM');
    await waitFor(() => gateway.stderr().includes('shutting down (SIGTERM)'), 5_000, 'the shutdown to begin');
    gateway.process.kill('SIGTERM');
    expect(await gateway.exited()).toBe(130);
    expect(gateway.stderr()).toContain('SIGTERM again: killing the servers now');
    await waitFor(() => tree.every((pid) => !isAlive(pid)), 5_000, 'every process to exit');
  });

  it('when stdin closes while failed servers are restarting, stops them and what they started', async () => {
    const gateway = start(1_000);
    await waitFor(() => gateway.stderr().includes('serving'), 10_000, 'the gateway to serve');
    // The silent servers fail after 1 s and are restarted 0.5 s later: wait for a restart under way.
    await waitFor(() => gateway.stderr().includes('server "silent" is down'), 10_000, 'the first failure');
    const tree = await treeOf(gateway, 5);
    gateway.process.stdin.end();
    expect(await gateway.exited()).toBe(0);
    expect(gateway.stderr()).toContain('shutting down (stdin closed)');
    expect(tree.filter(isAlive)).toEqual([]);
  });

  it('through scripts/toolchain.mjs (what `npm run toolscout-mcp` runs): SIGTERM stops the wrapper, the gateway and the servers', async () => {
    const wrapper = start(20_000, [process.execPath, TOOLCHAIN, 'node', GATEWAY_BIN]);
    const tree = await treeOf(wrapper, 6); // the gateway, and its five
    await waitFor(() => wrapper.stderr().includes('server "real" is up'), 10_000, 'the real server');
    wrapper.process.kill('SIGTERM');
    // The wrapper ends the way its command ended.
    expect(await wrapper.exited()).toBe(0);
    expect(tree.filter(isAlive)).toEqual([]);
  });

  it('through `sh -c "build && node scripts/toolchain.mjs ..."` (the npm script): SIGTERM to the shell stops the rest', async () => {
    // npm passes SIGTERM on to the script's shell, which dies without passing it on to its child.
    const script = `true && "${process.execPath}" "${TOOLCHAIN}" node "${GATEWAY_BIN}" --config "${config}" --connect-timeout 20000`;
    const shell = spawnRawGateway([], { command: ['sh', '-c', script] });
    started.push(shell);
    const tree = await treeOf(shell, 7); // the wrapper, the gateway, and its five
    await waitFor(() => shell.stderr().includes('server "real" is up'), 10_000, 'the real server');
    shell.process.kill('SIGTERM');
    await waitFor(() => tree.every((pid) => !isAlive(pid)), 10_000, 'every process to exit');
    // The shell's exit also closes the pipe that is the gateway's stdin: either may come first.
    expect(shell.stderr()).toMatch(/shutting down \((SIGTERM|stdin closed)\)/);
  });
});
