import { fstatSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { TOOL_SEARCH_MODES, type ToolSearchMode, ToolscoutError } from '@toolscout/core';
import { createStderrLogger, type Logger } from './logger.js';
import { McpGateway } from './mcp-gateway.js';
import { readMcpServersConfig } from './mcp-servers-config.js';
import { type HttpEndpoint, isLoopback, serveHttp } from './serve-http.js';
import { type StdioSession, serveStdio } from './serve-stdio.js';

/** A mistake on the command line (exit code 2). */
export class GatewayUsageError extends ToolscoutError {
  constructor(message: string) {
    super('mcp-cli-usage', message);
    this.name = 'GatewayUsageError';
  }

  static override isInstance(error: unknown): error is GatewayUsageError {
    return ToolscoutError.isInstance(error) && error.code === 'mcp-cli-usage';
  }
}

/** The parsed `toolscout-mcp` command line. */
export interface GatewayArgs {
  /** The `mcpServers` config file. */
  config: string;
  /** Serve Streamable HTTP on this port instead of stdio (0: any free port). */
  http?: number;
  /** The address to listen on with `http`. */
  host: string;
  /** How clients reach the catalog. */
  mode: ToolSearchMode;
  /** Catalog ids of tools offered without a search. */
  pinned: string[];
  /** The per-call timeout, in milliseconds. */
  callTimeoutMs: number;
  /** How long starting one server may take, in milliseconds. */
  connectTimeoutMs: number;
  /** Debug logs on stderr. */
  verbose: boolean;
}

export const GATEWAY_USAGE = `Usage: toolscout-mcp --config FILE [options]

Serves the tools of every MCP server in FILE (the "mcpServers" config of Claude Desktop,
Cursor, ...) as one searchable catalog: clients see search_tools and load_tool instead of
every tool schema, and load what they need. Tool ids are namespaced: <server>__<tool>.

Options:
  --config FILE           the mcpServers config (JSON); required
  --http PORT             serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
                          (0 picks a free port)
  --host HOST             the address for --http (default 127.0.0.1: this machine only)
  --mode MODE             search-load (default), auto-load, catalog, or proxy (a call_tool
                          meta-tool, for clients that ignore tools/list_changed)
  --pin ID                offer this tool at every step without a search, e.g.
                          github__create_issue; repeatable
  --timeout MS            per-call timeout for forwarded calls (default 60000)
  --connect-timeout MS    how long one server may take to start (default 30000)
  --verbose               debug logs (every call, re-indexing, servers' stderr) on stderr
  -h, --help              this help
  --version               the version

Logs go to stderr; stdout carries only the MCP protocol. Stops on SIGINT, SIGTERM or when
stdin closes, and stops every server it started.`;

function positiveInteger(value: string | undefined, option: string, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || (!allowZero && number === 0)) {
    throw new GatewayUsageError(
      `${option} needs a${allowZero ? ' non-negative' : ' positive'} integer; got "${value}".`,
    );
  }
  return number;
}

const ARG_OPTIONS = {
  config: { type: 'string' },
  http: { type: 'string' },
  host: { type: 'string' },
  mode: { type: 'string' },
  pin: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

function parseRaw(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: ARG_OPTIONS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new GatewayUsageError((error as Error).message);
  }
}

/** Parses the command line; `help` and `version` when asked for. Throws {@link GatewayUsageError}. */
export function parseGatewayArgs(argv: readonly string[]): GatewayArgs | { help: true } | { version: true } {
  const { values } = parseRaw(argv);
  if (values.help) return { help: true };
  if (values.version) return { version: true };
  if (values.config === undefined || values.config === '') {
    throw new GatewayUsageError('--config FILE is required: the mcpServers config of the servers to serve.');
  }
  const mode = (values.mode ?? 'search-load') as ToolSearchMode;
  if (!TOOL_SEARCH_MODES.includes(mode)) {
    throw new GatewayUsageError(`--mode must be one of ${TOOL_SEARCH_MODES.join(', ')}; got "${values.mode}".`);
  }
  const http = positiveInteger(values.http, '--http', true);
  if (http !== undefined && http > 65535)
    throw new GatewayUsageError(`--http needs a port from 0 to 65535; got ${http}.`);
  if (values.host !== undefined && http === undefined)
    throw new GatewayUsageError('--host applies only with --http PORT.');
  const args: GatewayArgs = {
    config: values.config,
    host: values.host ?? '127.0.0.1',
    mode,
    pinned: values.pin ?? [],
    callTimeoutMs: positiveInteger(values.timeout, '--timeout') ?? 60_000,
    connectTimeoutMs: positiveInteger(values['connect-timeout'], '--connect-timeout') ?? 30_000,
    verbose: values.verbose ?? false,
  };
  if (http !== undefined) args.http = http;
  return args;
}

