import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { ToolCatalog } from '@toolscout/core';
import { ImportError, InvalidArgumentError, InvalidOptionError } from '@toolscout/core/errors';
import {
  checkOptionRules,
  describeValue,
  isBoolean,
  isRecord,
  isWholeNumberFrom,
  type OptionRule,
} from '@toolscout/core/internal';
import { DEFAULT_PAGE_SIZE, SourceNames } from '@toolscout/core/sources';
import { type McpConnectionOptions, McpToolSearchServer, type McpToolSearchServerOptions } from '@toolscout/mcp';
import { createStderrLogger, type Logger } from './logger.js';
import {
  isHttpServerConfig,
  type McpServerConfig,
  parseMcpServersConfig,
  serverNameProblem,
} from './mcp-servers-config.js';
import { type McpRestartOptions, McpUpstream } from './mcp-upstream.js';
import { McpUpstreamError } from './mcp-upstream-error.js';
import { OfferIndex, offerTools as offerToolsOf } from './offer-index.js';
import { McpPassThrough } from './pass-through.js';
import { StdioUpstreamTransport } from './stdio-upstream-transport.js';
import { combineHooks } from './upstream-client-hooks.js';
import { upstreamEnvironment } from './upstream-environment.js';

/** An MCP server object of the SDK, served in-process: an `McpServer` or a low-level `Server`. */
export interface McpServerLike {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * One upstream of a gateway: an `mcpServers` entry (stdio `command` or Streamable HTTP `url`), an
 * SDK server object in this process, or a transport of your own.
 */
export type McpGatewayServer =
  | McpServerConfig
  | { server: McpServerLike }
  | { transport: () => Transport | Promise<Transport> };

/** Options for a {@link McpGateway}: its servers, how they are run, and the session's options. */
export interface McpGatewayOptions extends Omit<McpToolSearchServerOptions, 'catalog' | 'index'> {
  /** The upstream servers by name. Each name namespaces its tools: `<name>__<tool>`. */
  servers: Record<string, McpGatewayServer>;
  /**
   * `false`: catalog ids are the servers' own tool names, with no `<name>__` prefix. Only with a
   * single server (tool names are unique only within one server). Default `true`.
   */
  namespace?: boolean;
  /** Catalog ids of tools offered at every step without a search (e.g. `github__create_issue`). */
  pinned?: readonly string[];
  /** How long one forwarded tool call may take. Default 60 s. */
  callTimeoutMs?: number;
  /** How long starting a server (to its first `tools/list`) may take. Default 30 s. */
  connectTimeoutMs?: number;
  /** Restarts of failed, crashed or hung servers, with backoff; `false` to leave them down. */
  restart?: false | McpRestartOptions;
  /** Where the gateway reports. Default: warnings and errors to stderr. */
  logger?: Logger;
  /** How the gateway introduces itself to upstream servers. */
  clientInfo?: Implementation;
  /**
   * Items per page of `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`;
   * longer lists are paged with opaque cursors. Default 100.
   */
  pageSize?: number;
  /** An upstream silent for this long is pinged, and restarted if it does not answer. Default 60 s; `false`: never. */
  pingIntervalMs?: number | false;
  /**
   * Offer two more tools at every step: `search_resources`, which searches the servers' resources,
   * resource templates and prompts (indexed like tools), and `read_resource`. Default `false`.
   */
  searchResources?: boolean;
  /**
   * The gateway serves one client session at a time, as over stdio: a server's request to the
   * client that no client request caused (a `roots/list` when the server starts, a sampling request
   * between calls) goes to that session. Default `false`: such requests are refused, since with
   * several sessions (Streamable HTTP) they cannot be told apart; requests made while serving a
   * client's request always go to that client.
   */
  soleSession?: boolean;
}

/** The name a config entry given in code is checked under: the gateway checks server names itself. */
const CHECKED_NAME = 'entry';

/**
 * Checks a config entry given in code as the config reader checks one read from a file (command,
 * args, env, url, ...), reporting what is wrong as an {@link InvalidOptionError} of `servers`.
 */
function checkServerConfig(name: string, spec: McpServerConfig): void {
  try {
    parseMcpServersConfig({ mcpServers: { [CHECKED_NAME]: spec } });
  } catch (error) {
    if (!ImportError.isInstance(error)) throw error;
    const field = (error.location.field ?? '').replace(`mcpServers.${CHECKED_NAME}`, `servers.${name}`);
    throw new InvalidOptionError('servers', `${field} ${error.problem}.`);
  }
}

function transportFactory(name: string, spec: McpGatewayServer): () => Transport | Promise<Transport> {
  if (!isRecord(spec as unknown)) {
    throw new InvalidOptionError(
      'servers',
      `servers.${name} must be an object: { command, args }, { url }, { server } or { transport }; got ${describeValue(spec)}.`,
    );
  }
  if ('transport' in spec && typeof spec.transport === 'function') return spec.transport;
  if ('server' in spec) {
    const server = spec.server;
    if (!server || typeof server.connect !== 'function') {
      throw new InvalidOptionError(
        'servers',
        `servers.${name}.server must be an MCP SDK server (McpServer or Server).`,
      );
    }
    let connected = false;
    return async () => {
      // A restart: an SDK server connects to one transport at a time.
      if (connected) await server.close().catch(() => {});
      connected = true;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      return clientSide;
    };
  }
  const config = spec as McpServerConfig;
  if (!isHttpServerConfig(config) && (typeof config.command !== 'string' || config.command === '')) {
    throw new InvalidOptionError('servers', `servers.${name} needs "command", "url", "server" or "transport".`);
  }
  checkServerConfig(name, config);
  if (isHttpServerConfig(config)) {
    const url = new URL(config.url);
    return () => new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers ?? {} } });
  }
  return () => {
    const params = {
      command: config.command,
      args: config.args ?? [],
      env: upstreamEnvironment(config),
      cwd: config.cwd,
    };
    // Windows has no process groups, and needs the SDK's cross-spawn to start `npx` and other .cmd files.
    return process.platform === 'win32'
      ? new StdioClientTransport({ ...params, stderr: 'pipe' })
      : new StdioUpstreamTransport(params);
  };
}

