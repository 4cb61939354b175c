import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EmptyResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError, InvalidOptionError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { call, connectInMemory, META, names, resultText } from '../../mcp/test-utils/mcp-harness.js';
import { recordToolListChanges, waitFor } from '../../mcp/test-utils/wait.js';
import { createFixtureServer } from '../test-utils/fixture-server.js';
import { silentLogger } from './logger.js';
import { type McpGateway, wrapMcpServer } from './mcp-gateway.js';
import { McpUpstreamError } from './mcp-upstream-error.js';

describe('wrapMcpServer: an SDK McpServer made searchable, through the official Client over InMemoryTransport', () => {
  const open = closedAfterEach();

  async function setup(options: Parameters<typeof wrapMcpServer>[1] = {}) {
    const inner = createFixtureServer('A');
    const gateway = await wrapMcpServer(inner, { name: 'fixture', ...options });
    open.push(gateway);
    return { inner, gateway };
  }

  async function client(gateway: McpGateway, clientOptions = {}) {
    const connected = await connectInMemory(gateway, {}, clientOptions);
    open.push(connected);
    return connected;
  }

  it('lists the meta-tools and pinned tools, and presents itself as the wrapped server', async () => {
    const { gateway } = await setup({ pinned: ['echo'] });
    const c = await client(gateway);
    expect(await names(c)).toEqual([...META, 'echo']);
    expect(c.getServerVersion()).toMatchObject({ name: 'fixture-A', version: '1.0.0' });
    expect(c.getServerCapabilities()?.tools?.listChanged).toBe(true);
    // Its tools keep their own names (no namespace for a single wrapped server).
    expect(gateway.catalog.list().map((tool) => tool.id)).toEqual([
      'weather_report',
      'echo',
      'whoami',
      'sleep',
      'add_tool',
      'remove_tool',
      'fail',
    ]);
    expect(resultText(await call(c, 'echo', { text: 'hi' }))).toBe('A: hi');
  });

  it("search, load, call: the client's listChanged handler sees the tool, with its title, annotations and output schema", async () => {
    const { gateway } = await setup();
    const changes = recordToolListChanges();
    const c = await client(gateway, changes.clientOptions);

    const found = await call(c, 'search_tools', { query: 'weather report for a city' });
    expect(found.isError).toBeFalsy();
    const hits = (found.structuredContent as { results: { name: string }[] }).results;
    expect(hits[0]?.name).toBe('weather_report');
    expect(JSON.parse(resultText(found))).toEqual(found.structuredContent);
    // A search result is not a load.
    expect(await names(c)).toEqual(META);

    const loaded = await call(c, 'load_tool', { toolName: 'weather_report' });
    expect(loaded.structuredContent).toMatchObject({ success: true, toolName: 'weather_report' });
    expect(await changes.change(1)).toEqual([...META, 'weather_report']);

    const offered = (await c.listTools()).tools.find((tool) => tool.name === 'weather_report');
    expect(offered).toMatchObject({
      title: 'Weather Report',
      annotations: { readOnlyHint: true, openWorldHint: true },
      outputSchema: { type: 'object', required: ['city', 'temperatureC', 'conditions'] },
      inputSchema: { type: 'object', required: ['city'] },
    });
    // The client validates structuredContent against the output schema it was shown.
    const report = await call(c, 'weather_report', { city: 'Paris' });
    expect(report.isError).toBeFalsy();
    expect(report.structuredContent).toEqual({ city: 'Paris', temperatureC: 21, conditions: 'sunny' });
    // Loading it again changes nothing: no second notification is needed.
    expect((await call(c, 'load_tool', { toolName: 'weather_report' })).structuredContent).toMatchObject({
      success: true,
      message: 'Tool "weather_report" is already loaded and available.',
    });
    expect(await names(c)).toEqual([...META, 'weather_report']);
  });

  it('keeps loaded tools per client session', async () => {
    const { gateway } = await setup();
    const a = await client(gateway);
    const b = await client(gateway);
    await call(a, 'load_tool', { toolName: 'whoami' });
    expect(await names(a)).toEqual([...META, 'whoami']);
    expect(await names(b)).toEqual(META);
    const refused = await call(b, 'whoami');
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toBe(
      'Tool "whoami" is not loaded. Call load_tool with {"toolName":"whoami"} first, then call it again.',
    );
    expect((await call(a, 'whoami')).structuredContent).toMatchObject({ pid: process.pid, label: 'A' });
  });

  it("answers the model's mistakes with isError results that say what to do", async () => {
    const { gateway } = await setup();
    const c = await client(gateway);
    const unknown = await call(c, 'weather_reprot', { city: 'Rome' });
    expect(unknown.isError).toBe(true);
    expect(resultText(unknown)).toMatch(/^Tool "weather_reprot" is not available\. Did you mean: weather_report/);

    await call(c, 'load_tool', { toolNames: ['weather_report', 'fail'] });
    const invalid = await call(c, 'weather_report', { city: 5 });
    expect(invalid.isError).toBe(true);
    expect(resultText(invalid)).toContain('Invalid arguments for tool "weather_report": city');
    // The server's own error result reaches the client as it was.
    const failed = await call(c, 'fail');
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the fixture failed on purpose' }] });
    // An empty query is answered as Mastra does: no hits, and what to try instead.
    const emptyQuery = await call(c, 'search_tools', { query: '' });
    expect(emptyQuery.isError).toBeFalsy();
    expect(emptyQuery.structuredContent).toEqual({
      results: [],
      message: 'No tools found matching "". Try different keywords.',
    });
    const noQuery = await call(c, 'search_tools', {});
    expect(noQuery.isError).toBe(true);
    expect(resultText(noQuery)).toContain('needs a "query" string');
  });

  it('answers unknown methods and malformed tools/call requests with protocol errors, and keeps serving', async () => {
    const { gateway } = await setup();
    const c = await client(gateway);
    const unknown = c.request({ method: 'tools/frobnicate', params: {} }, EmptyResultSchema);
    await expect(unknown).rejects.toSatisfy(
      (error: unknown) => error instanceof McpError && error.code === ErrorCode.MethodNotFound,
    );
    // The SDK rejects a tools/call without a name before it reaches the handler: -32602, naming the field.
    const malformed = c.request({ method: 'tools/call', params: { arguments: {} } } as never, EmptyResultSchema);
    await expect(malformed).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof McpError &&
        error.code === ErrorCode.InvalidParams &&
        error.message.includes('Invalid params for tools/call: params.name: Invalid input: expected string'),
    );
    const badCursor = c.request({ method: 'tools/list', params: { cursor: 5 } } as never, EmptyResultSchema);
    await expect(badCursor).rejects.toSatisfy(
      (error: unknown) => error instanceof McpError && error.code === ErrorCode.InvalidParams,
    );
    expect(await names(c)).toEqual(META);
  });

  it("follows the wrapped server's tools/list_changed: new tools become searchable, removed ones leave the session", async () => {
    const { inner, gateway } = await setup();
    const changes = recordToolListChanges();
    const c = await client(gateway, changes.clientOptions);
    const handle = (inner as McpServer).registerTool(
      'translate_text',
      {
        description: 'Translate a text into another language.',
        inputSchema: { text: z.string(), language: z.string() },
      },
      async ({ text, language }) => ({ content: [{ type: 'text', text: `${text} in ${language}` }] }),
    );
    await waitFor(() => gateway.catalog.has('translate_text'), 5_000, 'the new tool in the catalog');
    const found = await call(c, 'search_tools', { query: 'translate a text into French' });
    expect((found.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe('translate_text');
    await call(c, 'load_tool', { toolName: 'translate_text' });
    expect(await changes.change(1)).toEqual([...META, 'translate_text']);
    expect(resultText(await call(c, 'translate_text', { text: 'hello', language: 'French' }))).toBe('hello in French');

    handle.remove();
    // A removed tool changes what the session is offered: the client hears of it.
    expect(await changes.change(2)).toEqual(META);
    expect(gateway.catalog.has('translate_text')).toBe(false);
  });

  it('proxy mode: call_tool runs a tool without loading it and passes its own result through', async () => {
    const { gateway } = await setup({ mode: 'proxy' });
    const c = await client(gateway);
    expect(await names(c)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    const described = await call(c, 'describe_tool', { toolName: 'weather_report' });
    expect(described.structuredContent).toMatchObject({ name: 'weather_report', inputSchema: { required: ['city'] } });
    const result = await call(c, 'call_tool', { toolName: 'weather_report', arguments: { city: 'Rome' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ city: 'Rome', temperatureC: 21, conditions: 'sunny' });
    expect(await names(c)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  });

  it('fails with McpUpstreamError when the server cannot be connected', async () => {
    const broken = {
      connect: async () => {
        throw new Error('refused on purpose');
      },
      close: async () => {},
    };
    const error = await wrapMcpServer(broken, { name: 'broken', restart: false, logger: silentLogger }).catch(
      (thrown: unknown) => thrown,
    );
    expect(McpUpstreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'McpUpstreamError', server: 'broken', reason: 'unavailable' });
    expect((error as Error).message).toContain('The wrapped MCP server could not be connected');
    expect((error as Error).message).toContain('refused on purpose');
  });

  it('checks its arguments before anything starts: each bad option an InvalidOptionError naming it, a bad server an InvalidArgumentError', async () => {
    const inner = createFixtureServer('A');
    const bad: [string, () => Promise<unknown>][] = [
      ['options', () => wrapMcpServer(inner, 'fixture' as never)],
      ['name', () => wrapMcpServer(inner, { name: 7 as never })],
      ['pinned', () => wrapMcpServer(inner, { pinned: 'echo' as never })],
      ['callTimeoutMs', () => wrapMcpServer(inner, { callTimeoutMs: -1 })],
      ['mode', () => wrapMcpServer(inner, { mode: 'all' as never })],
    ];
    for (const [option, wrap] of bad) {
      const error = await wrap().catch((thrown: unknown) => thrown);
      expect(InvalidOptionError.isInstance(error), option).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
    }
    // The server is an argument, not an option.
    const notAServer = await wrapMcpServer({} as never).catch((thrown: unknown) => thrown);
    expect(InvalidArgumentError.isInstance(notAServer)).toBe(true);
    expect(notAServer).toMatchObject({ argument: 'server', message: expect.stringContaining('an McpServer') });
  });

  it('closing the gateway closes its client sessions', async () => {
    const { gateway } = await setup();
    const c = await client(gateway);
    let closed = false;
    c.onclose = () => {
      closed = true;
    };
    expect(gateway.searchServer.connectionCount).toBe(1);
    await gateway.close();
    expect(closed).toBe(true);
    expect(gateway.searchServer.connectionCount).toBe(0);
    expect(gateway.upstreams.get('fixture')?.status).toBe('closed');
  });
});
