import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTimeout } from '../../mcp/test-utils/wait.js';
import {
  assertGatewayBuilt,
  FIXTURE_SERVER,
  GATEWAY_BIN,
  nodeServer,
  writeConfig,
} from '../test-utils/gateway-process.js';

describe('toolscout-mcp --mode code', { timeout: 40_000 }, () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-code-'));
    const config = writeConfig(dir, { fixture: nodeServer(FIXTURE_SERVER, ['--label', 'C']) });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [GATEWAY_BIN, '--config', config, '--mode', 'code'],
      stderr: 'pipe',
    });
    client = new Client({ name: 'code-mode-test', version: '1.0.0' });
    await withTimeout(client.connect(transport), 25_000, 'the gateway to start in code mode');
  }, 30_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers run_tool_code, whose program searches and calls an upstream tool in one call', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['run_tool_code']);
    const code = [
      'const hits = await tools.search("echo a message back", { limit: 3 });',
      'const echo = hits.find((hit) => hit.id.endsWith("echo"));',
      'return await tools.call(echo.id, { text: "hello" });',
    ].join('\n');
    const result = (await withTimeout(
      client.callTool({ name: 'run_tool_code', arguments: { code } }),
      15_000,
      'run_tool_code',
    )) as CallToolResult;
    expect(result.isError).not.toBe(true);
    expect(JSON.stringify(result.content)).toContain('C: hello');
  });
});
