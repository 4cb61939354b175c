import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { InvalidOptionError } from '@toolscout/core/errors';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  describeBytes,
  LineReader,
  MessageTooLargeError,
  parseJsonRpcLine,
  writeJsonRpcLine,
} from './json-rpc-lines.js';
import { groupIsRunning, signalGroup } from './process-group.js';

/** Options for a {@link StdioUpstreamTransport}. */
export interface StdioUpstreamTransportOptions {
  /** The program, e.g. `npx` or `node`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /** The server's whole environment (see `upstreamEnvironment`). */
  env: Record<string, string>;
  /** The working directory. Default: this process's. */
  cwd?: string;
  /**
   * The longest message (one line) read from the server, in bytes. A longer one closes the
   * connection, with {@link StdioUpstreamTransport.closeReason} saying so. Default 10 MB.
   */
  maxMessageBytes?: number;
  /**
   * How long the server may take to exit once its stdin is closed, and again after SIGTERM, before
   * it is killed (SIGKILL). Default 2000 ms.
   */
  exitGraceMs?: number;
}

/** POSIX: each server runs in a process group of its own, so stopping it stops everything it started. */
const PROCESS_GROUPS = process.platform !== 'win32';
const DEFAULT_EXIT_GRACE_MS = 2_000;
const GROUP_POLL_MS = 50;
/** Marks the error answer that stands in for an answer the transport could not read. */
const UNREADABLE_ANSWER = 'toolscout.unreadable-answer';

/** Process groups of servers that may still run: killed when this process exits, however it exits. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pgid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killLiveGroups);
  }
  liveGroups.add(pgid);
}

function killLiveGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether `error` stands for a server's answer that could not be read (see {@link StdioUpstreamTransport}). */
export function isUnreadableAnswer(error: unknown): error is McpError {
  return error instanceof McpError && (error.data as { reason?: unknown } | undefined)?.reason === UNREADABLE_ANSWER;
}

function unreadableAnswer(id: string | number, error: Error): JSONRPCMessage {
  const why = error instanceof SyntaxError ? error.message : 'it is not a valid JSON-RPC message';
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.InternalError,
      message: `the answer could not be read: ${why}`,
      data: { reason: UNREADABLE_ANSWER, detail: why },
    },
  };
}

/**
 * The client side of stdio to one upstream server process. Unlike the SDK's
 * `StdioClientTransport`, it:
 * - starts the server in a process group of its own (POSIX) and stops the whole group: a server
 *   run through a shell or `npx` leaves nothing behind, and neither does this process exiting;
 * - `close()` can be called any number of times, while starting too, and always waits (bounded)
 *   for the process to be gone;
 * - says why it closed the connection itself ({@link closeReason}), e.g. a message over the limit;
 * - turns an answer it cannot read into an error answer to its request (see
 *   {@link isUnreadableAnswer}), so the request fails at once instead of waiting for its timeout.
 */
