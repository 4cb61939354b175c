import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
const CALL_TIMEOUT_MS = 1_500;

describe('the toolscout-mcp gateway over stdio, with the official Client and real upstream servers', {
  timeout: 30_000,
}, () => {
  let dir: string;
  let transport: StdioClientTransport;
  let client: Client;
  let gatewayPid: number;
  let stderr = '';
  let children: number[] = [];
  const changes = recordToolListChanges();

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await withTimeout(
      client.callTool({ name, arguments: args }),
      15_000,
      `tools/call ${name}`,
    )) as CallToolResult;
  }

  async function searchNames(query: string): Promise<string[]> {
    const result = await call('search_tools', { query });
    return (result.structuredContent as { results: { name: string }[] }).results.map((hit) => hit.name);
  }

  beforeAll(async () => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-stdio-'));
    mkdirSync(join(dir, 'files'));
    writeFileSync(join(dir, 'files', 'notes.txt'), 'remember the milk\n');
    const config = writeConfig(dir, {
      everything: nodeServer(REFERENCE_SERVERS.everything, ['stdio']),
      memory: nodeServer(REFERENCE_SERVERS.memory, [], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
      filesystem: nodeServer(REFERENCE_SERVERS.filesystem, [join(dir, 'files')]),
      fixture: nodeServer(FIXTURE_SERVER, ['--label', 'F']),
      broken: nodeServer(FIXTURE_SERVER, [], { FIXTURE_CRASH_ON_START: '1' }),
      hanging: nodeServer(FIXTURE_SERVER, [], { FIXTURE_HANG_ON_START: '1' }),
    });
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [GATEWAY_BIN, '--config', config, '--timeout', String(CALL_TIMEOUT_MS), '--connect-timeout', '8000'],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'gateway-test', version: '1.0.0' }, changes.clientOptions);
    await withTimeout(client.connect(transport), 25_000, 'the gateway to start and initialize');
    gatewayPid = transport.pid!;
  }, 30_000);

  afterAll(async () => {
    // Normally already closed by the last test; this is the safety net.
    for (const pid of [...children, ...(gatewayPid ? descendantPids(gatewayPid) : [])]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    await client?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts every server that can start; one that crashes and one that hangs do not take the others down', async () => {
    expect(await client.listTools()).toMatchObject({ tools: META.map((name) => ({ name })) });
    expect(stderr).toContain('server "broken" is down: failed to start');
    expect(stderr).toContain('fixture: crashing on start, as asked');
    expect(stderr).toMatch(/server "hanging" is down: failed to start: no answer within 8000 ms/);
    expect(stderr).toMatch(/4\/6 server\(s\) up/);
    expect(stderr).toMatch(/serving \d+ tool\(s\) from 4\/6 server\(s\) on stdio/);
  });

  it('searches, loads and calls tools across servers under namespaced ids', async () => {
    // Two servers have an "echo": the namespace keeps them apart.
    expect(await searchNames('echo a message back')).toEqual(
      expect.arrayContaining(['everything__echo', 'fixture__echo']),
    );
    expect((await searchNames('create entities in the knowledge graph'))[0]).toBe('memory__create_entities');
    expect(await searchNames('list the files of a directory')).toContain('filesystem__list_directory');

    const loaded = await call('load_tool', {
      toolNames: [
        'memory__create_entities',
        'memory__read_graph',
        'filesystem__list_directory',
        'everything__echo',
        'fixture__whoami',
      ],
    });
    expect(loaded.structuredContent).toMatchObject({ success: true, loadedCount: 5 });
    expect(loaded.structuredContent).not.toHaveProperty('notFound');
    const offered = [
      ...META,
      'memory__create_entities',
      'memory__read_graph',
      'filesystem__list_directory',
      'everything__echo',
      'fixture__whoami',
    ];
    expect(await changes.change(1, 10_000)).toEqual(offered);
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual(offered);
    expect(tools.find((tool) => tool.name === 'filesystem__list_directory')).toMatchObject({
      title: 'List Directory',
      annotations: { readOnlyHint: true },
    });
    expect(tools.find((tool) => tool.name === 'memory__create_entities')?.outputSchema).toMatchObject({
      type: 'object',
    });

    const created = await call('memory__create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(created.isError).toBeFalsy();
    const graph = await call('memory__read_graph');
    expect(JSON.stringify(graph.structuredContent)).toContain('wrote the first program');
    expect(resultText(await call('filesystem__list_directory', { path: join(dir, 'files') }))).toContain('notes.txt');
    expect(resultText(await call('everything__echo', { message: 'hi' }))).toContain('hi');
  });

  it('re-indexes when an upstream sends tools/list_changed: a tool added at runtime is found, loaded and called', async () => {
    await call('load_tool', { toolNames: ['fixture__add_tool', 'fixture__remove_tool'] });
    await call('fixture__add_tool', {
      name: 'summarize_news',
      description: 'Summarize the news headlines of the day.',
    });
    await waitFor(
      async () => (await searchNames('summarize news headlines')).includes('fixture__summarize_news'),
      10_000,
      'the new tool in search',
    );
    await call('load_tool', { toolName: 'fixture__summarize_news' });
    expect(resultText(await call('fixture__summarize_news', { input: 'today' }))).toBe('summarize_news ran with today');
    const heard = changes.lists.length;
    await call('fixture__remove_tool', { name: 'summarize_news' });
    // The upstream's list_changed removes it from the catalog; the client's handler hears of it.
    const latest = await waitFor(
      () =>
        changes.lists.length > heard &&
        !changes.lists.at(-1)!.includes('fixture__summarize_news') &&
        changes.lists.at(-1),
      10_000,
      "the client's listChanged handler to see the tool gone",
    );
    expect(latest).toContain('fixture__whoami');
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('fixture__summarize_news');
  });

  it('fails a call that outlives the per-call timeout with a clear error; the server keeps serving', async () => {
    await call('load_tool', { toolName: 'fixture__sleep' });
    const slow = await call('fixture__sleep', { ms: 20_000 });
    expect(slow.isError).toBe(true);
    expect(resultText(slow)).toBe(
      `Tool "fixture__sleep" failed: MCP server "fixture" did not answer "sleep" within ${CALL_TIMEOUT_MS} ms (the per-call timeout).`,
    );
    expect((await call('fixture__whoami')).isError).toBeFalsy();
  });

  it('isolates an upstream killed mid-session: others keep working, its tools fail clearly, then it comes back', async () => {
    const before = (await call('fixture__whoami')).structuredContent as { pid: number };
    expect(isAlive(before.pid)).toBe(true);
    process.kill(before.pid, 'SIGKILL');
    const down = await waitFor(
      async () => {
        const result = await call('fixture__whoami');
        return result.isError ? resultText(result) : undefined;
      },
      10_000,
      'calls to the killed server to fail',
    );
    expect(down).toMatch(/^Tool "fixture__whoami" failed: MCP server "fixture" (is unavailable|closed the connection)/);
    // The other servers are untouched.
    expect(JSON.stringify((await call('memory__read_graph')).structuredContent)).toContain('Ada');
    // It is restarted with backoff, and the session's loaded tools still work.
    const after = await waitFor(
      async () => {
        const result = await call('fixture__whoami');
        return result.isError ? undefined : (result.structuredContent as { pid: number });
      },
      15_000,
      'the killed server to come back',
    );
    expect(after.pid).not.toBe(before.pid);
    expect(stderr).toContain('server "fixture" is down: the connection closed');
    expect(await client.listTools()).toMatchObject({
      tools: expect.arrayContaining([expect.objectContaining({ name: 'fixture__whoami' })]),
    });
  });

  it('shuts down when stdin closes and leaves no child process', async () => {
    children = descendantPids(gatewayPid);
    expect(children.length).toBeGreaterThanOrEqual(4); // everything, memory, filesystem, fixture (+ restarting ones)
    await withTimeout(client.close(), 15_000, 'the client to close');
    await waitFor(() => !isAlive(gatewayPid), 15_000, 'the gateway to exit');
    await waitFor(() => children.every((pid) => !isAlive(pid)), 10_000, `no child left (${children.join(', ')})`);
    expect(stderr).toContain('shutting down (stdin closed)');
  });
});

