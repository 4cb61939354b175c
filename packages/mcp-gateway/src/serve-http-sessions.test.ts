import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { waitFor } from '../../mcp/test-utils/wait.js';
import { createFixtureServer } from '../test-utils/fixture-server.js';
import { CLIENT_HEADERS, httpRequest, initializeBody } from '../test-utils/http-request.js';
import { type McpGateway, type WrapMcpServerOptions, wrapMcpServer } from './mcp-gateway.js';
import { type HttpEndpoint, type ServeHttpOptions, serveHttp } from './serve-http.js';

describe('serveHttp: client sessions are bounded, expire, and never take another client’s state', {
  timeout: 20_000,
}, () => {
  const open = closedAfterEach();

  async function start(
    options: Partial<ServeHttpOptions> = {},
    gatewayOptions: WrapMcpServerOptions = {},
  ): Promise<{ gateway: McpGateway; endpoint: HttpEndpoint }> {
    const gateway = await wrapMcpServer(createFixtureServer('A'), { name: 'fixture', ...gatewayOptions });
    open.push(gateway);
    const endpoint = await serveHttp(gateway, { port: 0, ...options });
    open.push(endpoint);
    return { gateway, endpoint };
  }

  async function connect(endpoint: HttpEndpoint): Promise<Client> {
    const client = new Client({ name: 'sessions-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(endpoint.url));
    open.push(client);
    return client;
  }

  /** Ends a client's session the way the spec says: an HTTP DELETE. */
  async function terminate(client: Client): Promise<void> {
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
  }

  async function load(client: Client, toolName: string): Promise<void> {
    const result = (await client.callTool({ name: 'load_tool', arguments: { toolName } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
  }

  async function listed(client: Client): Promise<string[]> {
    return (await client.listTools()).tools.map((tool) => tool.name);
  }

  it('answers 503 with Retry-After when maxSessions are open, and takes new sessions once one ends', async () => {
    const { endpoint } = await start({ maxSessions: 2 });
    const first = await connect(endpoint);
    await connect(endpoint);
    const full = await httpRequest(endpoint.url, { headers: { ...CLIENT_HEADERS }, body: initializeBody() });
    expect(full.status).toBe(503);
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
    const body = JSON.parse(full.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toBe(
      'Too many sessions: 2 are open, the most this server allows (maxSessions, --max-sessions). End unused sessions with an HTTP DELETE, or retry later.',
    );
    expect(endpoint.sessionCount).toBe(2);
    await terminate(first);
    await waitFor(() => endpoint.sessionCount === 1, 5_000, 'the session to end');
    expect(await listed(await connect(endpoint))).toEqual(['search_tools', 'load_tool']);
  });

  it('counts sessions being opened, so a burst of concurrent initializes cannot exceed the cap', async () => {
    const { endpoint } = await start({ maxSessions: 3 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        httpRequest(endpoint.url, { headers: { ...CLIENT_HEADERS }, body: initializeBody() }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200).length).toBe(3);
    expect(answers.filter((answer) => answer.status === 503).length).toBe(9);
    expect(endpoint.sessionCount).toBe(3);
  });

  it('closes idle sessions and drops their loaded tools; their id then gets 404', async () => {
    const { gateway, endpoint } = await start({ sessionIdleMs: 300 });
    const client = await connect(endpoint);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    await load(client, 'echo');
    const store = gateway.searchServer.session.memoryStore!;
    expect(store.stats().threads).toBe(1);
    await waitFor(() => endpoint.sessionCount === 0, 5_000, 'the idle session to be closed');
    await waitFor(() => store.stats().threads === 0, 5_000, 'its loaded tools to be dropped');
    const late = await httpRequest(endpoint.url, {
      headers: { ...CLIENT_HEADERS, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(late.status).toBe(404);
  });

  it('keeps a session that is busy in a long request open past the idle time', async () => {
    const { endpoint } = await start({ sessionIdleMs: 200 });
    const client = await connect(endpoint);
    await load(client, 'sleep');
    const slept = (await client.callTool({ name: 'sleep', arguments: { ms: 700 } })) as CallToolResult;
    expect(slept.isError).toBeFalsy();
    expect(await listed(client)).toEqual(['search_tools', 'load_tool', 'sleep']);
  });

  it('a flood of sessions left open never evicts a live session’s loaded tools (the store holds 3 threads)', async () => {
    // The scenario scaled down: 10,050 sessions against a 10,000-thread store becomes 12 against 3.
    const { endpoint } = await start({ maxSessions: 50 }, { memory: { maxThreads: 3 } });
    const live = await connect(endpoint);
    await load(live, 'echo');
    let refused = 0;
    for (let i = 0; i < 12; i++) {
      const client = new Client({ name: `flood-${i}`, version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(endpoint.url));
      } catch (error) {
        expect(String(error)).toContain('Too many client sessions: 3 are connected');
        refused += 1;
        continue;
      }
      open.push(client);
      await load(client, 'weather_report');
    }
    expect(await listed(live)).toEqual(['search_tools', 'load_tool', 'echo']);
    expect(refused).toBe(10);
  });

  it('an initialize the transport refuses (406) holds no session and no thread', async () => {
    const { endpoint } = await start({}, { memory: { maxThreads: 1 } });
    for (let i = 0; i < 3; i++) {
      const refused = await httpRequest(endpoint.url, {
        headers: { ...CLIENT_HEADERS, accept: 'application/json' },
        body: initializeBody(),
      });
      expect(refused.status).toBe(406);
    }
    expect(endpoint.sessionCount).toBe(0);
    expect(await listed(await connect(endpoint))).toEqual(['search_tools', 'load_tool']);
  });

  it('sessions that end free their thread: a sequential flood of short sessions never evicts a live one', async () => {
    const { gateway, endpoint } = await start({ maxSessions: 2 }, { memory: { maxThreads: 2 } });
    const live = await connect(endpoint);
    await load(live, 'echo');
    for (let i = 0; i < 8; i++) {
      const client = await connect(endpoint);
      await load(client, 'weather_report');
      await terminate(client);
      await waitFor(() => endpoint.sessionCount === 1, 5_000, 'the short session to end');
    }
    expect(gateway.searchServer.session.memoryStore!.stats()).toMatchObject({ threads: 1, evicted: 0 });
    expect(await listed(live)).toEqual(['search_tools', 'load_tool', 'echo']);
  });
});
