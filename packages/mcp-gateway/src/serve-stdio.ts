import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InvalidOptionError } from '@toolscout/core/errors';
import type { McpConnectable } from '@toolscout/mcp';
import { isZodError } from '@toolscout/mcp/internal';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  LineReader,
  MessageTooLargeError,
  parseJsonRpcLine,
  writeJsonRpcLine,
} from './json-rpc-lines.js';

/**
 * Makes a line-based transport (stdio) answer what it cannot read, as JSON-RPC requires: invalid
 * JSON gets a `-32700` Parse error, JSON that is not a JSON-RPC message a `-32600` Invalid Request,
 * and so does a message over the line limit ({@link MessageTooLargeError}), all with `id: null`
 * (the id cannot be known). The SDK's stdio transport only reports them to `onerror`. Call before
 * connecting: the SDK's `connect` keeps an `onerror` set beforehand.
 */
export function answerMalformedMessages(transport: Transport, onError?: (error: Error) => void): void {
  const previous = transport.onerror;
  transport.onerror = (error: Error) => {
    previous?.(error);
    const answer = malformedAnswer(error);
    if (answer === undefined) return onError?.(error);
    onError?.(new Error(`${answer.message} (${error.message.split('\n')[0]})`));
    // JSON-RPC requires `id: null` here; the SDK's message type has no room for it.
    const response = { jsonrpc: '2.0', id: null, error: answer } as unknown as JSONRPCMessage;
    transport.send(response).catch(() => {});
  };
}

/** The JSON-RPC error that answers a line that could not be read, or undefined for other errors. */
function malformedAnswer(error: Error): { code: number; message: string } | undefined {
  if (error instanceof SyntaxError) {
    return { code: ErrorCode.ParseError, message: 'Parse error: the line is not valid JSON' };
  }
  if (isZodError(error)) {
    return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' };
  }
  if (MessageTooLargeError.isInstance(error)) {
    return { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${error.message}` };
  }
  return undefined;
}

/**
 * The server side of stdio: newline-delimited JSON-RPC on a readable and a writable. Unlike the
 * SDK's `StdioServerTransport`, a message over the line limit does not close the session: it is
 * reported to `onerror` as a {@link MessageTooLargeError} and skipped up to its newline.
 */
export class StdioLineServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #reader: LineReader;
  #started = false;
  #closed = false;

  constructor(stdin: Readable, stdout: Writable, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES) {
    if (!Number.isSafeInteger(maxMessageBytes) || maxMessageBytes <= 0) {
      throw new InvalidOptionError(
        'maxMessageBytes',
        `maxMessageBytes must be a positive whole number of bytes; got ${String(maxMessageBytes)}.`,
      );
    }
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#reader = new LineReader(maxMessageBytes, {
      line: (text) => this.#read(text),
      overflow: () => this.onerror?.(new MessageTooLargeError(maxMessageBytes)),
    });
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('The stdio transport is already started (connect() starts it).');
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onStdinError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return writeJsonRpcLine(this.#stdout, message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onStdinError);
    // Pause only a stream nobody else reads.
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#reader.clear();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string) => this.#reader.push(chunk);

  /** A stream that fails cannot be read further: report it and close the session. */
  readonly #onStdinError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  #read(line: string): void {
    if (this.#closed) return;
    const read = parseJsonRpcLine(line);
    if ('message' in read) this.onmessage?.(read.message);
    else this.onerror?.(read.error);
  }
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
  /**
   * The longest message (one line) read from stdin, in bytes; a longer one is answered with a
   * JSON-RPC error and skipped, and the session goes on. Default 10 MB (the MCP SDK's limit).
   */
  maxMessageBytes?: number;
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
 * malformed and oversized lines with JSON-RPC errors, and reports when stdin closes.
 */
export async function serveStdio(target: McpConnectable, options: ServeStdioOptions = {}): Promise<StdioSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const transport = new StdioLineServerTransport(stdin, stdout, options.maxMessageBytes);
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
