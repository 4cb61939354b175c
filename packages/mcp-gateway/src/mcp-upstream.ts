import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  type ClientRequest,
  ErrorCode,
  type Implementation,
  McpError,
  type Progress,
  ProgressNotificationSchema,
  type ServerCapabilities,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { fromMcpTools, type ToolCatalog, type ToolDescriptor, toToolName } from '@toolscout/core';
import { InvalidOptionError, SourceUnavailableError } from '@toolscout/core/errors';
import {
  assertPositiveMs,
  CatalogMirror,
  CoalescedTask,
  type SourceRestartOptions,
  type SourceStatus,
  SupervisedSource,
} from '@toolscout/core/sources';
import { isZodError } from '@toolscout/mcp/internal';
import { type Logger, silentLogger } from './logger.js';
import { McpUpstreamError } from './mcp-upstream-error.js';
import { isUnreadableAnswer, StdioUpstreamTransport } from './stdio-upstream-transport.js';
import { PASS_THROUGH_CLIENT_CAPABILITIES, type UpstreamClientHooks, watchClient } from './upstream-client-hooks.js';

/** How a failed or crashed upstream is restarted: after `initialDelayMs` (default 500 ms), doubling up to `maxDelayMs` (default 30 s). */
export type McpRestartOptions = SourceRestartOptions;

export interface McpUpstreamOptions {
  /** The server's name: named in logs and errors, the `source` of its tools, and their namespace. */
  name: string;
  /** Opens a new connection to the server (e.g. spawns its process); called on start and on every restart. */
  connect: () => Transport | Promise<Transport>;
  /** The catalog the server's tools are mirrored into, and kept in step with on `list_changed`. */
  catalog: ToolCatalog<unknown>;
  /** Put before each of the server's tool names to make its catalog id. Default `<name>__`. */
  idPrefix?: string;
  /** Catalog ids of tools to pin (offered at every step without a search). */
  pinned?: readonly string[];
  /** Tool names the server's tools must not take (the meta-tools'); such tools are skipped with a warning. */
  reservedNames?: readonly string[];
  /** How long one tool call may take before it fails with a timeout. Default 60 s. */
  callTimeoutMs?: number;
  /** How long connecting (start-up, `initialize`, the first `tools/list`) may take. Default 30 s. */
  connectTimeoutMs?: number;
  /** Restarts after a failure to start, a crash or a hang, with backoff. `false`: stay down. */
  restart?: false | McpRestartOptions;
  /** Default: silent. */
  logger?: Logger;
  /** How the gateway introduces itself to the server. */
  clientInfo?: Implementation;
  /**
   * What the server sends besides tool lists (notifications, requests to the client), and the
   * calls forwarded for a client: the gateway's pass-through. Default: none (they are dropped and
   * refused).
   */
  hooks?: UpstreamClientHooks;
  /** A server that sent nothing for this long is pinged (and restarted if it does not answer). Default 60 s; `false`: never. */
  pingIntervalMs?: number | false;
}

/** A request forwarded to an upstream on a client's behalf: its result's schema and how to send it. */
export interface UpstreamRequestOptions {
  /** What the request is, for error messages, e.g. `resources/read "file:///a"`. */
  what: string;
  signal?: AbortSignal;
  onprogress?: RequestOptions['onprogress'];
}

/**
 * - `idle`: not started; `connecting`: starting or restarting; `ready`: connected, tools mirrored;
 * - `down`: failed or crashed, a restart may be scheduled; `closed`: closed for good.
 */
export type McpUpstreamStatus = SourceStatus;

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const HEALTH_CHECK_TIMEOUT_MS = 5_000;
const STDERR_LINES_KEPT = 20;
const MAX_LIST_PAGES = 100;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A transport that runs the server as a child process: ours, or the SDK's (on Windows). */
function processOf(transport: Transport | undefined): StdioUpstreamTransport | StdioClientTransport | undefined {
  return transport instanceof StdioUpstreamTransport || transport instanceof StdioClientTransport
    ? transport
    : undefined;
}

/** Why the gateway closed a connection itself (e.g. a message over the line limit), if it did. */
function closeReasonOf(transport: Transport | undefined): string | undefined {
  return transport instanceof StdioUpstreamTransport ? transport.closeReason : undefined;
}

