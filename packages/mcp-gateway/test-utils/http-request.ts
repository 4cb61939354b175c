import { type IncomingHttpHeaders, request } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { withTimeout } from '../../mcp/test-utils/wait.js';

/** What {@link httpRequest} sends: any method, any headers (`Host` included), any body. */
export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Default 10 s. */
  timeoutMs?: number;
}

/** A raw HTTP answer: its status, headers and whole body. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The headers of a well-behaved Streamable HTTP client's POST. */
export const CLIENT_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

/**
 * One request over node:http, to send what a well-behaved client never would (fetch cannot set
 * `Host`). Resolves with the whole answer; rejects when it takes longer than the timeout.
 */
export function httpRequest(url: URL, { method = 'POST', headers = {}, body, timeoutMs = 10_000 }: RawRequest = {}) {
  let abort: (() => void) | undefined;
  const answer = new Promise<RawResponse>((resolve, reject) => {
    // A connection per request: node's keep-alive reuse after a GET that carried a body hangs up
    // (with any node:http server), which is not what these tests are about.
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    abort = () => req.destroy();
    req.on('error', reject);
    req.end(body);
  });
  return withTimeout(answer, timeoutMs, `${method} ${url.href}`).catch((error: unknown) => {
    abort?.();
    throw error;
  });
}

/** An `initialize` request body. */
export function initializeBody(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
}

/** The JSON-RPC messages of an answer: its JSON body, or the `data:` lines of its event stream. */
export function jsonRpcMessages(response: RawResponse): unknown[] {
  const type = response.headers['content-type'] ?? '';
  if (type.startsWith('text/event-stream')) {
    return response.body
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
      .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
  }
  if (response.body === '') return [];
  const parsed = JSON.parse(response.body) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** Opens a session with a raw `initialize` (and the `initialized` notification); returns its id. */
export async function openRawSession(url: URL, headers: Record<string, string> = {}): Promise<string> {
  const init = await httpRequest(url, { headers: { ...CLIENT_HEADERS, ...headers }, body: initializeBody() });
  const sessionId = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sessionId !== 'string') {
    throw new Error(`initialize failed: ${init.status} ${init.body}`);
  }
  await httpRequest(url, {
    headers: { ...CLIENT_HEADERS, ...headers, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return sessionId;
}
