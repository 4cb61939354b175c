import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnectionOptions } from './mcp-tool-search-server.js';

/**
 * Makes a line-based transport (stdio) answer what it cannot read, as JSON-RPC requires: invalid
 * JSON gets a `-32700` Parse error, JSON that is not a JSON-RPC message a `-32600` Invalid Request,
 * both with `id: null` (the id cannot be known). The SDK's stdio transport only reports them to
 * `onerror`. Call before connecting: the SDK's `connect` keeps an `onerror` set beforehand.
 */
export function answerMalformedMessages(transport: Transport, onError?: (error: Error) => void): void {
  const previous = transport.onerror;
  transport.onerror = (error: Error) => {
    previous?.(error);
    const code =
      error instanceof SyntaxError
        ? ErrorCode.ParseError
        : error.name === 'ZodError'
          ? ErrorCode.InvalidRequest
          : undefined;
    if (code === undefined) return onError?.(error);
    const message =
      code === ErrorCode.ParseError
        ? 'Parse error: the line is not valid JSON'
        : 'Invalid Request: not a JSON-RPC 2.0 message';
    onError?.(new Error(`${message} (${error.message.split('\n')[0]})`));
    // JSON-RPC requires `id: null` here; the SDK's message type has no room for it.
    const response = { jsonrpc: '2.0', id: null, error: { code, message } } as unknown as Parameters<
      Transport['send']
    >[0];
    transport.send(response).catch(() => {});
  };
}

/** Something that serves client sessions on a transport: a gateway or a search server. */
export interface McpConnectable {
  connect(transport: Transport, connection?: McpConnectionOptions): Promise<unknown>;
}

export interface ServeStdioOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. */
  stdout?: Writable;
  /** The thread id of the one client session. */
  threadId?: string;
  /** Receives what could not be read (malformed lines) and transport errors. */
  onError?: (error: Error) => void;
}

/** A running stdio session. */
export interface StdioSession {
  /** Resolves when the client goes away: stdin ended or closed, or the transport closed. */
  readonly closed: Promise<void>;
  /** Closes the session. */
  close(): Promise<void>;
}

/**
 * Serves one client session over stdio (stdin for requests, stdout for answers), answering
 * malformed lines with JSON-RPC errors, and reports when stdin closes.
 */
export async function serveStdio(target: McpConnectable, options: ServeStdioOptions = {}): Promise<StdioSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const transport = new StdioServerTransport(stdin, stdout);
  answerMalformedMessages(transport, options.onError);
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const onEnd = () => markClosed();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  const previousOnClose = transport.onclose;
  transport.onclose = () => {
    previousOnClose?.();
    markClosed();
  };
  await target.connect(transport, options.threadId === undefined ? {} : { threadId: options.threadId });
  return {
    closed: closed.then(() => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
    }),
    close: () => transport.close(),
  };
}
