import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type CatalogChange, ToolCatalog } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { waitFor } from '../../mcp/test-utils/wait.js';
import { createFixtureServer } from '../test-utils/fixture-server.js';
import type { Logger } from './logger.js';
import { wrapMcpServer } from './mcp-gateway.js';
import { McpUpstream } from './mcp-upstream.js';
import { McpUpstreamError } from './mcp-upstream-error.js';

function captureLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    error: (message) => lines.push(`error: ${message}`),
    warn: (message) => lines.push(`warn: ${message}`),
    info: (message) => lines.push(`info: ${message}`),
    debug: (message) => lines.push(`debug: ${message}`),
  };
  return { lines, logger };
}

/** Connects a fresh fixture server in memory (a server object connects to one transport at a time). */
function fixtureConnector(label = 'U') {
  const servers: ReturnType<typeof createFixtureServer>[] = [];
  return {
    servers,
    connect: async (): Promise<Transport> => {
      const server = createFixtureServer(label);
      servers.push(server);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      return clientSide;
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<McpUpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (McpUpstreamError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an McpUpstreamError');
}

describe('McpUpstream', () => {
  const open = closedAfterEach();

  function upstream(
    options: Partial<ConstructorParameters<typeof McpUpstream>[0]> &
      Pick<ConstructorParameters<typeof McpUpstream>[0], 'connect'>,
  ) {
    const catalog = options.catalog ?? new ToolCatalog<unknown>();
    const created = new McpUpstream({ name: 'up', catalog, ...options });
    open.push(created);
    return { upstream: created, catalog };
  }

  it('mirrors tools under its prefix and applies list_changed as a difference: one add, one replace, one remove', async () => {
    const fixture = fixtureConnector();
    const { upstream: up, catalog } = upstream({ connect: fixture.connect });
    expect(await up.start()).toBe(true);
    expect(up.status).toBe('ready');
    expect(up.toolIds).toEqual([
      'up__weather_report',
      'up__echo',
      'up__whoami',
      'up__sleep',
      'up__add_tool',
      'up__remove_tool',
      'up__fail',
    ]);
    expect(catalog.get('up__weather_report')).toMatchObject({
      name: 'weather_report',
      source: 'up',
      metadata: { title: 'Weather Report' },
    });

    const changes: CatalogChange<unknown>[] = [];
    catalog.subscribe((change) => changes.push(change));
    const server = fixture.servers[0]!;
    const handle = server.registerTool(
      'roll_dice',
      { description: 'Roll a die.', inputSchema: { sides: z.number() } },
      async ({ sides }) => ({
        content: [{ type: 'text', text: String(sides) }],
      }),
    );
    await waitFor(() => changes.length === 1, 5_000, 'the add');
    handle.update({ description: 'Roll a die with any number of sides.' });
    await waitFor(() => changes.length === 2, 5_000, 'the replace');
    handle.remove();
    await waitFor(() => changes.length === 3, 5_000, 'the remove');
    expect(changes.map((change) => `${change.type} ${change.tool.id}`)).toEqual([
      'add up__roll_dice',
      'replace up__roll_dice',
      'remove up__roll_dice',
    ]);
    expect(await up.callTool('echo', { text: 'x' })).toEqual({ content: [{ type: 'text', text: 'U: x' }] });
  });

  it('retries a server that fails to start, with backoff, and fails calls fast meanwhile', async () => {
    const fixture = fixtureConnector();
    let attempts = 0;
    const { lines, logger } = captureLogger();
    const { upstream: up } = upstream({
      logger,
      restart: { initialDelayMs: 20, maxDelayMs: 80 },
      connect: () => {
        attempts++;
        if (attempts <= 3) throw new Error(`spawn attempt ${attempts} failed`);
        return fixture.connect();
      },
    });
    expect(await up.start()).toBe(false);
    expect(up.status).toBe('down');
    const fast = await failure(up.callTool('echo', { text: 'x' }));
    expect(fast.reason).toBe('unavailable');
    expect(fast.server).toBe('up');
    expect(fast.message).toMatch(
      /^MCP server "up" is unavailable \(failed to start: spawn attempt 1 failed\); the next restart is in \d+ s: try again then\.$/,
    );
    await waitFor(() => up.status === 'ready', 5_000, 'the fourth attempt');
    expect(attempts).toBe(4);
    // Each distinct failure is a warning; the delays double.
    expect(lines.filter((line) => line.startsWith('warn:'))).toEqual([
      'warn: server "up" is down: failed to start: spawn attempt 1 failed; restarting in 20 ms',
      'warn: server "up" is down: failed to start: spawn attempt 2 failed; restarting in 40 ms',
      'warn: server "up" is down: failed to start: spawn attempt 3 failed; restarting in 80 ms',
    ]);
    expect(lines.at(-1)).toBe('info: server "up" is back up (fixture-U 1.0.0): 7 tool(s)');
  });

  it('with restart: false, stays down and says so', async () => {
    const { upstream: up } = upstream({ restart: false, connect: () => Promise.reject(new Error('nope')) });
    expect(await up.start()).toBe(false);
    expect((await failure(up.callTool('echo', {}))).message).toBe(
      'MCP server "up" is unavailable (failed to start: nope); it will not be restarted.',
    );
  });

  it('restarts a server that stops answering (a timed-out call, then no answer to a ping)', async () => {
    const fixture = fixtureConnector();
    let frozen: { frozen: boolean } | undefined;
    const { lines, logger } = captureLogger();
    const { upstream: up } = upstream({
      logger,
      callTimeoutMs: 200,
      restart: { initialDelayMs: 20 },
      // The first connection can be frozen: it drops every message, like a hung process.
      connect: async () => {
        const transport = await fixture.connect();
        if (frozen) return transport;
        frozen = { frozen: false };
        const state = frozen;
        const send = transport.send.bind(transport);
        transport.send = (message, options) => (state.frozen ? Promise.resolve() : send(message, options));
        return transport;
      },
    });
    await up.start();
    frozen!.frozen = true;
    const timedOut = await failure(up.callTool('echo', { text: 'x' }));
    expect(timedOut.reason).toBe('timeout');
    expect(timedOut.message).toBe('MCP server "up" did not answer "echo" within 200 ms (the per-call timeout).');
    await waitFor(
      () => lines.some((line) => line.includes('is down: it stopped answering')),
      5_000,
      'the health check',
    );
    await waitFor(() => up.status === 'ready', 5_000, 'the restart');
    expect(await up.callTool('echo', { text: 'again' })).toEqual({ content: [{ type: 'text', text: 'U: again' }] });
    expect(fixture.servers).toHaveLength(2);
  });

  it('close() stops restarts and removes its tools from the catalog', async () => {
    const fixture = fixtureConnector();
    const { upstream: up, catalog } = upstream({ connect: fixture.connect });
    await up.start();
    expect(catalog.size).toBe(7);
    await up.close();
    expect(catalog.size).toBe(0);
    expect(up.status).toBe('closed');
    expect((await failure(up.callTool('echo', {}))).message).toBe(
      'MCP server "up" is unavailable (closed); it will not be restarted.',
    );
  });
});

describe('wrapMcpServer over a low-level SDK Server', () => {
  it('serves its JSON Schema tools, skipping those it cannot serve with a warning', async () => {
    const server = new Server(
      { name: 'low-level', version: '2.0.0' },
      { capabilities: { tools: {} }, instructions: 'Use me well.' },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'lookup',
          description: 'Look up a word in the dictionary.',
          inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
        },
        { name: 'load_tool', description: 'Clashes with a meta-tool.', inputSchema: { type: 'object' } },
        {
          name: 'research',
          description: 'A long task.',
          inputSchema: { type: 'object' },
          execution: { taskSupport: 'required' },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: 'text', text: `definition of ${String(request.params.arguments?.word)}` }],
    }));
    const { lines, logger } = captureLogger();
    const gateway = await wrapMcpServer(server, { name: 'dictionary', logger });
    try {
      expect(gateway.catalog.list().map((tool) => tool.id)).toEqual(['lookup']);
      expect(lines).toContain(
        'warn: server "dictionary": tool "load_tool" skipped: its name "load_tool" is a meta-tool\'s; rename that meta-tool (the metaTools option) to serve it',
      );
      expect(gateway.searchServer.serverInfo).toEqual({ name: 'low-level', version: '2.0.0' });
      // The wrapped server's instructions, then how tool search works.
      expect(gateway.searchServer.instructions).toBe(`Use me well.\n\n${gateway.searchServer.session.instructions}`);
      expect(gateway.searchServer.session.instructions).toContain('search_tools');
      const step = await gateway.searchServer.session.prepareStep({ threadId: 't' });
      await step.execute('load_tool', { toolName: 'lookup' });
      const next = await gateway.searchServer.session.prepareStep({ threadId: 't' });
      expect(await next.execute('lookup', { word: 'gateway' })).toMatchObject({
        ok: true,
        output: { content: [{ type: 'text', text: 'definition of gateway' }] },
      });
    } finally {
      await gateway.close();
    }
  });
});