/** `nested too deeply (...)` for the stack overflow of reading something nested too deeply. */
function tooDeep(error: unknown): string | undefined {
  return error instanceof RangeError && /call stack/i.test(error.message)
    ? `nested too deeply (${error.message})`
    : undefined;
}

/**
 * Why an answer of the server could not be read (not JSON-RPC, not the MCP shape of its result,
 * nested too deeply), or undefined when `error` is about something else (a timeout, a closed
 * connection, a network failure, the server's own error answer).
 */
function readFailure(error: unknown): string | undefined {
  if (isUnreadableAnswer(error)) return (error.data as { detail: string }).detail;
  const deep = tooDeep(error);
  if (deep) return `it is ${deep}`;
  const issue = isZodError(error) ? error.issues[0] : undefined;
  if (issue) return `it does not fit the MCP schema (at "${issue.path.map(String).join('.')}": ${issue.message})`;
  return undefined;
}

/** Why a tool definition was skipped: its reading or the catalog's refusal, in words. */
function whySkipped(error: unknown): string {
  const deep = tooDeep(error);
  return deep ? `its definition is ${deep}` : messageOf(error);
}

/** `request` with `_meta.progressToken` set, when there is a token. */
function withProgressToken(request: ClientRequest, progressToken: string | undefined): ClientRequest {
  if (progressToken === undefined) return request;
  const params = (request.params ?? {}) as { _meta?: Record<string, unknown> };
  return { ...request, params: { ...params, _meta: { ...params._meta, progressToken } } } as ClientRequest;
}

/**
 * One upstream MCP server seen through an MCP `Client`: its tools mirrored into a catalog under
 * namespaced ids (`server__tool`), calls forwarded with a timeout, re-indexed incrementally on
 * `notifications/tools/list_changed`, restarted with backoff when it fails to start, crashes or
 * hangs. While it is down its tools stay searchable and calls to them fail fast with a clear error.
 */