const LOGGER_METHODS = ['error', 'warn', 'info', 'debug'] as const;

/**
 * The gateway's own options, one rule each (core's table form); each upstream checks its timeouts,
 * `restart` and `pingIntervalMs` (core's SupervisedSource), the session its own options.
 */
const RULES: readonly OptionRule<McpGatewayOptions>[] = [
  ['servers', isRecord, 'an object of MCP servers by name', 'required'],
  ['namespace', isBoolean, 'true or false'],
  [
    'pinned',
    (v) => Array.isArray(v) && v.every((id) => typeof id === 'string'),
    'an array of catalog ids, e.g. ["github__create_issue"]',
  ],
  [
    'logger',
    (v) => isRecord(v) && LOGGER_METHODS.every((method) => typeof v[method] === 'function'),
    'an object with error, warn, info and debug methods (see createStderrLogger)',
  ],
  ['pageSize', isWholeNumberFrom(1), 'a positive whole number'],
  ['searchResources', isBoolean, 'true or false'],
  ['soleSession', isBoolean, 'true or false'],
];

/**
 * Tool search in front of many MCP servers: connects to every upstream, imports their tools into
 * one catalog with namespaced ids (`server__tool`), and serves it as a searchable catalog through a
 * {@link McpToolSearchServer}. Calls are forwarded to the right upstream with a timeout; an upstream
 * that fails, crashes or hangs is isolated and restarted with backoff.
 *
 * @example
 * ```ts
 * const gateway = new McpGateway({ servers: (await readMcpServersConfig('mcp.json')).servers });
 * await gateway.start();
 * await gateway.connect(new StdioServerTransport());
 * ```
 */
