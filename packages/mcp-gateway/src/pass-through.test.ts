// What the gateway passes through besides tools, seen by the MCP SDK's own Client: two fixture
// servers as child processes (stdio), each with resources, prompts, completions, logging,
// progress and sampling (fixture-server.ts --extras).
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolResult,
  CreateMessageRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type Progress,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { resultText } from '../../mcp/test-utils/mcp-harness.js';
import { waitFor, withTimeout } from '../../mcp/test-utils/wait.js';
import { FIXTURE_SERVER, nodeServer } from '../test-utils/gateway-process.js';
import { silentLogger } from './logger.js';
import { McpGateway, type McpGatewayOptions } from './mcp-gateway.js';
import { serveHttp } from './serve-http.js';

const fixture = (label: string) => nodeServer(FIXTURE_SERVER, ['--label', label, '--extras']);
const PINNED = [
  'a__touch_resource',
  'a__count_slowly',
  'a__last_count',
  'a__ask_model',
  'a__log_message',
  'b__add_prompt',
];

async function startGateway(options: Partial<McpGatewayOptions> = {}): Promise<McpGateway> {
  const gateway = new McpGateway({
    servers: { a: fixture('A'), b: fixture('B') },
    pinned: PINNED,
    logger: silentLogger,
    ...options,
  });
  await gateway.start();
  return gateway;
}

function isInvalidParams(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.InvalidParams;
}

