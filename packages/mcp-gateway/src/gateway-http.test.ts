import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, EmptyResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../../mcp/test-utils/mcp-harness.js';
import { descendantPids, isAlive, recordToolListChanges, waitFor, withTimeout } from '../../mcp/test-utils/wait.js';
import {
  assertGatewayBuilt,
  FIXTURE_SERVER,
  GATEWAY_BIN,
  nodeServer,
  REFERENCE_SERVERS,
  writeConfig,
} from '../test-utils/gateway-process.js';

const META = ['search_tools', 'load_tool'];

/** A raw HTTP request, to send what a well-behaved client never would. */
function rawPost(
  url: URL,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return withTimeout(
    new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    }),
    10_000,
    `POST ${url.href}`,
  );
}

describe('the toolscout-mcp gateway over Streamable HTTP', { timeout: 30_000 }, () => {
  let dir: string;
  let upstream: ChildProcessWithoutNullStreams;
  let gateway: ChildProcessWithoutNullStreams;
  let url: URL;
  let stderr = '';
  const clients: Client[] = [];

  async function connect(options = {}): Promise<Client> {
    const client = new Client({ name: 'http-test', version: '1.0.0' }, options);
    await withTimeout(client.connect(new StreamableHTTPClientTransport(url)), 10_000, 'an HTTP session');
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await withTimeout(
      client.callTool({ name, arguments: args }),
      15_000,
      `tools/call ${name}`,
    )) as CallToolResult;
  }

  beforeAll(async () => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-http-'));
    // An upstream reached over Streamable HTTP: the fixture server on a loopback port.
    upstream = spawn(process.execPath, [FIXTURE_SERVER, '--http', '--label', 'H']);
    const upstreamUrl = await withTimeout(
      new Promise<string>((resolve) => createInterface({ input: upstream.stdout }).once('line', resolve)),
      15_000,
      'the HTTP upstream to listen',
    );
    const config = writeConfig(dir, {
      remote: { url: upstreamUrl },
      memory: nodeServer(REFERENCE_SERVERS.memory, [], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
    });
    gateway = spawn(process.execPath, [GATEWAY_BIN, '--config', config, '--http', '0', '--verbose']);
    gateway.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const href = await waitFor(
      () => /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1],
      25_000,
      'the gateway to listen',
    );
    url = new URL(href);
  }, 30_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    for (const child of [gateway, upstream]) {
      if (!child) continue;
      for (const pid of descendantPids(child.pid!)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves search, load and call, forwarding to an HTTP upstream and a stdio one', async () => {
    const changes = recordToolListChanges();
    const client = await connect(changes.clientOptions);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(META);
    const found = await call(client, 'search_tools', { query: 'current weather report for a city' });
    expect((found.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe(
      'remote__weather_report',
    );
    await call(client, 'load_tool', { toolNames: ['remote__weather_report', 'memory__read_graph'] });
    // The notification travels on the tools/call response stream, so the client sees it without a GET stream.
    expect(await changes.change(1, 10_000)).toEqual([...META, 'remote__weather_report', 'memory__read_graph']);
    const report = await call(client, 'remote__weather_report', { city: 'Oslo' });
    expect(report.structuredContent).toEqual({ city: 'Oslo', temperatureC: 21, conditions: 'sunny' });
    expect((await call(client, 'memory__read_graph')).isError).toBeFalsy();
  });

  it('keeps each HTTP session its own thread of loaded tools', async () => {
    const a = await connect();
    const b = await connect();
    await call(a, 'load_tool', { toolName: 'remote__echo' });
    expect((await a.listTools()).tools.map((tool) => tool.name)).toEqual([...META, 'remote__echo']);
    expect((await b.listTools()).tools.map((tool) => tool.name)).toEqual(META);
    expect(resultText(await call(a, 'remote__echo', { text: 'over http' }))).toBe('H: over http');
    const refused = await call(b, 'remote__echo', { text: 'x' });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('is not loaded');
  });

  it('answers malformed requests, unknown sessions, unknown methods and foreign hosts with protocol errors', async () => {
    const badJson = await rawPost(url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body)).toMatchObject({ id: null, error: { code: ErrorCode.ParseError } });
    const noSession = await rawPost(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.body).error.message).toContain('Mcp-Session-Id header is required');
    const unknownSession = await rawPost(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), {
      'mcp-session-id': 'no-such-session',
    });
    expect(unknownSession.status).toBe(404);
    const foreignHost = await rawPost(url, '{}', { host: 'attacker.example:80' });
    expect(foreignHost.status).toBe(403);
    // DNS rebinding with a name that starts like a loopback address, and a page of another origin.
    const rebound = await rawPost(url, '{}', { host: `127.0.0.1.attacker.example:${url.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toContain('--allowed-host');
    const foreignOrigin = await rawPost(url, '{}', { origin: 'http://evil.example' });
    expect(foreignOrigin.status).toBe(403);

    const client = await connect();
    await expect(client.request({ method: 'tools/teleport', params: {} }, EmptyResultSchema)).rejects.toSatisfy(
      (error: unknown) => error instanceof McpError && error.code === ErrorCode.MethodNotFound,
    );
    // Inside a session, a body that is not JSON-RPC gets a JSON-RPC error too.
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const notRpc = await rawPost(url, '{"hello": "world"}', {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(notRpc.status).toBe(400);
    expect(JSON.parse(notRpc.body).error.code).toBeLessThan(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(META);
  });

  it('isolates an HTTP upstream that goes away: its tools fail with a clear error, the others keep working', async () => {
    const client = await connect();
    await call(client, 'load_tool', { toolNames: ['remote__echo', 'memory__read_graph'] });
    expect(resultText(await call(client, 'remote__echo', { text: 'before' }))).toBe('H: before');
    const exited = new Promise((resolve) => upstream.once('exit', resolve));
    upstream.kill('SIGKILL');
    await withTimeout(exited, 10_000, 'the HTTP upstream to exit');
    const failed = await call(client, 'remote__echo', { text: 'after' });
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toMatch(
      /^Tool "remote__echo" failed: MCP server "remote" could not be reached for "echo": fetch failed/,
    );
    expect((await call(client, 'memory__read_graph')).isError).toBeFalsy();
    // A ping finds it gone: it is marked down, and later calls fail fast until it answers again.
    await waitFor(() => /server "remote" is down: it stopped answering/.test(stderr), 10_000, 'the health check');
    expect(resultText(await call(client, 'remote__echo', { text: 'again' }))).toMatch(
      /MCP server "remote" is unavailable/,
    );
  });

  it('stops on SIGTERM and leaves no child process', async () => {
    const children = descendantPids(gateway.pid!);
    expect(children.length).toBe(1); // the memory server; the HTTP upstream is not its child
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    gateway.kill('SIGTERM');
    expect(await withTimeout(exited, 15_000, 'the gateway to exit on SIGTERM')).toBe(0);
    await waitFor(() => children.every((pid) => !isAlive(pid)), 10_000, 'no child left');
    expect(stderr).toContain('shutting down (SIGTERM)');
  });
});