describe('the gateway answers malformed JSON-RPC on stdio with protocol errors', { timeout: 30_000 }, () => {
  let dir: string;
  let gateway: ChildProcessWithoutNullStreams;
  const lines: unknown[] = [];
  let stderr = '';

  beforeAll(() => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-raw-'));
    const config = writeConfig(dir, { fixture: nodeServer(FIXTURE_SERVER) });
    gateway = spawn(process.execPath, [GATEWAY_BIN, '--config', config]);
    createInterface({ input: gateway.stdout }).on('line', (line) => lines.push(JSON.parse(line)));
    gateway.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
  });

  afterAll(() => {
    if (gateway.exitCode === null) gateway.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (text: string) => gateway.stdin.write(`${text}\n`);
  const answer = (count: number) =>
    waitFor(() => lines.length >= count && lines[count - 1], 15_000, `answer #${count}`);

  it('answers bad JSON, non-JSON-RPC and unknown methods, keeps serving, and stops on SIGINT without leftovers', async () => {
    send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(await answer(1)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not valid JSON' },
    });
    send('{"hello": "world"}');
    expect(await answer(2)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
    });
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect(await answer(3)).toMatchObject({
      id: 3,
      result: { serverInfo: { name: 'toolscout-mcp' }, capabilities: { tools: { listChanged: true } } },
    });
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'resources/teleport', params: {} }));
    expect(await answer(4)).toMatchObject({ id: 4, error: { code: -32601 } });
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'load_tool', arguments: { toolName: 'nope_nothing' } },
      }),
    );
    expect(await answer(5)).toMatchObject({
      id: 5,
      result: { structuredContent: { success: false, toolName: 'nope_nothing' } },
    });
    send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }));
    expect(await answer(6)).toMatchObject({
      id: 6,
      result: { tools: [{ name: 'search_tools' }, { name: 'load_tool' }] },
    });
    expect(stderr).toContain('stdin: Parse error');

    const children = descendantPids(gateway.pid!);
    expect(children.length).toBe(1);
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    gateway.kill('SIGINT');
    expect(await withTimeout(exited, 15_000, 'the gateway to exit on SIGINT')).toBe(0);
    await waitFor(() => children.every((pid) => !isAlive(pid)), 10_000, 'no child left');
    expect(stderr).toContain('shutting down (SIGINT)');
  });
});
