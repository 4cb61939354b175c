import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../test-utils/closed-after-each.js';
import { connectInMemory } from '../test-utils/mcp-harness.js';
import { waitFor } from '../test-utils/wait.js';
import { McpConnectionLimitError } from './errors.js';
import { McpToolSearchServer, type McpToolSearchServerOptions } from './mcp-tool-search-server.js';

describe('McpToolSearchServer: the threads of live client sessions', () => {
  const open = closedAfterEach();

  function setup(options: Omit<McpToolSearchServerOptions, 'catalog'> = {}): McpToolSearchServer {
    const server = new McpToolSearchServer({
      catalog: [{ id: 'echo', description: 'Echo a text back', execute: (input: unknown) => input }],
      ...options,
    });
    open.push(server);
    return server;
  }

  async function client(server: McpToolSearchServer, threadId?: string): Promise<Client> {
    const connected = await connectInMemory(server, threadId === undefined ? {} : { threadId });
    open.push(connected);
    return connected;
  }

  async function listed(c: Client): Promise<string[]> {
    return (await c.listTools()).tools.map((tool) => tool.name);
  }

  it('keeps a shared thread’s loaded tools until its last connection closes', async () => {
    const server = setup();
    const a = await client(server, 'shared');
    const b = await client(server, 'shared');
    const loaded = (await a.callTool({ name: 'load_tool', arguments: { toolName: 'echo' } })) as CallToolResult;
    expect(loaded.isError).toBeFalsy();
    await b.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await listed(a)).toEqual(['search_tools', 'load_tool', 'echo']);
    const store = server.session.memoryStore!;
    await a.close();
    await waitFor(() => store.stats().threads === 0, 2_000, 'the thread to be dropped with its last connection');
  });

  it('refuses a connection with a new thread when live ones hold every thread the store keeps', async () => {
    const server = setup({ memory: { maxThreads: 2 } });
    const first = await client(server, 'a');
    await client(server, 'b');
    const error = await client(server, 'c').catch((thrown: unknown) => thrown);
    expect(McpConnectionLimitError.isInstance(error)).toBe(true);
    expect((error as McpConnectionLimitError).limit).toBe(2);
    expect((error as Error).message).toContain('raise memory.maxThreads');
    // Another connection to a live thread takes no new thread.
    expect(await listed(await client(server, 'b'))).toEqual(['search_tools', 'load_tool']);
    // A thread whose last connection closed is free again.
    await first.close();
    await waitFor(() => server.connectionCount === 2, 2_000, 'the connection to close');
    expect(await listed(await client(server, 'c'))).toEqual(['search_tools', 'load_tool']);
  });
});
