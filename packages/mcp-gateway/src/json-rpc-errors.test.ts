// The same JSON-RPC error codes over stdio and over Streamable HTTP, for the same messages.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { waitFor } from '../../mcp/test-utils/wait.js';
import { createFixtureServer } from '../test-utils/fixture-server.js';
import {
  CLIENT_HEADERS,
  httpRequest,
  initializeBody,
  jsonRpcMessages,
  openRawSession,
} from '../test-utils/http-request.js';
import { wrapMcpServer } from './mcp-gateway.js';
import { serveHttp } from './serve-http.js';
import { serveStdio } from './serve-stdio.js';

/** Messages a client may get wrong, each answered with one JSON-RPC error. */
const MALFORMED = {
  'invalid JSON': '{"jsonrpc": "2.0", "id": 7, "method": ',
  'JSON that is not JSON-RPC': '{"hello": "world"}',
  'a message with an id and no method': '{"jsonrpc": "2.0", "id": 7}',
  'a method with a number for a name': '{"jsonrpc": "2.0", "id": 7, "method": 42}',
  'an unknown method': '{"jsonrpc": "2.0", "id": 7, "method": "tools/teleport"}',
  'an unknown tools/list cursor': '{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"cursor": "bogus"}}',
  'a prompt of no server': '{"jsonrpc": "2.0", "id": 7, "method": "prompts/get", "params": {"name": "nowhere__x"}}',
};

type ErrorAnswer = { error?: { code: number } };

describe('JSON-RPC errors', () => {
  const open = closedAfterEach();

  it('are the same over stdio and Streamable HTTP', async () => {
    const gateway = await wrapMcpServer(createFixtureServer('A', { extras: true }), { name: 'fixture' });
    open.push(gateway);

    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: ErrorAnswer[] = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) lines.push(JSON.parse(part) as ErrorAnswer);
    });
    const session = await serveStdio(gateway, { stdin, stdout });
    open.push(session);
    stdin.write(`${initializeBody(0)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await waitFor(() => lines.length >= 1, 5_000, 'the stdio initialize answer');

    const endpoint = await serveHttp(gateway, { port: 0 });
    open.push(endpoint);
    const sessionId = await openRawSession(endpoint.url);

    const codes: Record<string, { stdio?: number; http?: number }> = {};
    for (const [what, message] of Object.entries(MALFORMED)) {
      const before = lines.length;
      stdin.write(`${message}\n`);
      await waitFor(() => lines.length > before, 5_000, `the stdio answer to ${what}`);
      const http = await httpRequest(endpoint.url, {
        headers: { ...CLIENT_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: message,
      });
      const [answer] = jsonRpcMessages(http) as ErrorAnswer[];
      codes[what] = { stdio: lines[before]?.error?.code, http: answer?.error?.code };
    }
    expect(codes).toEqual({
      'invalid JSON': { stdio: -32700, http: -32700 },
      'JSON that is not JSON-RPC': { stdio: -32600, http: -32600 },
      'a message with an id and no method': { stdio: -32600, http: -32600 },
      'a method with a number for a name': { stdio: -32600, http: -32600 },
      'an unknown method': { stdio: -32601, http: -32601 },
      'an unknown tools/list cursor': { stdio: -32602, http: -32602 },
      'a prompt of no server': { stdio: -32602, http: -32602 },
    });
  });
});
