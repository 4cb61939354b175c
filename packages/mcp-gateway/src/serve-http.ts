import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { checkOptionRules, isWholeNumberFrom, type OptionRule } from '@toolscout/core/internal';
import type { McpConnectable } from '@toolscout/mcp';
import { McpConnectionLimitError } from '@toolscout/mcp';
import { type AccessRefusal, createAccessCheck } from './http-access.js';
import { type Logger, silentLogger } from './logger.js';

export { isLoopback } from './http-access.js';

export interface ServeHttpOptions {
  /** The port; 0 picks a free one (see the returned `url`). */
  port: number;
  /**
   * The address to listen on. Default `127.0.0.1` (loopback only). Any other address (`0.0.0.0`,
   * `::`, a LAN address) needs `authToken`.
   */
  host?: string;
  /** The MCP endpoint's path. Default `/mcp`. */
  path?: string;
  /**
   * Sessions without a request for this long are closed (a request still running keeps its session
   * open), and their loaded tools dropped. Default 30 minutes.
   */
  sessionIdleMs?: number;
  /**
   * The most client sessions open at once; an `initialize` beyond it gets 503 with `Retry-After`.
   * Default 1,000.
   */
  maxSessions?: number;
  /** Largest request body. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Host names or addresses (no port, no scheme) the endpoint answers to besides loopback and its
   * own address, e.g. `mcp.example.com`. Any other `Host` header gets 403 (against DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /**
   * Browser origins accepted besides loopback ones, e.g. `https://app.example.com`. A request with
   * any other `Origin` header (`null` included) gets 403; requests without one (not from a browser)
   * are not affected.
   */
  allowedOrigins?: readonly string[];
  /**
   * A secret every request must send as `Authorization: Bearer <token>` (else 401): at least 16
   * visible ASCII characters. Required when `host` is not loopback.
   */
  authToken?: string;
  /** Default: silent. */
  logger?: Logger;
}

/** A running Streamable HTTP endpoint. */
export interface HttpEndpoint {
  /** The endpoint's URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  /** How many client sessions are open. */
  readonly sessionCount: number;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

/** A transport-level error of the SDK's kind (no JSON-RPC code fits: a session or HTTP problem). */
const TRANSPORT_ERROR = -32000;
const SESSION_NOT_FOUND = -32001;
const DEFAULT_MAX_SESSIONS = 1000;

function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The endpoint's own options, one rule each (core's table form); the access options are `createAccessCheck`'s. */
const RULES: readonly OptionRule<ServeHttpOptions>[] = [
  ['port', (port) => isWholeNumberFrom(0)(port) && (port as number) <= 65535, 'an integer from 0 to 65535', 'required'],
  ['host', (host) => typeof host === 'string' && host !== '', 'a host name or address'],
  ['path', (path) => typeof path === 'string' && path.startsWith('/'), 'a path starting with "/"'],
  ['sessionIdleMs', isWholeNumberFrom(1), 'a positive integer (milliseconds)'],
  ['maxSessions', isWholeNumberFrom(1), 'a positive integer'],
  ['maxBodyBytes', isWholeNumberFrom(1), 'a positive integer (bytes)'],
];

/** What a POST body turned out to be: JSON-RPC messages, or the error to answer. */
type PostBody = { ok: true; body: unknown } | { ok: false; status: number; code: number; message: string };

/**
 * Reads and checks a POST body before the SDK sees it, so that every malformed body gets the
 * JSON-RPC code it deserves: -32700 for invalid JSON, -32600 for JSON that is not a JSON-RPC message
 * (the SDK answers -32700 to both; stdio answers -32600 to the second).
 */
async function readPostBody(req: IncomingMessage, limit: number): Promise<PostBody> {
  const text = await readBody(req, limit);
  if (text === undefined) {
    return {
      ok: false,
      status: 413,
      code: TRANSPORT_ERROR,
      message: `Payload too large: the limit is ${limit} bytes.`,
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, code: ErrorCode.ParseError, message: 'Parse error: the body is not valid JSON.' };
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || !messages.every((message) => JSONRPCMessageSchema.safeParse(message).success)) {
    return {
      ok: false,
      status: 400,
      code: ErrorCode.InvalidRequest,
      message:
        'Invalid Request: the body is not a JSON-RPC 2.0 message (or a non-empty batch of them): a request needs "jsonrpc": "2.0", a string or number "id" and a string "method".',
    };
  }
  return { ok: true, body };
}

/** The options with their defaults, checked; throws `InvalidOptionError`. */
function resolveOptions(options: ServeHttpOptions) {
  checkOptionRules(options, RULES, 'serveHttp(gateway, { port })');
  const host = options.host ?? '127.0.0.1';
  return {
    port: options.port,
    host,
    path: options.path ?? '/mcp',
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxBody: options.maxBodyBytes ?? 4 * 1024 * 1024,
    logger: options.logger ?? silentLogger,
    checkAccess: createAccessCheck({ ...options, host }),
  };
}

/**
 * Checks {@link serveHttp} options without listening: throws the `InvalidOptionError` it would
 * (e.g. a non-loopback `host` without `authToken`), to refuse a configuration before starting work.
 */
export function assertServeHttpOptions(options: ServeHttpOptions): void {
  resolveOptions(options);
}

