import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '@toolscout/core/internal';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../test-utils/fixture-server.js';
import { httpRequest, jsonRpcMessages, openRawSession, type RawResponse } from '../test-utils/http-request.js';
import { type McpGateway, wrapMcpServer } from './mcp-gateway.js';
import { type HttpEndpoint, serveHttp } from './serve-http.js';

/** The methods the gateway answers whatever its servers offer; any other request method gets -32601. */
const HANDLED = ['initialize', 'ping', 'tools/list', 'tools/call'];
/** The methods it answers when its servers offer resources, prompts, completions and logs. */
const PASS_THROUGH = [
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
];
const METHODS = [...HANDLED, ...PASS_THROUGH, 'tools/teleport', ''];
/** Transport-level codes of the SDK (no JSON-RPC code fits a session or HTTP problem). */
const TRANSPORT_CODES = [-32000, -32001];
const RPC_CODES = [ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.MethodNotFound, ErrorCode.InvalidParams];
/** What a well-formed answer's status may be: success, accepted, or a client error the spec names. */
const STATUSES = [200, 202, 400, 404, 405, 406, 413, 415];

/** Keys that would pollute prototypes if copied carelessly, with a marker value. */
const HOSTILE_OBJECTS = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}},"toString":"x","hasOwnProperty":1}',
  '{"prototype":{"polluted":"yes"},"__defineGetter__":null}',
];

type Session = 'valid' | 'none' | 'bogus';

/** A request to send, and what kind of body it carries (for the oracle). */
interface Probe {
  method: string;
  session: Session;
  headers: Record<string, string>;
  body: string | undefined;
}

function parsed(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text ?? '') };
  } catch {
    return { ok: false };
  }
}

/** Clearly not a JSON-RPC message, whatever the schema's details: no method, no result, no error. */
function plainlyNotJsonRpc(value: unknown): boolean {
  const messages = Array.isArray(value) ? value : [value];
  if (messages.length === 0) return true;
  return messages.some(
    (message) =>
      !isRecord(message) || (typeof message.method !== 'string' && !('result' in message || 'error' in message)),
  );
}

/** A strictly valid request (string method, string or integer id, object params, nothing else). */
function validRequest(value: unknown): value is { id: string | number; method: string } {
  if (!isRecord(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  if (!(typeof value.id === 'string' || Number.isSafeInteger(value.id))) return false;
  if (value.params !== undefined && !isRecord(value.params)) return false;
  return Object.keys(value).every((key) => ['jsonrpc', 'id', 'method', 'params'].includes(key));
}

const params = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('search_tools', 'load_tool', 'echo', 'nope'), fc.jsonValue()),
      arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      cursor: fc.jsonValue(),
      uri: fc.oneof(fc.constantFrom('fixture://P/notes', 'fixture://P/items/apple', 'nowhere'), fc.jsonValue()),
      level: fc.oneof(fc.constantFrom('debug', 'error'), fc.jsonValue()),
      ref: fc.oneof(
        fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource'), name: fc.string() }),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(fc.string(), fc.jsonValue()),
);
const method = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...METHODS) }, fc.string());

/** Requests and notifications of the right shape: their method and params decide the answer. */
const wellShaped = fc.record(
  {
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.integer(), fc.string()),
    method,
    params,
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

/** Anything near JSON-RPC: wrong versions, ids, methods, params, extra members. */
const nearJsonRpc = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.integer()),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.jsonValue()),
    method: fc.oneof(method, fc.integer()),
    params: fc.oneof(params, fc.jsonValue()),
    result: fc.jsonValue(),
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), fc.jsonValue()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const bodies = fc.oneof(
  { weight: 4, arbitrary: wellShaped.map((message) => JSON.stringify(message)) },
  { weight: 3, arbitrary: nearJsonRpc.map((message) => JSON.stringify(message)) },
  {
    weight: 1,
    arbitrary: fc.array(fc.oneof(wellShaped, nearJsonRpc), { maxLength: 3 }).map((batch) => JSON.stringify(batch)),
  },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  // Truncated JSON-RPC.
  {
    weight: 1,
    arbitrary: fc
      .tuple(wellShaped, fc.nat())
      .map(([message, cut]) => JSON.stringify(message).slice(0, cut % (JSON.stringify(message).length + 1))),
  },
);