export class StdioUpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: StdioUpstreamTransportOptions;
  readonly #graceMs: number;
  readonly #reader: LineReader;
  readonly #stderr = new PassThrough();
  #child: ChildProcess | undefined;
  /** Settles once the process has started or failed to. */
  #spawned: Promise<unknown> = Promise.resolve();
  /** Resolves once the process has exited (or never started). */
  #exited: Promise<void> = Promise.resolve();
  /** Resolves once its stdout and stderr have closed: everything it wrote has been read. */
  #drained: Promise<void> = Promise.resolve();
  #running = false;
  /** Whether the server has written a line: one that has said nothing has nothing to finish. */
  #heard = false;
  #closing: Promise<void> | undefined;
  #closeReason: string | undefined;
  #closeReported = false;

  constructor(options: StdioUpstreamTransportOptions) {
    const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const graceMs = options.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS;
    for (const [name, value] of [
      ['maxMessageBytes', maxMessageBytes],
      ['exitGraceMs', graceMs],
    ] as const) {
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new InvalidOptionError(name, `${name} must be a positive whole number; got ${String(value)}.`);
      }
    }
    this.#options = options;
    this.#graceMs = graceMs;
    this.#reader = new LineReader(maxMessageBytes, {
      line: (text) => this.#read(text),
      overflow: () =>
        this.#fail(
          `it sent a message over the ${describeBytes(maxMessageBytes)} line limit`,
          new MessageTooLargeError(maxMessageBytes),
        ),
    });
  }

  /** The server's process id while it runs. */
  get pid(): number | null {
    return this.#running ? (this.#child?.pid ?? null) : null;
  }

  /** The server's stderr (available before `start()`, so no early line is lost). */
  get stderr(): Readable {
    return this.#stderr;
  }

  /**
   * Why this transport closed the connection itself, e.g. `it sent a message over the 10 MB line
   * limit`; undefined when the server exited on its own or `close()` was called.
   */
  get closeReason(): string | undefined {
    return this.#closeReason;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('The stdio transport is already started (connect() starts it).');
    const { command, args = [], env, cwd } = this.#options;
    const child = spawn(command, [...args], {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: PROCESS_GROUPS,
      windowsHide: true,
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => {
        if (!this.#running) resolve(); // it never started
      });
    });
    child.once('exit', () => {
      this.#running = false;
      // Whatever it left in its group goes with it.
      void this.close();
    });
    this.#drained = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', () => this.#reportClosed());
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.#reader.push(chunk));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stderr?.pipe(this.#stderr);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        this.#running = true;
        if (PROCESS_GROUPS && child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('error', (error) => {
        if (this.#running) this.onerror?.(error);
        else reject(error);
      });
    });
    this.#spawned = spawned.catch(() => {});
    return spawned;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return writeJsonRpcLine(stdin, message);
  }

  /**
   * Stops the server: closes its stdin, then after the grace period sends SIGTERM, then SIGKILL,
   * to its whole process group (SIGTERM at once to a server that has not written a line yet);
   * resolves once it is gone (or could not be made to go).
   */
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    if (!child) return this.#reportClosed();
    await this.#spawned;
    if (this.#running) {
      child.stdin?.end();
      // A server that has said nothing yet (e.g. one that never answered `initialize`) has nothing to finish.
      if (this.#heard) await this.#exitsWithin(this.#graceMs);
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (!this.#running) break;
        this.#signal(child, signal);
        await this.#exitsWithin(this.#graceMs);
      }
    }
    if (PROCESS_GROUPS && child.pid !== undefined) await this.#reapGroup(child.pid);
    // Read what it wrote before it went; a process outside its group may hold the pipes open, so not for ever.
    await Promise.race([this.#drained, delay(this.#graceMs)]);
    this.#reader.clear();
    child.stdout?.destroy();
    child.stderr?.unpipe(this.#stderr);
    this.#stderr.end();
    this.#reportClosed();
  }

  /** Stops what the server left in its group (its children), SIGTERM first. */
  async #reapGroup(pgid: number): Promise<void> {
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (!groupIsRunning(pgid)) break;
      signalGroup(pgid, signal);
      const deadline = Date.now() + this.#graceMs;
      while (groupIsRunning(pgid) && Date.now() < deadline) await delay(GROUP_POLL_MS);
    }
    liveGroups.delete(pgid);
  }

  #signal(child: ChildProcess, signal: NodeJS.Signals): void {
    if (PROCESS_GROUPS && child.pid !== undefined && signalGroup(child.pid, signal)) return;
    child.kill(signal);
  }

  /** Waits until the process has exited, or `ms` have passed. */
  async #exitsWithin(ms: number): Promise<void> {
    if (!this.#running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  #reportClosed(): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.onclose?.();
  }

  /** Closes the connection for a reason of its own, kept in {@link closeReason}. */
  #fail(reason: string, error: Error): void {
    this.#closeReason ??= reason;
    this.onerror?.(error);
    void this.close();
  }

  #read(line: string): void {
    this.#heard = true;
    const read = parseJsonRpcLine(line);
    if ('message' in read) {
      this.onmessage?.(read.message);
      return;
    }
    this.onerror?.(read.error);
    // Its request would otherwise wait for the timeout and report "no answer".
    if (read.id !== undefined && read.isResponse) this.onmessage?.(unreadableAnswer(read.id, read.error));
  }
}
