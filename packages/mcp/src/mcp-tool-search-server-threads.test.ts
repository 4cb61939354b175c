import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { McpConnectionLimitError } from './errors.js';
import { type McpGateway, type WrapMcpServerOptions, wrapMcpServer } from './gateway/mcp-gateway.js';
import { closedAfterEach } from './test-utils/closed-after-each.js';
import { createFixtureServer } from './test-utils/fixture-server.js';
import { connectInMemory } from './test-utils/mcp-harness.js';
import { waitFor } from './test-utils/wait.js';

describe('McpToolSearchServer: the threads of live client sessions', () => {
  const open = closedAfterEach();

  async function setup(options: WrapMcpServerOptions = {}): Promise<McpGateway> {
    const gateway = await wrapMcpServer(createFixtureServer('T'), { name: 'fixture', ...options });
    open.push(gateway);
    return gateway;
  }

  async function client(gateway: McpGateway, threadId?: string): Promise<Client> {
    const connected = await connectInMemory(gateway, threadId === undefined ? {} : { threadId });
    open.push(connected);
    return connected;
  }

  async function listed(c: Client): Promise<string[]> {
    return (await c.listTools()).tools.map((tool) => tool.name);
  }

  it('keeps a shared thread’s loaded tools until its last connection closes', async () => {
    const gateway = await setup();
    const a = await client(gateway, 'shared');
    const b = await client(gateway, 'shared');
    const loaded = (await a.callTool({ name: 'load_tool', arguments: { toolName: 'echo' } })) as CallToolResult;
    expect(loaded.isError).toBeFalsy();
    await b.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await listed(a)).toEqual(['search_tools', 'load_tool', 'echo']);
    const store = gateway.searchServer.session.memoryStore!;
    await a.close();
    await waitFor(() => store.stats().threads === 0, 2_000, 'the thread to be dropped with its last connection');
  });

  it('refuses a connection with a new thread when live ones hold every thread the store keeps', async () => {
    const gateway = await setup({ memory: { maxThreads: 2 } });
    const first = await client(gateway, 'a');
    await client(gateway, 'b');
    const error = await client(gateway, 'c').catch((thrown: unknown) => thrown);
    expect(McpConnectionLimitError.isInstance(error)).toBe(true);
    expect((error as McpConnectionLimitError).limit).toBe(2);
    expect((error as Error).message).toContain('raise memory.maxThreads');
    // Another connection to a live thread takes no new thread.
    expect(await listed(await client(gateway, 'b'))).toEqual(['search_tools', 'load_tool']);
    // A thread whose last connection closed is free again.
    await first.close();
    await waitFor(() => gateway.searchServer.connectionCount === 2, 2_000, 'the connection to close');
    expect(await listed(await client(gateway, 'c'))).toEqual(['search_tools', 'load_tool']);
  });
});
