import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnectable } from '@toolscout/mcp';
import type { McpServerLike } from '../src/mcp-gateway.js';
import { serveStdio } from '../src/serve-stdio.js';

/** One stdio session of a server: what it reads, what it writes, and how to end it. */
export interface StdioEndpoint {
  /** The server's stdin. */
  input: Writable;
  /** The server's stdout. */
  output: Readable;
  /** Resolves when the server has gone (exited, or its session closed). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** A stdio server as a child process (`node script args`), ended with SIGTERM (SIGKILL after 5 s). */
export function spawnStdio(command: string, args: string[]): () => StdioEndpoint {
  return () => {
    const child = spawn(command, args, { stdio: 'pipe' });
    child.stdin.on('error', () => {});
    child.stderr.resume();
    const closed = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      input: child.stdin,
      output: child.stdout,
      closed,
      async close() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.kill('SIGTERM');
        await closed;
        clearTimeout(timer);
      },
    };
  };
}

/**
 * A stdio session of an SDK server made by `create` in this process, on the SDK's own
 * `StdioServerTransport` (what an SDK server's stdio entry point runs), over a pair of streams.
 */
export function sdkStdioInProcess(create: () => { server: McpServerLike; cleanup?: () => void }): () => StdioEndpoint {
  return () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const { server, cleanup } = create();
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    void server.connect(new StdioServerTransport(input, output));
    return {
      input,
      output,
      closed,
      async close() {
        await server.close();
        cleanup?.();
        markClosed();
      },
    };
  };
}

/**
 * A stdio session of a gateway (or search server) in this process: `serveStdio`, the stdio server
 * side the toolscout-mcp command runs, on a pair of streams.
 */
export function serveStdioInProcess(target: McpConnectable): () => StdioEndpoint {
  return () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const session = serveStdio(target, { stdin: input, stdout: output });
    const closed = session.then((open) => open.closed);
    return {
      input,
      output,
      closed,
      async close() {
        input.end();
        await (await session).close();
      },
    };
  };
}

/** A Streamable HTTP endpoint in front of a stdio MCP server: one stdio session per HTTP session. */
export interface StdioHttpBridge {
  readonly url: URL;
  /** Ends every session's process and stops listening. */
  close(): Promise<void>;
}

/** One HTTP session: its transport, its stdio server, and the client's requests still unanswered. */
interface BridgeSession {
  transport: StreamableHTTPServerTransport;
  stdio: StdioEndpoint;
  lastSeen: number;
  /** Unanswered client requests, oldest first, with their progress tokens. */
  pending: { id: RequestId; progressToken?: string | number }[];
}

/**
 * The client request a message of the server belongs with: the one whose progress token it
 * carries, else the latest unanswered one (what a stdio server writes during a call is about that
 * call). Streamable HTTP then sends it on that request's stream rather than the GET stream.
 */
function relatedRequest(session: BridgeSession, message: JSONRPCMessage): RequestId | undefined {
  if ('id' in message && !('method' in message)) return undefined; // a response routes by its own id
  const token = (message as { params?: { progressToken?: unknown } }).params?.progressToken;
  const byToken = session.pending.find((pending) => token !== undefined && pending.progressToken === token);
  return (byToken ?? session.pending.at(-1))?.id;
}

/**
 * Serves a stdio MCP server over Streamable HTTP by relaying JSON-RPC messages unchanged, for a
 * runner that only speaks HTTP (the MCP conformance runner): what it measures is the stdio server,
 * since the relay adds no MCP behaviour of its own (only Host checking, against DNS rebinding, as
 * every loopback HTTP server must). `open` starts one stdio session; at most `maxSessions` are kept,
 * the least recently used is ended to make room.
 */
export async function bridgeStdioToHttp(open: () => StdioEndpoint, maxSessions = 2): Promise<StdioHttpBridge> {
  const sessions = new Map<string, BridgeSession>();
  let port = 0;

  function openSession(): BridgeSession {
    const id = randomUUID();
    const stdio = open();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
      onsessioninitialized: () => {
        sessions.set(id, session);
      },
    });
    const session: BridgeSession = { transport, stdio, lastSeen: Date.now(), pending: [] };
    transport.onmessage = (message) => {
      if (isJSONRPCRequest(message)) {
        session.pending.push({ id: message.id, progressToken: message.params?._meta?.progressToken });
      }
      stdio.input.write(`${JSON.stringify(message)}\n`);
    };
    transport.onclose = () => {
      sessions.delete(id);
      void stdio.close();
    };
    createInterface({ input: stdio.output, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      let message: JSONRPCMessage;
      try {
        message = JSON.parse(line) as JSONRPCMessage;
      } catch {
        return;
      }
      const relatedRequestId = relatedRequest(session, message);
      if ('id' in message && !('method' in message)) {
        session.pending = session.pending.filter((pending) => pending.id !== message.id);
      }
      transport.send(message, { relatedRequestId }).catch(() => {});
    });
    void stdio.closed.then(() => transport.close());
    return session;
  }

  /** Clients that never end their sessions (the conformance runner) must not pile up servers. */
  function evictOldest(): void {
    if (sessions.size < maxSessions) return;
    const oldest = [...sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0];
    void oldest?.transport.close();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string' && !existing) {
      res.writeHead(404).end();
      return;
    }
    if (existing) existing.lastSeen = Date.now();
    else evictOldest();
    const session = existing ?? openSession();
    await session.transport.handleRequest(req, res);
    if (!existing && !sessions.has(session.transport.sessionId ?? '')) await session.transport.close();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      const live = [...sessions.values()];
      await Promise.allSettled(live.map((session) => session.transport.close()));
      await Promise.allSettled(live.map((session) => session.stdio.close()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