interface Session {
  transport: StreamableHTTPServerTransport;
  /** When its last request started or ended. */
  lastSeen: number;
  /**
   * POST requests in progress: a session busy with a call is never idle. A GET event stream held
   * open does not count: a client that only listens expires like one that went away.
   */
  active: number;
}

/**
 * Serves client sessions over Streamable HTTP: one MCP session (and one thread of loaded tools) per
 * `Mcp-Session-Id`. Listens on loopback by default. Every request passes the access check first
 * (exact `Host` against DNS rebinding, `Origin` when present, the bearer token when configured; see
 * `createAccessCheck`), then the session checks: at most `maxSessions` sessions, closed (and their
 * loaded tools dropped) after `sessionIdleMs` without a request. Malformed bodies get JSON-RPC
 * errors. Throws `InvalidOptionError` for unusable options, e.g. a non-loopback `host` without
 * `authToken`.
 */
export async function serveHttp(target: McpConnectable, options: ServeHttpOptions): Promise<HttpEndpoint> {
  const { port, host, path, idleMs, maxSessions, maxBody, logger, checkAccess } = resolveOptions(options);
  const sweepMs = Math.min(idleMs, 60_000);
  const retryAfter = String(Math.ceil(sweepMs / 1000));
  const sessions = new Map<string, Session>();
  /** Sessions being opened (an `initialize` in progress): counted against `maxSessions`. */
  let opening = 0;

  function refuse(res: ServerResponse, refusal: AccessRefusal): void {
    logger.debug(`HTTP request refused (${refusal.status}): ${refusal.message}`);
    sendJsonError(res, refusal.status, TRANSPORT_ERROR, refusal.message, refusal.headers);
  }

  async function handleInSession(req: IncomingMessage, res: ServerResponse, session: Session): Promise<void> {
    session.lastSeen = Date.now();
    if (req.method !== 'POST') return session.transport.handleRequest(req, res);
    session.active += 1;
    res.once('close', () => {
      session.active -= 1;
      session.lastSeen = Date.now();
    });
    const post = await readPostBody(req, maxBody);
    if (!post.ok) return sendJsonError(res, post.status, post.code, post.message);
    await session.transport.handleRequest(req, res, post.body);
  }

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size + opening >= maxSessions) {
      logger.warn(`HTTP session refused: ${maxSessions} sessions are open (maxSessions)`);
      sendJsonError(
        res,
        503,
        TRANSPORT_ERROR,
        `Too many sessions: ${maxSessions} are open, the most this server allows (maxSessions, --max-sessions). End unused sessions with an HTTP DELETE, or retry later.`,
        { 'retry-after': retryAfter },
      );
      return;
    }
    opening += 1;
    try {
      const id = randomUUID();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessioninitialized: () => {
          sessions.set(id, { transport, lastSeen: Date.now(), active: 0 });
          logger.debug(`HTTP session ${id} opened`);
        },
      });
      transport.onclose = () => {
        if (sessions.delete(id)) logger.debug(`HTTP session ${id} closed`);
      };
      try {
        await target.connect(transport, { threadId: id });
      } catch (error) {
        if (!McpConnectionLimitError.isInstance(error)) throw error;
        logger.warn(`HTTP session refused: ${error.message}`);
        sendJsonError(res, 503, TRANSPORT_ERROR, error.message, { 'retry-after': retryAfter });
        return;
      }
      try {
        await transport.handleRequest(req, res, body);
      } finally {
        // The transport refused the initialize request (e.g. a wrong Accept header) or failed: no
        // session to keep, and its connection (its thread) is released.
        if (!sessions.has(id)) await transport.close();
      }
    } finally {
      opening -= 1;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = checkAccess(req);
    if (refusal) return refuse(res, refusal);
    const requestUrl = new URL(req.url ?? '/', 'http://localhost');
    if (requestUrl.pathname !== path) {
      sendJsonError(res, 404, ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${path}.`);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJsonError(res, 404, SESSION_NOT_FOUND, 'Session not found: start a new session with initialize.');
        return;
      }
      return handleInSession(req, res, session);
    }
    if (req.method !== 'POST') {
      sendJsonError(
        res,
        req.method === 'GET' || req.method === 'DELETE' ? 400 : 405,
        TRANSPORT_ERROR,
        'Bad Request: Mcp-Session-Id header is required.',
      );
      return;
    }
    const post = await readPostBody(req, maxBody);
    if (!post.ok) return sendJsonError(res, post.status, post.code, post.message);
    if (!isInitializeRequest(post.body)) {
      sendJsonError(
        res,
        400,
        TRANSPORT_ERROR,
        'Bad Request: Mcp-Session-Id header is required (start a session with initialize).',
      );
      return;
    }
    await openSession(req, res, post.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      sendJsonError(res, 500, ErrorCode.InternalError, 'Internal error.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (session.active > 0 || now - session.lastSeen < idleMs) continue;
      logger.debug(`HTTP session ${id} idle for ${idleMs} ms: closed`);
      void session.transport.close();
    }
  }, sweepMs);
  sweep.unref();
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = new URL(`http://${urlHost}:${address.port}${path}`);
  let closing: Promise<void> | undefined;
  return {
    url,
    get sessionCount() {
      return sessions.size;
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        await Promise.allSettled([...sessions.values()].map((session) => session.transport.close()));
        sessions.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