describe('McpGateway options', () => {
  it('refuses what could make tool ids collide', async () => {
    const { McpGateway } = await import('./mcp-gateway.js');
    const stdio = { command: 'node' };
    expect(() => new McpGateway({ servers: { a: stdio, b: stdio }, namespace: false })).toThrow(
      'namespace: false needs exactly one server (tool names are unique only within one server); got 2.',
    );
    expect(() => new McpGateway({ servers: { a__b: stdio } })).toThrow('Server name "a__b" must not contain "__"');
  });

  it('refuses a server entry, logger or restart of the wrong kind by InvalidOptionError naming it, never a TypeError', async () => {
    const { McpGateway } = await import('./mcp-gateway.js');
    const { InvalidOptionError } = await import('@toolscout/core/errors');
    const stdio = { command: 'node' };
    const bad: [string, object, RegExp][] = [
      ['servers', { servers: { a: null } }, /servers\.a must be an object.*got null/],
      ['servers', { servers: { a: 5 } }, /servers\.a must be an object.*got a number/],
      ['servers', { servers: { a: { url: 'not a url' } } }, /servers\.a.*not a valid URL/],
      ['servers', { servers: { a: { url: 'file:///etc/passwd' } } }, /servers\.a.*http\(s\) URL/],
      ['servers', { servers: { a: { command: 'node', args: 'index.js' } } }, /servers\.a\.args.*array of strings/],
      ['servers', { servers: { a: { command: 'node', env: { KEY: 5 } } } }, /servers\.a\.env/],
      ['logger', { servers: { a: stdio }, logger: 5 }, /error, warn, info and debug/],
      ['restart', { servers: { a: stdio }, restart: 5 }, /false or \{ initialDelayMs, maxDelayMs \}/],
    ];
    for (const [option, options, message] of bad) {
      let caught: unknown;
      try {
        await new McpGateway(options as never).close();
      } catch (error) {
        caught = error;
      }
      expect(InvalidOptionError.isInstance(caught), `${option}: ${String(caught)}`).toBe(true);
      expect((caught as InstanceType<typeof InvalidOptionError>).option).toBe(option);
      expect((caught as Error).message).toMatch(message);
    }
  });
});