export class McpUpstream {
  readonly name: string;
  readonly idPrefix: string;
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly #options: McpUpstreamOptions;
  readonly #logger: Logger;
  readonly #pinned: ReadonlySet<string>;
  readonly #reserved: ReadonlySet<string>;
  /** The connection's lifecycle: status, restarts with backoff, health checks. */
  readonly #source: SupervisedSource<Client>;
  #capabilities: ServerCapabilities | undefined;
  /** Where the progress of forwarded requests goes, by the progress token the gateway gave them. */
  readonly #progress = new Map<string, (progress: Progress) => void>();
  #progressTokens = 0;
  /** The server's tools in the catalog: the ids it owns, with a signature of the definition each came from. */
  readonly #owned: CatalogMirror<unknown>;
  #transport: Transport | undefined;
  /** A connection that sent `list_changed` before its first listing was applied: it lists again once ready. */
  #changedWhileConnecting: Client | undefined;
  /** Re-lists the tools on `list_changed`: one listing at a time, one more if asked again meanwhile. */
  readonly #syncing = new CoalescedTask(
    async () => {
      const client = this.#client;
      if (client) await this.#sync(client, this.callTimeoutMs);
    },
    (error) => this.#logger.warn(`server "${this.name}": re-listing its tools failed: ${messageOf(error)}`),
  );
  #stderr: string[] = [];

  constructor(options: McpUpstreamOptions) {
    if (typeof options.name !== 'string' || options.name === '') {
      throw new InvalidOptionError('name', 'An upstream needs a non-empty name.');
    }
    if (typeof options.connect !== 'function') {
      throw new InvalidOptionError(
        'connect',
        `Upstream "${options.name}": connect must be a function that opens a transport.`,
      );
    }
    assertPositiveMs(options.callTimeoutMs, 'callTimeoutMs');
    assertPositiveMs(options.connectTimeoutMs, 'connectTimeoutMs');
    this.#options = options;
    this.name = options.name;
    this.idPrefix = options.idPrefix ?? `${options.name}__`;
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#logger = options.logger ?? silentLogger;
    this.#pinned = new Set(options.pinned ?? []);
    this.#reserved = new Set(options.reservedNames ?? []);
    this.#owned = new CatalogMirror<unknown>({
      catalog: options.catalog,
      signature: (descriptor) => JSON.stringify([descriptor.tool, descriptor.pinned === true]),
      onRefused: (error, descriptor) =>
        this.#logger.warn(
          `server "${this.name}": tool "${String((descriptor.tool as Tool).name)}" skipped: ${whySkipped(error)}`,
        ),
    });
    this.#source = new SupervisedSource<Client>({
      name: options.name,
      kind: 'server',
      restart: options.restart,
      pingIntervalMs: options.pingIntervalMs,
      pingTimeoutMs: Math.min(this.callTimeoutMs, HEALTH_CHECK_TIMEOUT_MS),
      logger: this.#logger,
      connector: {
        open: (signal) => this.#open(signal),
        close: (client) => this.#closeQuietly(client, this.#transport),
        ping: (client, timeout) => client.ping({ timeout }),
        ready: (client) => this.#onReady(client),
        describeReady: (client) => {
          const version = client.getServerVersion();
          return `${version ? ` (${version.name} ${version.version})` : ''}: ${this.#owned.size} tool(s)`;
        },
        describeDown: () => {
          const tail = this.#stderr.slice(-5);
          return tail.length > 0 ? `\n  its last stderr lines:\n    ${tail.join('\n    ')}` : '';
        },
      },
    });
  }

  /** The ready connection's client (the sync members read it). */
  get #client(): Client | undefined {
    return this.#source.connection;
  }

  /** What the server offers (from `initialize`): the last known, also while it is down. */
  get capabilities(): ServerCapabilities | undefined {
    return this.#capabilities;
  }

  /** Where the upstream is in its life; see {@link McpUpstreamStatus}. */
  get status(): McpUpstreamStatus {
    return this.#source.status;
  }

  /** Why the upstream is not `ready` (or `ready`), in words. */
  get statusReason(): string {
    return this.#source.statusReason;
  }

  /** The process id of a stdio server while it runs. */
  get pid(): number | undefined {
    return processOf(this.#transport)?.pid ?? undefined;
  }

  /** The server's name and version from `initialize`, once connected. */
  get serverInfo(): Implementation | undefined {
    return this.#client?.getServerVersion();
  }

  /** The server's instructions from `initialize`, once connected. */
  get instructions(): string | undefined {
    return this.#client?.getInstructions();
  }

  /** The catalog ids of this server's tools. */
  get toolIds(): string[] {
    return this.#owned.ids;
  }

  /** The last lines the server wrote to stderr (stdio servers). */
  get recentStderr(): readonly string[] {
    return this.#stderr;
  }

  /**
   * Connects and mirrors the server's tools. Resolves once the first attempt is over: `true` when
   * connected, `false` when it failed (a restart is then scheduled). Never rejects for the server's
   * faults.
   */
  start(): Promise<boolean> {
    if (this.status === 'closed') {
      return Promise.reject(new McpUpstreamError(this.name, 'unavailable', `Upstream "${this.name}" is closed.`));
    }
    return this.#source.start();
  }

  /**
   * Calls one of the server's tools by its own name. Fails fast with {@link McpUpstreamError} while
   * the server is down, and when the call times out or the connection drops mid-call. The client
   * the call is forwarded for (`hooks.forwardCall`) gets its progress notifications.
   */
  async callTool(toolName: string, args: unknown, options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
    const forwarded = this.#options.hooks?.forwardCall?.(this);
    try {
      const result = await this.request(
        { method: 'tools/call', params: { name: toolName, arguments: (args ?? {}) as Record<string, unknown> } },
        CallToolResultSchema,
        { what: `"${toolName}"`, signal: options.signal, onprogress: forwarded?.onprogress },
      );
      return result as CallToolResult;
    } finally {
      forwarded?.done();
    }
  }

  /**
   * Sends a request to the server with the per-call timeout, failing like {@link callTool}: fast
   * while the server is down ({@link McpUpstreamError} `unavailable`), and with `timeout`,
   * `disconnected` or `unreadable` when it does not answer, goes away or answers something
   * unreadable. The server's own error answers (an `McpError`) are thrown as they are.
   */
  async request<T extends AnySchema>(
    request: ClientRequest,
    resultSchema: T,
    options: UpstreamRequestOptions,
  ): Promise<SchemaOutput<T>> {
    const client = this.#readyClient();
    const transport = this.#transport;
    const { what, signal, onprogress } = options;
    const progressToken = onprogress ? `${this.name}-${++this.#progressTokens}` : undefined;
    if (progressToken && onprogress) this.#progress.set(progressToken, onprogress);
    try {
      return await client.request(withProgressToken(request, progressToken), resultSchema, {
        timeout: this.callTimeoutMs,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw this.#forwardingError(error, what, client, transport);
    } finally {
      if (progressToken) this.#progress.delete(progressToken);
    }
  }

  /** The ready client, or {@link McpUpstreamError} `unavailable` saying why and when to retry. */
  #readyClient(): Client {
    try {
      return this.#source.ready();
    } catch (error) {
      if (!SourceUnavailableError.isInstance(error)) throw error;
      throw new McpUpstreamError(
        this.name,
        'unavailable',
        `MCP server "${this.name}" is unavailable (${error.statusReason}); ${error.retryHint}.`,
        { cause: error },
      );
    }
  }

  /** The error a failed forwarded request is reported with; see {@link request}. */
  #forwardingError(error: unknown, what: string, client: Client, transport: Transport | undefined): unknown {
    const unreadable = readFailure(error);
    if (unreadable) {
      return new McpUpstreamError(
        this.name,
        'unreadable',
        `MCP server "${this.name}" answered ${what} with something the gateway could not read: ${unreadable}.`,
        { cause: error },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      void this.#source.checkHealth(client);
      return new McpUpstreamError(
        this.name,
        'timeout',
        `MCP server "${this.name}" did not answer ${what} within ${this.callTimeoutMs} ms (the per-call timeout).`,
        { cause: error },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      const closedBecause = closeReasonOf(transport);
      const closed = closedBecause
        ? `The gateway closed its connection to MCP server "${this.name}" while running ${what}: ${closedBecause}`
        : `MCP server "${this.name}" closed the connection while running ${what}`;
      return new McpUpstreamError(this.name, 'disconnected', `${closed}; ${this.#source.retryHint}.`, { cause: error });
    }
    // A protocol error is the server's answer; anything else (a network failure) may mean it is gone.
    if (error instanceof McpError) return error;
    void this.#source.checkHealth(client);
    return new McpUpstreamError(
      this.name,
      'disconnected',
      `MCP server "${this.name}" could not be reached for ${what}: ${this.#describe(error)}`,
      { cause: error },
    );
  }

  /**
   * Stops the server (its process, for stdio, also while it is still starting), cancels restarts
   * and removes its tools from the catalog. Resolves once the process is gone.
   */
  async close(): Promise<void> {
    if (this.status === 'closed') return;
    await this.#source.close();
    this.#owned.close();
  }

  /**
   * Opens a connection for the supervised source: spawns or connects the server, `initialize`, the
   * first `tools/list` mirrored. Fails with why in words; gives up when the source is closed meanwhile.
   */
  async #open(signal: AbortSignal): Promise<Client> {
    let transport: Transport | undefined;
    let client: Client | undefined;
    let stopping: Promise<void> | undefined;
    // close() while starting: stop the server at once, so the attempt fails now, not at its connect timeout.
    const stop = () => {
      stopping = this.#closeQuietly(undefined, transport);
    };
    signal.addEventListener('abort', stop, { once: true });
    this.#stderr = [];
    try {
      transport = await this.#options.connect();
      this.#transport = transport;
      signal.throwIfAborted();
      this.#captureStderr(transport);
      const hooks = this.#options.hooks;
      client = new Client(this.#options.clientInfo ?? { name: 'toolscout-mcp', version: '0.0.0' }, {
        capabilities: hooks?.onRequest ? PASS_THROUGH_CLIENT_CAPABILITIES : {},
      });
      if (hooks) watchClient(client, this, hooks);
      const current = client;
      const opened = transport;
      client.onclose = () => {
        const ready = current === this.#client;
        if (ready) this.#transport = undefined;
        this.#source.lost(current, closeReasonOf(opened) ?? 'the connection closed (the server exited or crashed)');
      };
      client.onerror = (error) => this.#logger.debug(`[${this.name}] ${messageOf(error)}`);
      // Progress is routed here rather than by the SDK, which drops a progress notification that
      // arrives just before its request's answer (it handles answers at once, notifications a tick later).
      client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
        const { progressToken, ...progress } = notification.params;
        this.#progress.get(String(progressToken))?.(progress);
      });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (current === this.#client) this.#requestSync(current);
        else this.#changedWhileConnecting = current;
      });
      await client.connect(transport, { timeout: this.connectTimeoutMs });
      signal.throwIfAborted();
      this.#capabilities = client.getServerCapabilities();
      this.#listen(transport);
      await this.#sync(client, this.connectTimeoutMs);
      signal.throwIfAborted();
      if (!client.transport) throw new Error('the connection closed while starting');
      return client;
    } catch (error) {
      await stopping;
      await this.#closeQuietly(client, transport);
      throw new Error(closeReasonOf(transport) ?? this.#describe(error), { cause: error });
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /** A connection just got ready: a `list_changed` that raced its first `tools/list` lists again; hooks learn of it. */
  #onReady(client: Client): void {
    if (this.#changedWhileConnecting === client) this.#requestSync(client);
    this.#changedWhileConnecting = undefined;
    this.#options.hooks?.onReady?.(this);
  }

  #describe(error: unknown): string {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `no answer within ${this.connectTimeoutMs} ms`;
    }
    // fetch failures hide the reason (ECONNREFUSED, ENOTFOUND, ...) in their cause.
    const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
    const detail =
      typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
    return detail ? `${messageOf(error)} (${detail})` : messageOf(error);
  }

  /** Notes when the server last sent anything: the supervised source pings it only after a silence. */
  #listen(transport: Transport): void {
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.#source.heard();
      onmessage?.(message, extra);
    };
  }

  #captureStderr(transport: Transport): void {
    const stream = processOf(transport)?.stderr as Readable | null | undefined;
    if (!stream) return;
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim() === '') continue;
        this.#stderr.push(line);
        if (this.#stderr.length > STDERR_LINES_KEPT) this.#stderr.shift();
        this.#logger.debug(`[${this.name}] ${line}`);
      }
    });
  }

  async #closeQuietly(client: Client | undefined, transport: Transport | undefined): Promise<void> {
    if (this.#transport === transport) this.#transport = undefined;
    try {
      if (client) await client.close();
      else await transport?.close();
    } catch (error) {
      this.#logger.debug(`[${this.name}] closing: ${messageOf(error)}`);
    }
  }

  #requestSync(client: Client): void {
    if (client !== this.#client) return; // the first sync of a new connection runs in #connectOnce
    void this.#syncing.request();
  }

  /** Lists the server's tools and applies the difference to the catalog: adds, replaces, removes. */
  async #sync(client: Client, timeout: number): Promise<void> {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.#listTools(client, cursor, timeout);
      listed.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    if (this.status === 'closed') return;
    const descriptors: ToolDescriptor[] = [];
    for (const raw of listed) {
      if (raw.execution?.taskSupport === 'required') {
        this.#logger.debug(
          `server "${this.name}": tool "${raw.name}" needs task-based execution, which is not forwarded; skipped`,
        );
        continue;
      }
      try {
        descriptors.push(this.#descriptor(raw));
      } catch (error) {
        this.#logger.warn(`server "${this.name}": tool "${String(raw.name)}" skipped: ${whySkipped(error)}`);
      }
    }
    const { added, replaced, removed } = this.#owned.apply(descriptors);
    if (added + replaced + removed > 0) {
      this.#logger.debug(`server "${this.name}": tools re-indexed (+${added} ~${replaced} -${removed})`);
    }
  }

  /**
   * One page of `tools/list` (none of a server without tools that does not answer it); an answer
   * that cannot be read fails saying so, not as "no answer".
   */
  async #listTools(client: Client, cursor: string | undefined, timeout: number) {
    try {
      return await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    } catch (error) {
      // A server that offers no tools (only resources or prompts) may not answer tools/list at all.
      const noTools = !client.getServerCapabilities()?.tools;
      if (noTools && error instanceof McpError && error.code === ErrorCode.MethodNotFound) return { tools: [] };
      const why = readFailure(error);
      if (why === undefined) throw error;
      throw new Error(`its tools/list answer could not be read: ${why}`);
    }
  }

  #descriptor(raw: Tool): ToolDescriptor {
    const [imported] = fromMcpTools([raw], { idPrefix: this.idPrefix, source: this.name });
    if (!imported) throw new Error('the tool definition could not be read');
    if (this.#reserved.has(toToolName(imported.id))) {
      throw new Error(
        `its name "${imported.id}" is a meta-tool's; rename that meta-tool (the metaTools option) to serve it`,
      );
    }
    const toolName = raw.name;
    return {
      ...imported,
      pinned: this.#pinned.has(imported.id),
      tool: raw,
      execute: (args, context) => this.callTool(toolName, args, { signal: context.abortSignal }),
    };
  }
}
