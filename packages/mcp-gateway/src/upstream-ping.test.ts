import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolCatalog } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { waitFor } from '../../mcp/test-utils/wait.js';
import { McpUpstream } from './mcp-upstream.js';

/** A server that counts the pings it gets, and answers them while `answering` says so. */
function pingedServer() {
  const state = { pings: 0, connections: 0, answering: true };
  return {
    state,
    connect: async () => {
      state.connections++;
      const server = new Server({ name: 'pinged', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
      server.setRequestHandler(PingRequestSchema, () => {
        state.pings++;
        return state.answering ? {} : new Promise<never>(() => {});
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      return clientSide;
    },
  };
}

describe('McpUpstream pings idle servers', () => {
  const open = closedAfterEach();

  function start(connect: () => Promise<InMemoryTransport>, pingIntervalMs: number | false) {
    const upstream = new McpUpstream({
      name: 'idle',
      connect,
      catalog: new ToolCatalog<unknown>(),
      pingIntervalMs,
      callTimeoutMs: 300,
      restart: { initialDelayMs: 20 },
    });
    open.push(upstream);
    return upstream;
  }

  it('pings a server that has been silent for pingIntervalMs, and leaves it up while it answers', async () => {
    const server = pingedServer();
    const upstream = start(server.connect, 40);
    expect(await upstream.start()).toBe(true);
    await waitFor(() => server.state.pings >= 2, 5_000, 'two pings');
    expect(upstream.status).toBe('ready');
    expect(server.state.connections).toBe(1);
  });

  it('restarts a server that stops answering pings', async () => {
    const server = pingedServer();
    const upstream = start(server.connect, 40);
    await upstream.start();
    server.state.answering = false;
    await waitFor(() => upstream.status === 'down' && upstream.statusReason, 5_000, 'the server to be marked down');
    expect(upstream.statusReason).toContain('an idle-time ping got no answer');
    server.state.answering = true;
    await waitFor(
      () => upstream.status === 'ready' && server.state.connections >= 2,
      5_000,
      `the restart (${upstream.status}, ${upstream.statusReason}, ${server.state.connections})`,
    );
  });

  it('never pings with pingIntervalMs: false', async () => {
    const server = pingedServer();
    const upstream = start(server.connect, false);
    await upstream.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.state.pings).toBe(0);
  });
});
