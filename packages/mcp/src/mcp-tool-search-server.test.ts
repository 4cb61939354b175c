import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { EmptyResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolCatalog, ToolscoutError } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../test-utils/closed-after-each.js';
import { call, connectInMemory, META, names, resultText } from '../test-utils/mcp-harness.js';
import { recordToolListChanges } from '../test-utils/wait.js';
import { McpConnectionLimitError, McpServerClosedError } from './errors.js';
import { McpToolSearchServer } from './mcp-tool-search-server.js';

/** What `act` threw (undefined when it returned). */
function thrown(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A small catalog of executable descriptors. */
function weatherCatalog() {
  return [
    { id: 'get_weather', description: 'Get the weather forecast for a city', execute: () => ({ sunny: true }) },
    { id: 'send_email', description: 'Send an email message to a recipient', execute: () => 'sent' },
  ];
}

describe('McpToolSearchServer over a catalog of descriptors', () => {
  const open = closedAfterEach();

  it("rejects state 'conversation': a server sees no conversation", () => {
    const caught = thrown(() => new McpToolSearchServer({ catalog: [], state: 'conversation' as never }));
    expect(InvalidOptionError.isInstance(caught)).toBe(true);
    expect((caught as InvalidOptionError).option).toBe('state');
    expect((caught as Error).message).toContain("state 'conversation' does not apply to MCP");
  });

  it('checks its options when built: each bad one is an InvalidOptionError naming it', () => {
    const bad: [string, () => unknown][] = [
      ['options', () => new McpToolSearchServer(undefined as never)],
      ['serverInfo', () => new McpToolSearchServer({ catalog: [], serverInfo: 'toolscout' as never })],
      ['serverInfo', () => new McpToolSearchServer({ catalog: [], serverInfo: { name: 'x' } as never })],
      ['instructions', () => new McpToolSearchServer({ catalog: [], instructions: 5 as never })],
      ['mode', () => new McpToolSearchServer({ catalog: [], mode: 'everything' as never })],
    ];
    for (const [option, build] of bad) {
      const caught = thrown(build);
      expect(InvalidOptionError.isInstance(caught), option).toBe(true);
      expect((caught as InvalidOptionError).option).toBe(option);
    }
  });

  it('checks the options of a client session: a thread id is a non-empty string', () => {
    const server = new McpToolSearchServer({ catalog: weatherCatalog() });
    open.push(server);
    for (const [option, connection] of [
      ['threadId', { threadId: '' }],
      ['threadId', { threadId: 7 }],
      ['resourceId', { resourceId: { id: 'u' } }],
      ['connection', null],
    ] as const) {
      const caught = thrown(() => server.createServer(connection as never));
      expect(InvalidOptionError.isInstance(caught), option).toBe(true);
      expect((caught as InvalidOptionError).option).toBe(option);
    }
    // Nothing was held for the refused sessions.
    expect(server.connectionCount).toBe(0);
  });

  it('refuses new client sessions once closed, with McpServerClosedError', async () => {
    const server = new McpToolSearchServer({ catalog: weatherCatalog() });
    await server.close();
    const caught = thrown(() => server.createServer());
    expect(McpServerClosedError.isInstance(caught)).toBe(true);
    expect(ToolscoutError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ name: 'McpServerClosedError', code: 'mcp-server-closed' });
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await expect(server.connect(serverSide)).rejects.toSatisfy(McpServerClosedError.isInstance);
  });

  it('recognises its errors by their own class marker, never by a base error with the same code', () => {
    const limit = new McpConnectionLimitError(3);
    expect(McpConnectionLimitError.isInstance(limit)).toBe(true);
    expect(ToolscoutError.isInstance(limit)).toBe(true);
    expect(limit).toMatchObject({ name: 'McpConnectionLimitError', code: 'mcp-connection-limit', limit: 3 });
    expect(McpConnectionLimitError.isInstance(new ToolscoutError('mcp-connection-limit', 'look-alike'))).toBe(false);
    expect(McpServerClosedError.isInstance(limit)).toBe(false);
    expect(McpConnectionLimitError.isInstance(new McpServerClosedError())).toBe(false);
  });

  it('tells a client its tools/list changed when a meta-tool call loaded tools, and only then', async () => {
    const server = new McpToolSearchServer({ catalog: weatherCatalog(), mode: 'auto-load' });
    open.push(server);
    const changes = recordToolListChanges();
    const c = await connectInMemory(server, {}, changes.clientOptions);
    open.push(c);
    // auto-load: the search itself loads what it finds.
    const found = await call(c, 'search_tools', { query: 'weather forecast for a city' });
    expect(found.isError).toBeFalsy();
    expect(await changes.change(1)).toEqual(['search_tools', 'get_weather']);
    // A search that loads nothing new (the tool is loaded already), and a tool call, change nothing.
    await call(c, 'search_tools', { query: 'weather forecast for a city' });
    expect(resultText(await call(c, 'get_weather'))).toBe('{"sunny":true}');
    await call(c, 'search_tools', { query: 'email a recipient' });
    expect(await changes.change(2)).toEqual(['search_tools', 'get_weather', 'send_email']);
    expect(changes.lists).toHaveLength(2);
  });

  it('answers a request whose params do not fit its method with -32602, naming them, and keeps serving', async () => {
    const server = new McpToolSearchServer({ catalog: weatherCatalog() });
    open.push(server);
    const c = await connectInMemory(server);
    open.push(c);
    const malformed = c.request({ method: 'tools/call', params: { name: 42 } } as never, EmptyResultSchema);
    await expect(malformed).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof McpError &&
        error.code === ErrorCode.InvalidParams &&
        error.message.includes('Invalid params for tools/call: params.name'),
    );
    expect(await names(c)).toEqual(META);
  });

  it('keeps one thread per resource: the same thread id of two resources is two threads', async () => {
    const server = new McpToolSearchServer({ catalog: weatherCatalog(), memory: { maxThreads: 1 } });
    open.push(server);
    open.push(await connectInMemory(server, { threadId: 't', resourceId: 'alice' }));
    open.push(await connectInMemory(server, { threadId: 't', resourceId: 'alice' }));
    const refused = await connectInMemory(server, { threadId: 't', resourceId: 'bob' }).catch(
      (error: unknown) => error,
    );
    expect(McpConnectionLimitError.isInstance(refused)).toBe(true);
  });

  it('returns plain outputs as JSON text with structuredContent, strings as text', async () => {
    const server = new McpToolSearchServer({
      catalog: [
        { id: 'stats', description: 'Repository statistics', pinned: true, execute: () => ({ stars: 3, forks: 1 }) },
        { id: 'greet', description: 'Say hello', pinned: true, execute: () => 'hello' },
      ],
    });
    const c = await connectInMemory(server);
    expect(await call(c, 'stats')).toEqual({
      content: [{ type: 'text', text: '{"stars":3,"forks":1}' }],
      structuredContent: { stars: 3, forks: 1 },
    });
    expect(await call(c, 'greet')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    await server.close();
  });

  it('tells connected clients when a pinned tool joins the catalog', async () => {
    const catalog = new ToolCatalog([{ id: 'a', description: 'first', execute: () => 'a' }]);
    const server = new McpToolSearchServer({ catalog });
    const changes = recordToolListChanges();
    const c = await connectInMemory(server, {}, changes.clientOptions);
    expect(await names(c)).toEqual(META);
    catalog.add({ id: 'b', description: 'second, pinned', pinned: true, execute: () => 'b' });
    expect(await changes.change(1)).toEqual([...META, 'b']);
    await server.close();
  });
});
