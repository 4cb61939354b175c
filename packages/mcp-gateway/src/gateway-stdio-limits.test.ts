import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, withTimeout } from '../../mcp/test-utils/wait.js';
import {
  assertGatewayBuilt,
  FIXTURE_SERVER,
  GATEWAY_BIN,
  nodeServer,
  writeConfig,
} from '../test-utils/gateway-process.js';
import { type RawGateway, spawnRawGateway } from '../test-utils/raw-gateway.js';

describe('the gateway on stdio refuses an oversized message and keeps the session', { timeout: 30_000 }, () => {
  let dir: string;
  let gateway: RawGateway;

  beforeAll(() => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-limits-'));
    gateway = spawnRawGateway(['--config', writeConfig(dir, { fixture: nodeServer(FIXTURE_SERVER) })]);
  });

  afterAll(() => {
    if (gateway.process.exitCode === null) gateway.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers an 11 MB line with a JSON-RPC error, then serves the next request; exits 0 when stdin closes', async () => {
    expect(await gateway.initialize(1, 1)).toMatchObject({ id: 1, result: { serverInfo: { name: 'toolscout-mcp' } } });
    // One request of 11 MB (a huge argument), sent in one write, the way a client would.
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } },
    });
    gateway.send(huge);
    expect(await gateway.answer(2)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: the message is over the 10 MB line limit and was discarded; send smaller messages',
      },
    });
    gateway.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    expect(await gateway.answer(3)).toMatchObject({
      id: 3,
      result: { tools: [{ name: 'search_tools' }, { name: 'load_tool' }] },
    });
    expect(gateway.process.exitCode).toBeNull();
    expect(gateway.stderr()).toContain('stdin: Invalid Request: the message is over the 10 MB line limit');

    gateway.process.stdin.end();
    expect(await gateway.exited()).toBe(0);
    expect(gateway.stderr()).toContain('shutting down (stdin closed)');
  });
});

describe('the gateway on stdio when stdin fails', { timeout: 30_000 }, () => {
  it('exits 1 with a log line that says why (was: exit 0, as if the client had left)', async () => {
    assertGatewayBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-stdin-'));
    // stdin is a TCP socket whose other end resets the connection: reading it fails with ECONNRESET.
    let peer: Socket | undefined;
    const server = createServer((socket) => {
      peer = socket;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const config = writeConfig(dir, { fixture: nodeServer(FIXTURE_SERVER) });
    const gateway = spawn(process.execPath, [GATEWAY_BIN, '--config', config], { stdio: [socket, 'ignore', 'pipe'] });
    socket.destroy();
    let stderr = '';
    gateway.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => stderr.includes('serving') && peer, 15_000, 'the gateway to serve');
      peer!.resetAndDestroy();
      expect(await withTimeout(exited, 15_000, 'the gateway to exit')).toBe(1);
      expect(stderr).toContain('error: stdin failed, the session cannot go on: read ECONNRESET');
    } finally {
      if (gateway.exitCode === null) gateway.kill('SIGKILL');
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
