import type { Writable } from 'node:stream';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolscoutError } from '@toolscout/core';
import { checkFor, markerOf } from '@toolscout/core/internal';

/** The longest message (one line) read over stdio by default: 10 MB, the MCP SDK's own limit. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A byte count in words: `10 MB` for whole mebibytes, else `1234 bytes`. */
export function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

/** A stdio message longer than the line limit; it was discarded, up to its newline. */
export class MessageTooLargeError extends ToolscoutError {
  static override readonly marker = markerOf('MessageTooLargeError');
  static override readonly isInstance = checkFor<MessageTooLargeError>(MessageTooLargeError.marker);

  constructor(
    /** The limit, in bytes. */
    readonly limit: number,
  ) {
    super(
      'mcp-message-too-large',
      `the message is over the ${describeBytes(limit)} line limit and was discarded; send smaller messages`,
    );
  }
}

/** What a {@link LineReader} hands on. */
export interface LineReaderHandlers {
  /** A complete line, without its `\n` (or `\r\n`). */
  line(text: string): void;
  /** A line over the limit began: its bytes are dropped up to the next newline. Called once per such line. */
  overflow(): void;
}

/**
 * Splits a byte stream into lines, holding at most `maxLineBytes` of one line: a longer line is
 * reported once and skipped up to its newline, so one oversized message costs nothing but itself.
 * Chunks are kept as they come and joined once per line (no copy per chunk).
 */
export class LineReader {
  readonly #handlers: LineReaderHandlers;
  #chunks: Buffer[] = [];
  #size = 0;
  #skipping = false;

  constructor(
    readonly maxLineBytes: number,
    handlers: LineReaderHandlers,
  ) {
    this.#handlers = handlers;
  }

  /** Feeds bytes (strings are read as UTF-8). */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(10, start);
      const end = newline === -1 ? bytes.length : newline;
      if (!this.#skipping) this.#keep(bytes.subarray(start, end));
      if (newline === -1) return;
      start = newline + 1;
      if (this.#skipping) this.#skipping = false;
      else this.#emit();
    }
  }

  /** Drops a partial line. */
  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#skipping = false;
  }

  #keep(piece: Buffer): void {
    if (this.#size + piece.length <= this.maxLineBytes) {
      if (piece.length > 0) this.#chunks.push(piece);
      this.#size += piece.length;
      return;
    }
    this.clear();
    this.#skipping = true;
    this.#handlers.overflow();
  }

  #emit(): void {
    const line = Buffer.concat(this.#chunks, this.#size).toString('utf8');
    this.#chunks = [];
    this.#size = 0;
    this.#handlers.line(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
}

/** A line read as JSON-RPC: the message, or why it could not be read (and its id, when that was readable). */
export type JsonRpcLine =
  | { message: JSONRPCMessage }
  | { error: Error; id?: string | number; isResponse: boolean; isRequest: boolean };

/**
 * Reads one line as a JSON-RPC message. Invalid JSON fails with the parser's `SyntaxError`; JSON
 * that is not a JSON-RPC message fails with the schema's `ZodError` (`name === 'ZodError'`), with
 * the id when it has one, so the sender can still be answered.
 */
export function parseJsonRpcLine(line: string): JsonRpcLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { error: error as Error, isResponse: false, isRequest: false };
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
  const isResponse = 'result' in record || 'error' in record;
  const isRequest = typeof record.method === 'string';
  try {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) return { message: parsed.data };
    return { error: parsed.error, id, isResponse, isRequest };
  } catch (error) {
    // The schema itself gave up (e.g. a stack overflow on absurd nesting).
    return { error: error as Error, id, isResponse, isRequest };
  }
}

/** Writes a message as one line; resolves once the stream takes more (at once, or after its `drain`). */
export function writeJsonRpcLine(stream: Writable, message: JSONRPCMessage): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(`${JSON.stringify(message)}\n`)) resolve();
    else stream.once('drain', resolve);
  });
}
