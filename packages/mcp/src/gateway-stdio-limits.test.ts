import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertGatewayBuilt, FIXTURE_SERVER, nodeServer, writeConfig } from './test-utils/gateway-process.js';
import { type RawGateway, spawnRawGateway } from './test-utils/raw-gateway.js';

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