export class McpGateway {
  /** Every upstream tool, under its namespaced id. */
  readonly catalog: ToolCatalog<unknown>;
  /** The searchable MCP server clients connect to. */
  readonly searchServer: McpToolSearchServer;
  /** The upstream servers by name. */
  readonly upstreams: ReadonlyMap<string, McpUpstream>;
  readonly #logger: Logger;
  readonly #passThrough: McpPassThrough;
  readonly #offers: OfferIndex | undefined;

  /** @throws {InvalidOptionError} for a bad option, its name in `option`. */
  constructor(options: McpGatewayOptions) {
    checkOptionRules(options, RULES, 'new McpGateway({ servers })');
    const {
      servers,
      namespace = true,
      pinned,
      callTimeoutMs,
      connectTimeoutMs,
      restart,
      logger,
      clientInfo,
      pageSize = DEFAULT_PAGE_SIZE,
      pingIntervalMs,
      searchResources = false,
      soleSession = false,
      ...searchOptions
    } = options;
    const names = Object.keys(servers);
    if (!namespace && names.length !== 1) {
      throw new InvalidOptionError(
        'namespace',
        `namespace: false needs exactly one server (tool names are unique only within one server); got ${names.length}.`,
      );
    }
    for (const name of names) {
      const problem = namespace ? serverNameProblem(name) : undefined;
      if (problem) throw new InvalidOptionError('servers', `Server name "${name}" ${problem}.`);
    }
    const factories = names.map((name) => transportFactory(name, servers[name]!));
    this.#logger = logger ?? createStderrLogger({ level: 'warn' });
    this.catalog = new ToolCatalog<unknown>([], {
      onListenerError: (error, change) =>
        this.#logger.error(`a catalog listener failed on "${change.type}" of "${change.tool.id}": ${String(error)}`),
    });
    const upstreams = new Map<string, McpUpstream>();
    const upstreamNames = new SourceNames(names, namespace);
    this.#passThrough = new McpPassThrough({
      upstreams,
      names: upstreamNames,
      pageSize,
      requestTimeoutMs: callTimeoutMs ?? 60_000,
      soleSession,
      logger: this.#logger,
    });
    this.#offers = searchResources ? new OfferIndex(upstreamNames, this.#logger) : undefined;
    const offerTools = this.#offers
      ? offerToolsOf(this.#offers, (uri, signal) => this.#passThrough.readResource(uri, signal))
      : [];
    this.searchServer = new McpToolSearchServer({
      serverInfo: { name: 'toolscout-mcp', version: '0.0.0' },
      ...searchOptions,
      tools: [...(searchOptions.tools ?? []), ...offerTools],
      catalog: this.catalog,
    });
    const reservedNames = [
      ...this.searchServer.session.metaTools.map((tool) => tool.name),
      ...offerTools.map((tool) => tool.id),
    ];
    const hooks = this.#offers ? combineHooks(this.#passThrough.hooks, this.#offers.hooks()) : this.#passThrough.hooks;
    try {
      names.forEach((name, index) => {
        upstreams.set(
          name,
          new McpUpstream({
            name,
            connect: factories[index]!,
            catalog: this.catalog,
            idPrefix: namespace ? `${name}__` : '',
            pinned,
            reservedNames,
            callTimeoutMs,
            connectTimeoutMs,
            restart,
            logger: this.#logger,
            clientInfo: clientInfo ?? { name: 'toolscout-mcp', version: '0.0.0' },
            hooks,
            pingIntervalMs,
          }),
        );
      });
    } catch (error) {
      // A bad upstream option: release the session built above (nothing is connected yet).
      void this.searchServer.close();
      throw error;
    }
    this.upstreams = upstreams;
  }

  /**
   * Connects to every upstream at once and waits for each first attempt. Servers that fail to
   * start do not stop the others; they are retried with backoff.
   */
  async start(): Promise<void> {
    const results = await Promise.all([...this.upstreams.values()].map((upstream) => upstream.start()));
    // The first search_resources sees every server that could start, as the first search_tools does.
    await this.#offers?.settled();
    const up = results.filter(Boolean).length;
    this.#logger.info(`${up}/${results.length} server(s) up, ${this.catalog.size} tool(s) in the catalog`);
  }

  /**
   * A new MCP `Server` for one client session (see {@link McpToolSearchServer.createServer}), which
   * also passes through what the upstreams offer besides tools: resources, prompts, completions,
   * logging, progress and their requests to the client. It advertises what they offer now.
   */
  createServer(connection?: McpConnectionOptions): Server {
    const server = this.searchServer.createServer(connection);
    this.#passThrough.attach(server);
    return server;
  }

  /** Serves one client session on `transport`. */
  async connect(transport: Transport, connection?: McpConnectionOptions): Promise<Server> {
    const server = this.createServer(connection);
    try {
      await server.connect(transport);
    } catch (error) {
      server.onclose?.(); // releases the session it was given
      throw error;
    }
    return server;
  }

  /** The process ids of the stdio servers running now (on POSIX, each leads a process group of its own). */
  childPids(): number[] {
    return [...this.upstreams.values()].flatMap((upstream) => (upstream.pid === undefined ? [] : [upstream.pid]));
  }

  /**
   * Closes every client session, then every upstream, stopping their processes (and everything
   * they started), those still starting included; resolves once they are gone.
   */
  async close(): Promise<void> {
    await this.searchServer.close();
    await Promise.allSettled([...this.upstreams.values()].map((upstream) => upstream.close()));
    this.#offers?.dispose();
  }
}

