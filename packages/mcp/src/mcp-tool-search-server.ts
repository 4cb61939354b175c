import { randomUUID } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type Implementation, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  type LoadedStateStrategy,
  type OfferedTool,
  type StepRequest,
  ToolSearchSession,
  type ToolSearchSessionOptions,
} from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { isRecord, stepRequestProblem, threadKey } from '@toolscout/core/internal';
import { McpConnectionLimitError, McpServerClosedError } from './errors.js';
import { answerInvalidParams } from './invalid-params.js';
import { toCallToolResult, toMcpTool } from './to-mcp-tool.js';

/** Options for a {@link McpToolSearchServer}: the session's, plus what clients are told about the server. */
export interface McpToolSearchServerOptions<TTool = unknown> extends Omit<ToolSearchSessionOptions<TTool>, 'state'> {
  /**
   * Where loaded tools are remembered, per client session. Default `memory`. MCP carries no
   * conversation, so the `conversation` strategy is rejected.
   */
  state?: Exclude<LoadedStateStrategy, 'conversation'>;
  /** The name and version clients see in `initialize`. Default `{ name: 'toolscout', version: '0.0.0' }`. */
  serverInfo?: Implementation;
}

/** One client session (one connection) of a {@link McpToolSearchServer}. */
export interface McpConnectionOptions {
  /** The thread the session's loaded tools are kept under. Default: a new random id per connection. */
  threadId?: string;
  /** The user or tenant of this session; part of the state key. */
  resourceId?: string;
  /**
   * The host's context for this session (e.g. its authenticated user), handed to the policy filter
   * and to executed tools. Default: a {@link McpRequestContext} built for each request.
   */
  context?: unknown;
}

/** The context the policy filter and executed tools receive when the connection gives none. */
/** Something that serves client sessions on a transport: a search server or a gateway. */
export interface McpConnectable {
  connect(transport: Transport, connection?: McpConnectionOptions): Promise<unknown>;
}

export interface McpRequestContext {
  /** The thread id of the client session. */
  threadId: string;
  /** The transport's session id (Streamable HTTP). */
  sessionId?: string;
  /** The validated access token of the request, when the transport authenticates (Streamable HTTP). */
  authInfo?: AuthInfo;
  /** The client's name and version from `initialize`. */
  clientInfo?: Implementation;
}

const LIST_CHANGED = 'notifications/tools/list_changed';

/** Throws {@link InvalidOptionError} for the first option of a server that the MCP side cannot use. */
function checkServerOptions<TTool>(options: McpToolSearchServerOptions<TTool>): void {
  if (!isRecord(options)) {
    throw new InvalidOptionError('options', 'McpToolSearchServer takes an options object: { catalog, ... }.');
  }
  if ((options.state as unknown) === 'conversation') {
    throw new InvalidOptionError(
      'state',
      "state 'conversation' does not apply to MCP: a server sees no conversation. Loaded tools are kept per client session ('memory', the default, or a LoadedToolStore).",
    );
  }
  const info = options.serverInfo;
  if (info !== undefined && !(isRecord(info) && typeof info.name === 'string' && typeof info.version === 'string')) {
    throw new InvalidOptionError('serverInfo', 'serverInfo must be { name: string, version: string }.');
  }
}

/**
 * Throws {@link InvalidOptionError} for a connection option of the wrong kind: core's rule for the
 * ids of a step request, and a thread id that is not empty (without one, no load would persist).
 */
function checkConnection(connection: McpConnectionOptions): void {
  const found = stepRequestProblem(connection);
  if (found !== undefined) {
    const option = found.path === '' ? 'connection' : found.path;
    throw new InvalidOptionError(option, `${option === 'connection' ? 'A connection' : option} ${found.problem}.`);
  }
  if (connection.threadId === '') {
    throw new InvalidOptionError('threadId', 'threadId must be a non-empty string (or left out for a new thread).');
  }
}

/**
 * Serves a tool catalog over MCP as a searchable catalog. `tools/list` shows the meta-tools
 * (`search_tools`, `load_tool`, ...) and pinned tools; per client session, a loaded tool joins
 * `tools/list` and the client is sent `notifications/tools/list_changed`. `tools/call` runs through
 * the core session: meta-tools, loaded tools, and in `proxy` mode `call_tool` for clients that ignore
 * that notification. Tool titles, annotations and output schemas are carried over.
 *
 * It builds one low-level `Server` of the MCP SDK (v1) per connection and holds one
 * {@link ToolSearchSession} for all of them; each connection is its own thread.
 *
 * @example
 * ```ts
 * const add: ToolDescriptor = {
 *   id: 'add',
 *   description: 'Add two numbers',
 *   inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
 *   execute: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b,
 * };
 * const search = new McpToolSearchServer({ catalog: [add, ...moreTools] }); // descriptors with execute
 * await search.connect(new StdioServerTransport());
 * ```
 */
export class McpToolSearchServer<TTool = unknown> {
  /** The core session every connection shares (catalog, index, loaded-tool state, policy, telemetry). */
  readonly session: ToolSearchSession<TTool>;
  /** What clients see in `initialize`; applies to connections made after a change. */
  serverInfo: Implementation;
  /**
   * Sent to clients in `initialize` (clients give them to the model): by default the session's
   * `instructions` (how tool search works); applies to connections made after a change.
   */
  instructions: string | undefined;
  readonly #connections = new Set<Server>();
  /** Live connections per thread (by core's `threadKey`): a thread's state is dropped when its last connection closes. */
  readonly #threadUse = new Map<string, number>();
  readonly #unsubscribe: () => void;
  #closed = false;