/** What the gateway CLI touches outside itself. */
export interface GatewayCliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: { write(text: string): unknown };
  /** Subscribes to SIGINT and SIGTERM; returns the unsubscribe function. */
  onSignal: (handler: (signal: string) => void) => () => void;
  /** The package's version, for `--version` and `initialize`. */
  version: string;
}

/** Whether stdin is a pipe or socket a parent can close (not a terminal, not /dev/null). */
function stdinIsPipe(stdin: Readable): boolean {
  const fd = (stdin as Readable & { fd?: number }).fd;
  if (typeof fd !== 'number') return true;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Runs `toolscout-mcp` until it is stopped: reads the config, starts the servers, serves stdio or
 * HTTP, and shuts everything down on SIGINT, SIGTERM or stdin close. Resolves to the exit code:
 * 0 after a clean shutdown, 1 for an unusable config, 2 for a bad command line.
 */
export async function runGatewayCli(argv: readonly string[], io: GatewayCliIO): Promise<number> {
  let args: ReturnType<typeof parseGatewayArgs>;
  try {
    args = parseGatewayArgs(argv);
  } catch (error) {
    io.stderr.write(`toolscout-mcp: ${(error as Error).message}\n\n${GATEWAY_USAGE}\n`);
    return 2;
  }
  if ('help' in args) {
    io.stderr.write(`${GATEWAY_USAGE}\n`);
    return 0;
  }
  if ('version' in args) {
    io.stderr.write(`${io.version}\n`);
    return 0;
  }
  const logger: Logger = createStderrLogger({ level: args.verbose ? 'debug' : 'info', stream: io.stderr });
  let gateway: McpGateway;
  try {
    const config = await readMcpServersConfig(args.config);
    if (config.disabled.length > 0) logger.info(`disabled in the config, skipped: ${config.disabled.join(', ')}`);
    if (Object.keys(config.servers).length === 0) logger.warn(`${args.config} lists no servers: the catalog is empty`);
    gateway = new McpGateway({
      servers: config.servers,
      mode: args.mode,
      pinned: args.pinned,
      callTimeoutMs: args.callTimeoutMs,
      connectTimeoutMs: args.connectTimeoutMs,
      logger,
      serverInfo: { name: 'toolscout-mcp', version: io.version },
      clientInfo: { name: 'toolscout-mcp', version: io.version },
      onEvent: args.verbose ? (event) => logger.debug(`event ${JSON.stringify(event)}`) : undefined,
    });
  } catch (error) {
    io.stderr.write(`toolscout-mcp: ${(error as Error).message}\n`);
    return 1;
  }

  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let stdio: StdioSession | undefined;
  let endpoint: HttpEndpoint | undefined;
  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`shutting down (${why})`);
    await endpoint?.close().catch(() => {});
    await stdio?.close().catch(() => {});
    await gateway.close();
    finish(0);
  };
  const unsubscribe = io.onSignal((signal) => {
    if (!stopping) {
      void shutdown(signal);
      return;
    }
    // A second signal: do not wait for servers to exit.
    logger.warn(`${signal} again: killing the servers now`);
    for (const pid of gateway.childPids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    finish(130);
  });

  try {
    await gateway.start();
    if (stopping) return await done.finally(unsubscribe);
    const pinnedMissing = args.pinned.filter((id) => !gateway.catalog.has(id));
    if (pinnedMissing.length > 0) logger.warn(`--pin: no tool with id ${pinnedMissing.join(', ')} (yet)`);
    const summary = `${gateway.catalog.size} tool(s) from ${[...gateway.upstreams.values()].filter((u) => u.status === 'ready').length}/${gateway.upstreams.size} server(s)`;
    if (args.http === undefined) {
      stdio = await serveStdio(gateway, {
        stdin: io.stdin,
        stdout: io.stdout,
        threadId: 'stdio',
        onError: (error) => logger.warn(`stdin: ${error.message}`),
      });
      void stdio.closed.then(() => shutdown('stdin closed'));
      logger.info(`serving ${summary} on stdio (mode ${args.mode})`);
    } else {
      endpoint = await serveHttp(gateway, { port: args.http, host: args.host, logger });
      if (!isLoopback(args.host)) {
        logger.warn(`listening on ${args.host}: any machine that reaches it can call your tools (no authentication)`);
      }
      if (stdinIsPipe(io.stdin)) {
        io.stdin.once('end', () => void shutdown('stdin closed'));
        io.stdin.once('close', () => void shutdown('stdin closed'));
        io.stdin.resume();
      }
      logger.info(`serving ${summary} on ${endpoint.url.href} (mode ${args.mode})`);
    }
  } catch (error) {
    logger.error((error as Error).message);
    await shutdown('start-up failed');
    unsubscribe();
    return 1;
  }
  return await done.finally(unsubscribe);
}