/** Options for {@link wrapMcpServer}. */
export interface WrapMcpServerOptions extends Omit<McpGatewayOptions, 'servers' | 'namespace'> {
  /** The server's name in logs and as its tools' `source`. Default `server`. */
  name?: string;
}

/**
 * Makes an SDK server's tools searchable: connects to `server` in-process, mirrors its tools
 * (names unchanged) into a catalog that follows its `list_changed` notifications, and returns the
 * gateway to connect clients to. Clients see the meta-tools and pinned tools instead of every tool.
 * `serverInfo` defaults to the wrapped server's; `instructions`, to the wrapped server's followed by
 * the session's (how tool search works).
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'big', version: '1.0.0' });
 * // server.registerTool(...) x 200
 * const searchable = await wrapMcpServer(server);
 * await searchable.connect(new StdioServerTransport());
 * ```
 */
export async function wrapMcpServer(server: McpServerLike, options: WrapMcpServerOptions = {}): Promise<McpGateway> {
  if (!isRecord(server) || typeof server.connect !== 'function' || typeof server.close !== 'function') {
    throw new InvalidArgumentError(
      'server',
      'wrapMcpServer takes an MCP SDK server: an McpServer or a low-level Server.',
    );
  }
  const nameRule = [
    'name',
    (name: unknown) => typeof name === 'string' && name !== '',
    'a non-empty string: the server name in logs and sources',
  ] as const;
  checkOptionRules(options, [nameRule], 'wrapMcpServer(server, { name })');
  const { name = 'server', ...rest } = options;
  const gateway = new McpGateway({ ...rest, servers: { [name]: { server } }, namespace: false });
  await gateway.start();
  const upstream = gateway.upstreams.get(name)!;
  if (upstream.status !== 'ready') {
    // Read before closing: closing makes every reason "closed".
    const reason = upstream.statusReason;
    await gateway.close();
    throw new McpUpstreamError(name, 'unavailable', `The wrapped MCP server could not be connected: ${reason}`);
  }
  if (options.serverInfo === undefined && upstream.serverInfo) gateway.searchServer.serverInfo = upstream.serverInfo;
  if (options.instructions === undefined) {
    const parts = [upstream.instructions, gateway.searchServer.session.instructions];
    gateway.searchServer.instructions = parts.filter((part) => part !== undefined && part !== '').join('\n\n');
  }
  return gateway;
}