const GOOD_HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

const anyHeaders = fc.record(
  {
    accept: fc.oneof(
      fc.constant('application/json, text/event-stream'),
      fc.constant('application/json, text/event-stream'),
      fc.constantFrom('application/json', 'text/event-stream', '*/*'),
      fc.string(),
    ),
    'content-type': fc.oneof(
      fc.constant('application/json'),
      fc.constant('application/json'),
      fc.constantFrom('text/plain', 'application/json; charset=utf-8'),
      fc.string(),
    ),
    'mcp-protocol-version': fc.oneof(fc.constant(LATEST_PROTOCOL_VERSION), fc.string()),
  },
  { requiredKeys: [] },
);

/** Mostly what a client sends, else anything near it. */
const headers = fc.oneof({ weight: 3, arbitrary: fc.constant(GOOD_HEADERS) }, anyHeaders);

/** Header values node:http accepts (it throws on control characters before sending). */
function sendable(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => /^[\x20-\x7e]*$/.test(value)));
}

function wellFormedHeaders(sent: Record<string, string>): boolean {
  return (
    sent.accept === 'application/json, text/event-stream' &&
    sent['content-type']?.startsWith('application/json') === true &&
    (sent['mcp-protocol-version'] === undefined || sent['mcp-protocol-version'] === LATEST_PROTOCOL_VERSION)
  );
}

/** Every message of an answer is a JSON-RPC 2.0 response with a result, or an error of a known code. */
function expectWellFormed(answer: RawResponse): { code?: number; id?: unknown; result?: unknown }[] {
  expect(STATUSES).toContain(answer.status);
  if (answer.status === 202) {
    expect(answer.body).toBe('');
    return [];
  }
  const messages = jsonRpcMessages(answer);
  expect(messages.length).toBeGreaterThan(0);
  return messages.map((message) => {
    expect(isRecord(message) && message.jsonrpc === '2.0').toBe(true);
    const { error, result, id } = message as {
      error?: { code: unknown; message: unknown };
      result?: unknown;
      id?: unknown;
    };
    if (error === undefined) {
      expect(isRecord(result)).toBe(true);
      return { id, result };
    }
    expect(typeof error.message).toBe('string');
    expect([...RPC_CODES, ...TRANSPORT_CODES]).toContain(error.code);
    return { id, code: error.code as number };
  });
}

