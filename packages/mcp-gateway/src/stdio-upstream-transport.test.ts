import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../../mcp/test-utils/wait.js';
import { StdioUpstreamTransport } from './stdio-upstream-transport.js';

/** A transport for `sh -c script`, and the pids the script writes to stderr (one per line). */
function shell(script: string) {
  const transport = new StdioUpstreamTransport({ command: 'sh', args: ['-c', script], env: getDefaultEnvironment() });
  const pids: number[] = [];
  let closed = 0;
  transport.onclose = () => closed++;
  transport.stderr.setEncoding('utf8');
  transport.stderr.on('data', (text: string) => pids.push(...text.split('\n').filter(Boolean).map(Number)));
  return { transport, pids, closedCount: () => closed };
}

if (process.platform === 'win32') console.info('StdioUpstreamTransport tests skipped: they run POSIX shell commands');
describe.skipIf(process.platform === 'win32')('StdioUpstreamTransport', { timeout: 15_000 }, () => {
  it('a server that exits on its own takes what it started with it (its process group)', async () => {
    const { transport, pids, closedCount } = shell('sleep 311 & echo $! >&2; exit 3');
    await transport.start();
    await waitFor(() => closedCount() === 1, 10_000, 'the transport to close');
    expect(pids).toHaveLength(1);
    expect(isAlive(pids[0]!)).toBe(false);
  });

  it('close() while still starting stops the server; every close() is the same one, and onclose comes once', async () => {
    const { transport, closedCount } = shell('exec sleep 312');
    const started = transport.start();
    // Read as soon as it is spawned: it may be stopped before it has run a line of its own.
    const spawnedPid = started.then(() => transport.pid);
    const first = transport.close();
    expect(transport.close()).toBe(first);
    await started;
    await first;
    const pid = await spawnedPid;
    expect(pid).toEqual(expect.any(Number));
    expect(isAlive(pid!)).toBe(false);
    expect(closedCount()).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow('Not connected');
  });

  it('a command that does not exist fails start() with the reason', async () => {
    const transport = new StdioUpstreamTransport({
      command: 'no-such-command-toolscout',
      env: getDefaultEnvironment(),
    });
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
    await transport.close();
  });

  it('refuses limits that are not positive whole numbers', () => {
    expect(() => new StdioUpstreamTransport({ command: 'x', env: {}, maxMessageBytes: 0 })).toThrow(
      'maxMessageBytes must be a positive whole number; got 0.',
    );
    expect(() => new StdioUpstreamTransport({ command: 'x', env: {}, exitGraceMs: 1.5 })).toThrow(
      'exitGraceMs must be a positive whole number; got 1.5.',
    );
  });
});