describe('the gateway passes through what its upstreams offer besides tools', { timeout: 30_000 }, () => {
  let gateway: McpGateway;
  const open = closedAfterEach();

  /** A client session of the gateway, connected in memory. */
  async function connect(
    options: ClientOptions = {},
    via: McpGateway = gateway,
    setUp?: (client: Client) => void,
  ): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await via.connect(serverSide);
    const client = new Client({ name: 'pass-through-test', version: '1.0.0' }, options);
    setUp?.(client);
    await client.connect(clientSide);
    open.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await withTimeout(client.callTool({ name, arguments: args }), 15_000, name)) as CallToolResult;
  }

  beforeAll(async () => {
    gateway = await startGateway();
  }, 30_000);

  afterAll(() => gateway?.close());

  it('advertises what the upstreams offer', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: {},
      completions: {},
      logging: {},
    });
  });

  it('lists the resources and templates of two upstreams, namespaced, and reads each', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['a+fixture://A/notes', 'b+fixture://B/notes']);
    expect(resources[1]).toMatchObject({ name: 'notes', title: 'Notes of B', mimeType: 'text/plain' });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'a+fixture://A/items/{id}',
      'b+fixture://B/items/{id}',
    ]);
    expect(await client.readResource({ uri: 'a+fixture://A/notes' })).toMatchObject({
      contents: [{ uri: 'a+fixture://A/notes', mimeType: 'text/plain', text: 'notes of A' }],
    });
    expect(await client.readResource({ uri: 'b+fixture://B/items/apple' })).toMatchObject({
      contents: [{ uri: 'b+fixture://B/items/apple', text: 'item apple of B' }],
    });
    await expect(client.readResource({ uri: 'c+fixture://C/notes' })).rejects.toSatisfy(isInvalidParams);
  });

  it('routes resource updates to the sessions subscribed to them, and unsubscribes upstream after the last one', async () => {
    const [subscriber, other] = [await connect(), await connect()];
    const updates = { subscriber: [] as string[], other: [] as string[] };
    subscriber.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void updates.subscriber.push(n.params.uri),
    );
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.other.push(n.params.uri));
    await subscriber.subscribeResource({ uri: 'a+fixture://A/notes' });
    await other.subscribeResource({ uri: 'b+fixture://B/notes' });

    expect(resultText(await call(other, 'a__touch_resource', { uri: 'fixture://A/notes' }))).toBe(
      'updated fixture://A/notes',
    );
    await waitFor(() => updates.subscriber.length > 0, 5_000, 'the update notification');
    expect(updates.subscriber).toEqual(['a+fixture://A/notes']);
    expect(updates.other).toEqual([]);

    await subscriber.unsubscribeResource({ uri: 'a+fixture://A/notes' });
    expect(resultText(await call(other, 'a__touch_resource', { uri: 'fixture://A/notes' }))).toBe(
      'nobody subscribed to fixture://A/notes',
    );
  });

  it('lists and gets the prompts of both upstreams, and completes prompt and template arguments', async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['a__greet', 'b__greet']);
    expect(prompts[0]).toMatchObject({ title: 'Greeting of A', arguments: [{ name: 'name', required: true }] });
    const prompt = await client.getPrompt({ name: 'b__greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada, from B' } }]);
    const names = await client.complete({
      ref: { type: 'ref/prompt', name: 'a__greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(names.completion.values).toEqual(['Ada', 'Alan']);
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'b+fixture://B/items/{id}' },
      argument: { name: 'id', value: 'ap' },
    });
    expect(ids.completion.values).toEqual(['apple', 'apricot']);
    await expect(client.getPrompt({ name: 'greet' })).rejects.toSatisfy(isInvalidParams);
  });

  it("tells every session when an upstream's prompts change", async () => {
    const changes: string[][] = [];
    const watcher = await connect({
      listChanged: {
        prompts: {
          debounceMs: 0,
          onChanged: (error, prompts) => {
            if (!error) changes.push((prompts ?? []).map((prompt) => prompt.name));
          },
        },
      },
    });
    const caller = await connect();
    expect(resultText(await call(caller, 'b__add_prompt', { name: 'farewell' }))).toBe('added prompt farewell');
    const changed = await waitFor(() => changes.at(-1), 5_000, 'prompts/list_changed');
    expect(changed).toEqual(['a__greet', 'b__greet', 'b__farewell']);
    expect((await watcher.getPrompt({ name: 'b__farewell' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'farewell of B',
    });
  });

  it('carries progress of a forwarded call back to the client, and its cancellation to the upstream', async () => {
    const client = await connect();
    const progress: Progress[] = [];
    const done = await client.callTool({ name: 'a__count_slowly', arguments: { steps: 3, delayMs: 10 } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    expect(resultText(done as CallToolResult)).toBe('finished 3 steps');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);

    const abort = new AbortController();
    const cancelled = client.callTool({ name: 'a__count_slowly', arguments: { steps: 200, delayMs: 50 } }, undefined, {
      signal: abort.signal,
      onprogress: () => abort.abort('the user changed their mind'),
    });
    await expect(cancelled).rejects.toThrow();
    await waitFor(
      async () => /^cancelled at step \d+$/.test(resultText(await call(client, 'a__last_count'))),
      10_000,
      'the upstream to see the cancellation',
    );
  });

  it("sends an upstream's sampling request to the session whose call caused it, and refuses it for a client without sampling", async () => {
    const answering = (name: string) => (client: Client) =>
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant',
        content: { type: 'text', text: `yes, says ${name}` },
        model: 'scripted',
      }));
    const clients = [
      await connect({ capabilities: { sampling: {} } }, gateway, answering('first')),
      await connect({ capabilities: { sampling: {} } }, gateway, answering('second')),
    ];
    expect(resultText(await call(clients[1]!, 'a__ask_model', { question: 'ok?' }))).toBe('A heard: yes, says second');
    expect(resultText(await call(clients[0]!, 'a__ask_model', { question: 'ok?' }))).toBe('A heard: yes, says first');

    const withoutSampling = await connect();
    const refused = await call(withoutSampling, 'a__ask_model', { question: 'ok?' });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('does not support sampling');
  });

  it('forwards the logs of a call to the session that made it, at the level it set', async () => {
    const [listener, other] = [await connect(), await connect()];
    const heard = { listener: [] as unknown[], other: [] as unknown[] };
    listener.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.listener.push(n.params));
    other.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.other.push(n.params));
    await listener.setLoggingLevel('warning');
    await other.setLoggingLevel('debug');
    await call(listener, 'a__log_message', { level: 'info', text: 'too detailed' });
    await call(listener, 'a__log_message', { level: 'error', text: 'disk full' });
    await call(other, 'a__log_message', { level: 'debug', text: 'for the other one' });
    await waitFor(() => heard.listener.length > 0 && heard.other.length > 0, 5_000, 'the log messages');
    expect(heard.listener).toEqual([{ level: 'error', logger: 'a/fixture', data: 'disk full' }]);
    expect(heard.other).toEqual([{ level: 'debug', logger: 'a/fixture', data: 'for the other one' }]);
  });

  it('pages tools/list and the merged lists with a small page size, and answers an unknown cursor with -32602', async () => {
    const small = await startGateway({ pageSize: 2 });
    open.push(small);
    const client = await connect({}, small);
    const toolPages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      toolPages.push(page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined && toolPages.length < 10);
    // Pinned tools come in catalog order, which depends on which upstream started first.
    expect(toolPages.map((page) => page.length)).toEqual([2, 2, 2, 2]);
    expect(toolPages[0]).toEqual(['search_tools', 'load_tool']);
    expect(toolPages.flat().slice(2).sort()).toEqual([...PINNED].sort());

    const first = await client.listPrompts();
    expect(first.prompts.map((prompt) => prompt.name)).toEqual(['a__greet', 'b__greet']);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates).toHaveLength(2);

    await expect(client.listTools({ cursor: 'bogus' })).rejects.toSatisfy(isInvalidParams);
    const toolsCursor = (await client.listTools()).nextCursor!;
    await expect(client.listResources({ cursor: toolsCursor })).rejects.toSatisfy(isInvalidParams);
    await expect(client.listPrompts({ cursor: 'x'.repeat(5000) })).rejects.toSatisfy(isInvalidParams);
  });

  it('does the same over Streamable HTTP: progress and sampling travel on the stream of the call', async () => {
    const endpoint = await serveHttp(gateway, { port: 0 });
    open.push(endpoint);
    const clients: Client[] = [];
    for (const name of ['first', 'second']) {
      const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant',
        content: { type: 'text', text: `yes, says ${name} over HTTP` },
        model: 'scripted',
      }));
      await client.connect(new StreamableHTTPClientTransport(endpoint.url));
      open.push(client);
      clients.push(client);
    }
    const [first, second] = clients as [Client, Client];
    const [a, b] = await Promise.all([
      call(first, 'a__ask_model', { question: 'ok?' }),
      call(second, 'a__ask_model', { question: 'ok?' }),
    ]);
    // Two sessions waiting on the same server at once: a request is refused rather than guessed,
    // so neither client ever sees the other's answer.
    for (const [result, name, other] of [
      [a, 'first', 'second'],
      [b, 'second', 'first'],
    ] as const) {
      const text = resultText(result);
      expect(text).not.toContain(`says ${other}`);
      expect(text === `A heard: yes, says ${name} over HTTP` || text.includes('cannot tell which client session')).toBe(
        true,
      );
    }
    expect(resultText(await call(second, 'a__ask_model', { question: 'ok?' }))).toBe(
      'A heard: yes, says second over HTTP',
    );
    const progress: Progress[] = [];
    await second.callTool({ name: 'a__count_slowly', arguments: { steps: 2, delayMs: 10 } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    expect(progress.map((p) => p.progress)).toEqual([1, 2]);
  });

  it('refuses a page size that is not a positive whole number', () => {
    expect(() => new McpGateway({ servers: {}, pageSize: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid-option', option: 'pageSize' }),
    );
  });

  it('refuses a subscription to a server that does not offer them, naming it', async () => {
    const plain = new McpServer({ name: 'plain', version: '1.0.0' });
    plain.registerResource('readme', 'memo://readme', { description: 'A read-only memo.' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'read me' }],
    }));
    const mixed = await startGateway({ servers: { a: fixture('A'), plain: { server: plain } } });
    open.push(mixed);
    const client = await connect({}, mixed);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    expect(await client.readResource({ uri: 'plain+memo://readme' })).toMatchObject({
      contents: [{ uri: 'plain+memo://readme', text: 'read me' }],
    });
    await expect(client.subscribeResource({ uri: 'plain+memo://readme' })).rejects.toSatisfy(
      (error: unknown) =>
        isInvalidParams(error) && /"plain" does not support resource subscriptions/.test(String(error)),
    );
  });

  it('pages a merged list across upstreams', async () => {
    const tiny = await startGateway({ pageSize: 1 });
    open.push(tiny);
    const client = await connect({}, tiny);
    const first = await client.listResources();
    expect(first.resources.map((resource) => resource.uri)).toEqual(['a+fixture://A/notes']);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources.map((resource) => resource.uri)).toEqual(['b+fixture://B/notes']);
    expect(second.nextCursor).toBeUndefined();
  });
});