  /** @throws {InvalidOptionError} for a bad option, its name in `option` (the session's own included). */
  constructor(options: McpToolSearchServerOptions<TTool>) {
    checkServerOptions(options);
    const { serverInfo, ...sessionOptions } = options;
    this.session = new ToolSearchSession<TTool>(sessionOptions);
    this.serverInfo = serverInfo ?? { name: 'toolscout', version: '0.0.0' };
    this.instructions = this.session.instructions;
    this.#unsubscribe = this.session.catalog.subscribe((change) => {
      if (this.session.changesOffers(change)) this.notifyToolListChanged();
    });
  }

  /** How many client sessions are connected. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /**
   * A new MCP `Server` for one client session, to connect to a transport yourself (e.g. one per
   * Streamable HTTP session). It advertises `tools.listChanged` and answers `tools/list` and
   * `tools/call`. Its `onclose` is used for clean-up: do not replace it; closing the last
   * connection of a thread drops the thread's loaded tools from the in-memory store.
   *
   * With the in-memory store, live sessions may hold at most `memory.maxThreads` threads: a new
   * thread beyond that throws {@link McpConnectionLimitError} instead of evicting a live session's
   * loaded tools. After {@link close}, it throws {@link McpServerClosedError}; a bad connection option,
   * {@link InvalidOptionError}.
   */
  createServer(connection: McpConnectionOptions = {}): Server {
    if (this.#closed) throw new McpServerClosedError();
    checkConnection(connection);
    const { resourceId } = connection;
    const threadId = connection.threadId ?? randomUUID();
    const release = this.#holdThread(threadId, resourceId);
    const server = new Server(this.serverInfo, {
      capabilities: { tools: { listChanged: true } },
      instructions: this.instructions,
      debouncedNotificationMethods: [LIST_CHANGED],
    });
    const stepRequest = (extra: { sessionId?: string; authInfo?: AuthInfo }): StepRequest => {
      const context: McpRequestContext = { threadId };
      if (extra.sessionId !== undefined) context.sessionId = extra.sessionId;
      if (extra.authInfo !== undefined) context.authInfo = extra.authInfo;
      const clientInfo = server.getClientVersion();
      if (clientInfo !== undefined) context.clientInfo = clientInfo;
      return { threadId, resourceId, context: connection.context ?? context };
    };

    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const step = await this.session.prepareStep(stepRequest(extra));
      return { tools: step.tools.map((tool) => toMcpTool(tool as OfferedTool)) };
    });

    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const step = await this.session.prepareStep(stepRequest(extra));
      const outcome = await step.execute(request.params.name, request.params.arguments ?? {}, {
        abortSignal: extra.signal,
      });
      // A meta-tool call that loaded tools changed this client's tools/list.
      if (outcome.ok && outcome.loaded?.length) await extra.sendNotification({ method: LIST_CHANGED }).catch(() => {});
      return toCallToolResult(outcome);
    });
    answerInvalidParams(server);

    this.#connections.add(server);
    server.onclose = () => {
      if (this.#connections.delete(server)) release();
    };
    return server;
  }

  /**
   * Counts one more live connection of a thread, refusing a new thread past the in-memory store's
   * `maxThreads`; returns its release, which forgets the thread's in-memory state with its last
   * connection (a shared store keeps its state).
   */
  #holdThread(threadId: string, resourceId: string | undefined): () => void {
    const key = threadKey({ threadId, resourceId })!;
    const limit = this.session.memoryStore?.maxThreads ?? Number.POSITIVE_INFINITY;
    if (!this.#threadUse.has(key) && this.#threadUse.size >= limit) throw new McpConnectionLimitError(limit);
    this.#threadUse.set(key, (this.#threadUse.get(key) ?? 0) + 1);
    return () => {
      const users = (this.#threadUse.get(key) ?? 1) - 1;
      if (users > 0) {
        this.#threadUse.set(key, users);
        return;
      }
      this.#threadUse.delete(key);
      if (this.session.memoryStore) this.session.clearState(threadId, resourceId).catch(() => {});
    };
  }

  /** Serves one client session on `transport` (stdio, Streamable HTTP, in-memory, ...). */
  async connect(transport: Transport, connection: McpConnectionOptions = {}): Promise<Server> {
    const server = this.createServer(connection);
    try {
      await server.connect(transport);
    } catch (error) {
      server.onclose?.(); // releases the thread it was given
      throw error;
    }
    return server;
  }

  /**
   * Sends `notifications/tools/list_changed` to every connected client (coalesced within a tick).
   * Called on catalog changes that can change what clients are offered.
   */
  notifyToolListChanged(): void {
    for (const server of this.#connections) {
      if (server.transport) server.sendToolListChanged().catch(() => {});
    }
  }

  /** Closes every connection and releases the session. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    await Promise.allSettled([...this.#connections].map((server) => server.close()));
    this.#connections.clear();
    this.#threadUse.clear();
    this.session.dispose();
  }
}