describe.each([
  { offer: 'tools only', extras: false, handled: HANDLED },
  { offer: 'tools, resources, prompts, completions and logs', extras: true, handled: [...HANDLED, ...PASS_THROUGH] },
])(
  "the HTTP gateway's JSON-RPC surface under arbitrary input (fast-check), servers offering $offer",
  {
    timeout: 60_000,
  },
  ({ extras, handled }) => {
    let gateway: McpGateway;
    let endpoint: HttpEndpoint;
    let sessionId: string;

    beforeAll(async () => {
      gateway = await wrapMcpServer(createFixtureServer('P', { extras }), { name: 'fixture' });
      endpoint = await serveHttp(gateway, { port: 0 });
      sessionId = await openRawSession(endpoint.url);
    });

    afterAll(async () => {
      await endpoint?.close();
      await gateway?.close();
    });

    function send(probe: Probe): Promise<RawResponse> {
      const sessionHeader: Record<string, string> =
        probe.session === 'valid'
          ? { 'mcp-session-id': sessionId }
          : probe.session === 'bogus'
            ? { 'mcp-session-id': 'no-such-session' }
            : {};
      return httpRequest(endpoint.url, {
        method: probe.method,
        headers: { ...probe.headers, ...sessionHeader },
        body: probe.body,
        timeoutMs: 5_000,
      });
    }

    /** The codes the oracle expects for a POST body, beyond well-formedness. */
    function expectRightCodes(probe: Probe, answer: RawResponse): void {
      const answers = expectWellFormed(answer);
      if (probe.session === 'bogus') {
        expect(answer.status).toBe(404);
        return;
      }
      const body = parsed(probe.body);
      if (!body.ok) {
        expect({ status: answer.status, codes: answers.map((a) => a.code) }).toEqual({
          status: 400,
          codes: [ErrorCode.ParseError],
        });
        return;
      }
      if (plainlyNotJsonRpc(body.value)) {
        // The same code stdio answers (issue #16): Invalid Request, not Parse error.
        expect({ status: answer.status, codes: answers.map((a) => a.code) }).toEqual({
          status: 400,
          codes: [ErrorCode.InvalidRequest],
        });
        return;
      }
      const request = body.value;
      if (probe.session !== 'valid' || !wellFormedHeaders(probe.headers) || !validRequest(request)) return;
      if (request.method === 'initialize') return; // already initialized: a -32600 from the transport
      expect(answer.status).toBe(200);
      expect(answers).toHaveLength(1);
      const [reply] = answers;
      expect(reply!.id).toEqual(request.id);
      if (!handled.includes(request.method)) expect(reply!.code).toBe(ErrorCode.MethodNotFound);
      else if (reply!.code !== undefined) expect(reply!.code).toBe(ErrorCode.InvalidParams);
    }

    it('answers any POST body and headers with a well-formed JSON-RPC answer of the right code', async () => {
      await fc.assert(
        fc.asyncProperty(
          bodies,
          headers,
          fc.constantFrom<Session>('valid', 'valid', 'valid', 'valid', 'none', 'bogus'),
          async (body, generated, session) => {
            const probe: Probe = { method: 'POST', session, headers: sendable(generated), body };
            expectRightCodes(probe, await send(probe));
          },
        ),
        { numRuns: 200 },
      );
    });

    it("answers a resource URI that is not absolute with -32602, never the upstream parser's -32603 (found by fast-check)", async () => {
      for (const uri of ['nowhere', '', '//no-scheme', 'fixture+nowhere']) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri } });
        const headers = {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': '2025-11-25',
        };
        const probe: Probe = { method: 'POST', session: 'valid', headers, body };
        expectRightCodes(probe, await send(probe));
      }
    });

    it('answers other HTTP methods without a session with a well-formed error', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'),
          fc.constantFrom<Session>('none', 'bogus'),
          headers,
          fc.option(bodies, { nil: undefined }),
          async (method, session, generated, body) => {
            const answer = await send({ method, session, headers: sendable(generated), body });
            expect(expectWellFormed(answer).every((reply) => reply.code !== undefined)).toBe(true);
            expect(answer.status).toBe(session === 'bogus' ? 404 : method === 'GET' || method === 'DELETE' ? 400 : 405);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('copies no __proto__ or constructor payload onto Object.prototype', async () => {
      const templates = [
        (hostile: string, id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"${LATEST_PROTOCOL_VERSION}","capabilities":${hostile},"clientInfo":{"name":"x","version":"1","__proto__":{"polluted":"yes"}}}}`,
        (hostile: string, id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"echo","__proto__":${hostile}}}}`,
        (hostile: string, id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"load_tool","arguments":${hostile},"_meta":${hostile}}}`,
        (hostile: string, id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":${hostile}}`,
        (hostile: string, id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${hostile}}`,
        (hostile: string, id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"prompts/get","params":{"name":"greet","arguments":${hostile}}}`,
        (hostile: string, id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":{"uri":"fixture://P/notes","_meta":${hostile}}}`,
        (hostile: string, id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"resources/subscribe","params":${hostile}}`,
        (hostile: string) => `[${hostile},{"jsonrpc":"2.0","method":"notifications/cancelled","params":${hostile}}]`,
        (hostile: string) => hostile,
      ];
      const before = Object.getOwnPropertyNames(Object.prototype).sort();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...templates),
          fc.constantFrom(...HOSTILE_OBJECTS),
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.constantFrom<Session>('valid', 'none'),
          async (template, hostile, id, session) => {
            const body = template(hostile, id);
            const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
            expectWellFormed(await send({ method: 'POST', session, headers, body }));
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
            expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
          },
        ),
        { numRuns: 100 },
      );
    });

    it('is still alive afterwards: a normal client initializes and lists the tools', async () => {
      const client = new Client({ name: 'after-the-storm', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(endpoint.url));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'load_tool']);
      await client.close();
    });
  },
);
