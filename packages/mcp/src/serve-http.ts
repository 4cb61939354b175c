import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InvalidOptionError } from '@toolscout/core';
import { type Logger, silentLogger } from './logger.js';
import type { McpConnectable } from './serve-stdio.js';

export interface ServeHttpOptions {
  /** The port; 0 picks a free one (see the returned `url`). */
  port: number;
  /** The address to listen on. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** The MCP endpoint's path. Default `/mcp`. */
  path?: string;
  /** Sessions without a request for this long are closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Largest request body. Default 4 MiB. */
  maxBodyBytes?: number;
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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name or address is this machine's loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}

function sendJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
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

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/**
 * Serves client sessions over Streamable HTTP: one MCP session (and one thread of loaded tools) per
 * `Mcp-Session-Id`. Listens on loopback by default and then accepts only loopback `Host` headers
 * (against DNS rebinding). Malformed bodies get JSON-RPC errors.
 */
export async function serveHttp(target: McpConnectable, options: ServeHttpOptions): Promise<HttpEndpoint> {
  const { port } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidOptionError('port', `port must be an integer from 0 to 65535; got ${String(port)}.`);
  }
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const logger = options.logger ?? silentLogger;
  const checkHost = isLoopback(host);
  const sessions = new Map<string, Session>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', 'http://localhost');
    if (checkHost) {
      let hostname = '';
      try {
        hostname = new URL(`http://${req.headers.host ?? ''}`).hostname;
      } catch {}
      if (!isLoopback(hostname)) {
        sendJsonError(
          res,
          403,
          ErrorCode.InvalidRequest,
          `Forbidden: host "${req.headers.host ?? ''}" is not a loopback address.`,
        );
        return;
      }
    }
    if (requestUrl.pathname !== path) {
      sendJsonError(res, 404, ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${path}.`);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJsonError(res, 404, -32001, 'Session not found: start a new session with initialize.');
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      sendJsonError(
        res,
        req.method === 'GET' || req.method === 'DELETE' ? 400 : 405,
        -32000,
        'Bad Request: Mcp-Session-Id header is required.',
      );
      return;
    }
    const text = await readBody(req, maxBody);
    if (text === undefined) {
      sendJsonError(res, 413, -32000, `Payload too large: the limit is ${maxBody} bytes.`);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendJsonError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON.');
      return;
    }
    if (!isInitializeRequest(body)) {
      sendJsonError(
        res,
        400,
        -32000,
        'Bad Request: Mcp-Session-Id header is required (start a session with initialize).',
      );
      return;
    }
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, { transport, lastSeen: Date.now() });
        logger.debug(`HTTP session ${id} opened`);
      },
    });
    transport.onclose = () => {
      if (sessions.delete(id)) logger.debug(`HTTP session ${id} closed`);
    };
    await target.connect(transport, { threadId: id });
    await transport.handleRequest(req, res, body);
    // The transport refused the initialize request (e.g. a wrong Accept header): no session to keep.
    if (!sessions.has(id)) await transport.close();
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
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen < idleMs) continue;
        logger.debug(`HTTP session ${id} idle for ${idleMs} ms: closed`);
        void session.transport.close();
      }
    },
    Math.min(idleMs, 60_000),
  );
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
