import { fstatSync, readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { TOOL_SEARCH_MODES, type ToolSearchMode, ToolscoutError } from '@toolscout/core';
import { createQuickJsSandbox } from '@toolscout/core/code-mode';
import { InvalidOptionError } from '@toolscout/core/errors';
import { checkFor, markerOf } from '@toolscout/core/internal';
import { AUTH_TOKEN_ENV } from './http-access.js';
import { createStderrLogger, type Logger } from './logger.js';
import { McpGateway } from './mcp-gateway.js';
import { readMcpServersConfig } from './mcp-servers-config.js';
import {
  assertServeHttpOptions,
  type HttpEndpoint,
  isLoopback,
  type ServeHttpOptions,
  serveHttp,
} from './serve-http.js';
import { type StdioSession, serveStdio } from './serve-stdio.js';

/** A mistake on the command line (exit code 2). */
export class GatewayUsageError extends ToolscoutError {
  static override readonly marker = markerOf('GatewayUsageError');
  static override readonly isInstance = checkFor<GatewayUsageError>(GatewayUsageError.marker);

  constructor(message: string) {
    super('mcp-cli-usage', message);
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
  /** With `http`: more `Host` names the endpoint answers to, besides loopback. */
  allowedHosts: string[];
  /** With `http`: more browser origins accepted, besides loopback ones. */
  allowedOrigins: string[];
  /** With `http`: the file holding the bearer token clients must send. */
  authTokenFile?: string;
  /** With `http`: the most client sessions open at once. */
  maxSessions?: number;
  /** How clients reach the catalog. */
  mode: ToolSearchMode;
  /** Catalog ids of tools offered without a search. */
  pinned: string[];
  /** The per-call timeout, in milliseconds. */
  callTimeoutMs: number;
  /** How long starting one server may take, in milliseconds. */
  connectTimeoutMs: number;
  /** Items per page of tools/list, resources/list, resources/templates/list and prompts/list. */
  pageSize?: number;
  /** Offer search_resources and read_resource (the servers' resources and prompts, searchable). */
  searchResources?: boolean;
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
  --host HOST             the address for --http (default 127.0.0.1: this machine only); any
                          other address needs a bearer token
  --auth-token-file FILE  with --http: clients must send "Authorization: Bearer <token>" with
                          the token in FILE (or in $TOOLSCOUT_MCP_AUTH_TOKEN); at least 16
                          characters, e.g. from \`openssl rand -hex 32\`
  --allowed-host NAME     with --http: also answer to this Host name (default: loopback names
                          and the --host address only, against DNS rebinding); repeatable
  --allowed-origin ORIGIN with --http: also accept browser requests from this origin, e.g.
                          https://app.example.com (default: loopback origins); repeatable
  --max-sessions N        with --http: the most client sessions open at once (default 1000)
  --mode MODE             search-load (default), auto-load, catalog, proxy (a call_tool
                          meta-tool, for clients that ignore tools/list_changed), or code
                          (run_tool_code: a short program searches and calls, in a sandbox)
  --pin ID                offer this tool at every step without a search, e.g.
                          github__create_issue; repeatable
  --timeout MS            per-call timeout for forwarded calls (default 60000)
  --connect-timeout MS    how long one server may take to start (default 30000)
  --page-size N           items per page of tools/list, resources/list, resources/templates/list
                          and prompts/list (default 100)
  --search-resources      also offer search_resources and read_resource: the servers' resources
                          and prompts, searchable by the model (about 135 more tokens per step)
  --verbose               debug logs (every call, re-indexing, servers' stderr) on stderr
  -h, --help              this help
  --version               the version

Logs go to stderr; stdout carries only the MCP protocol. Stops on SIGINT, SIGTERM, SIGHUP or when
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
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'auth-token-file': { type: 'string' },
  'max-sessions': { type: 'string' },
  mode: { type: 'string' },
  pin: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'page-size': { type: 'string' },
  'search-resources': { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** The options that make sense only when serving HTTP. */
const HTTP_ONLY = ['host', 'allowed-host', 'allowed-origin', 'auth-token-file', 'max-sessions'] as const;

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
  if (http === undefined) {
    for (const option of HTTP_ONLY) {
      if (values[option] !== undefined) throw new GatewayUsageError(`--${option} applies only with --http PORT.`);
    }
  }
  const maxSessions = positiveInteger(values['max-sessions'], '--max-sessions');
  const args: GatewayArgs = {
    config: values.config,
    host: values.host ?? '127.0.0.1',
    allowedHosts: values['allowed-host'] ?? [],
    allowedOrigins: values['allowed-origin'] ?? [],
    mode,
    pinned: values.pin ?? [],
    callTimeoutMs: positiveInteger(values.timeout, '--timeout') ?? 60_000,
    connectTimeoutMs: positiveInteger(values['connect-timeout'], '--connect-timeout') ?? 30_000,
    verbose: values.verbose ?? false,
  };
  if (http !== undefined) args.http = http;
  if (values['auth-token-file'] !== undefined) args.authTokenFile = values['auth-token-file'];
  if (maxSessions !== undefined) args.maxSessions = maxSessions;
  const pageSize = positiveInteger(values['page-size'], '--page-size');
  if (pageSize !== undefined) args.pageSize = pageSize;
  if (values['search-resources']) args.searchResources = true;
  return args;
}

/**
 * The bearer token of `--auth-token-file` or `TOOLSCOUT_MCP_AUTH_TOKEN` (surrounding whitespace
 * trimmed), or undefined when neither is given. Both at once is a usage error.
 */
function readAuthToken(file: string | undefined, env: Record<string, string | undefined>): string | undefined {
  const fromEnv = env[AUTH_TOKEN_ENV];
  if (file !== undefined && fromEnv !== undefined) {
    throw new GatewayUsageError(
      `the bearer token is given twice, by --auth-token-file and by ${AUTH_TOKEN_ENV}: give it once.`,
    );
  }
  if (file === undefined) {
    if (fromEnv !== undefined && fromEnv.trim() === '') {
      throw new InvalidOptionError(
        'authToken',
        `${AUTH_TOKEN_ENV} is set but empty: set it to the token, or unset it.`,
      );
    }
    return fromEnv?.trim();
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (error as Error).message;
    throw new InvalidOptionError('authToken', `--auth-token-file ${file}: ${reason}.`);
  }
  const token = text.trim();
  if (token === '') {
    throw new InvalidOptionError(
      'authToken',
      `--auth-token-file ${file} is empty: put the token in it, e.g. from \`openssl rand -hex 32\`.`,
    );
  }
  return token;
}

/** The `serveHttp` options of a command line, bearer token read and all checked before any server starts. */
function httpOptions(args: GatewayArgs, port: number, env: Record<string, string | undefined>): ServeHttpOptions {
  const options: ServeHttpOptions = {
    port,
    host: args.host,
    allowedHosts: args.allowedHosts,
    allowedOrigins: args.allowedOrigins,
  };
  if (args.maxSessions !== undefined) options.maxSessions = args.maxSessions;
  const authToken = readAuthToken(args.authTokenFile, env);
  if (authToken !== undefined) options.authToken = authToken;
  assertServeHttpOptions(options);
  return options;
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
  /** The environment (for `TOOLSCOUT_MCP_AUTH_TOKEN`). Default `process.env`. */
  env?: Record<string, string | undefined>;
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
 * Reads a pipe's data into memory until `release()`, which pauses the pipe and puts the data back
 * unread for the reader that comes next (resume it then), and calls `onEnd` if the pipe ends first.
 * A terminal or /dev/null is left alone.
 */
function holdStdin(stdin: Readable, onEnd: () => void): { release(): void } | undefined {
  if (!stdinIsPipe(stdin)) return undefined;
  const chunks: Buffer[] = [];
  const onData = (chunk: Buffer) => chunks.push(chunk);
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  return {
    release() {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      if (chunks.length > 0) stdin.unshift(Buffer.concat(chunks));
    },
  };
}

/**
 * Runs `toolscout-mcp` until it is stopped: reads the config, starts the servers, serves stdio or
 * HTTP, and shuts everything down on SIGINT, SIGTERM or stdin close. Resolves to the exit code:
 * 0 after a clean shutdown, 1 for an unusable config or HTTP setting (an unreadable or empty token
 * file, a non-loopback `--host` without a token, ...), 2 for a bad command line.
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
  let http: ServeHttpOptions | undefined;
  try {
    if (args.http !== undefined) http = httpOptions(args, args.http, io.env ?? process.env);
  } catch (error) {
    io.stderr.write(`toolscout-mcp: ${(error as Error).message}\n`);
    return GatewayUsageError.isInstance(error) ? 2 : 1;
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
      ...(args.mode === 'code' ? { code: { sandbox: await createQuickJsSandbox() } } : {}),
      pinned: args.pinned,
      callTimeoutMs: args.callTimeoutMs,
      connectTimeoutMs: args.connectTimeoutMs,
      pageSize: args.pageSize,
      searchResources: args.searchResources,
      // Over stdio the gateway serves one client: the servers' requests go to it.
      soleSession: args.http === undefined,
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

  // A client may leave while the servers are still starting: stdin is read (and what it sends kept
  // for the session) from now on, since its end is only seen by reading it.
  const early = http === undefined ? holdStdin(io.stdin, () => void shutdown('stdin closed')) : undefined;
  try {
    await gateway.start();
    early?.release();
    if (stopping) return await done.finally(unsubscribe);
    const pinnedMissing = args.pinned.filter((id) => !gateway.catalog.has(id));
    if (pinnedMissing.length > 0) logger.warn(`--pin: no tool with id ${pinnedMissing.join(', ')} (yet)`);
    const summary = `${gateway.catalog.size} tool(s) from ${[...gateway.upstreams.values()].filter((u) => u.status === 'ready').length}/${gateway.upstreams.size} server(s)`;
    if (http === undefined) {
      stdio = await serveStdio(gateway, {
        stdin: io.stdin,
        stdout: io.stdout,
        threadId: 'stdio',
        onError: (error) => logger.warn(`stdin: ${error.message}`),
      });
      // Paused by the early reader, it flows again for the session, what came early first.
      if (early) io.stdin.resume();
      void stdio.closed.then(() => shutdown('stdin closed'));
      logger.info(`serving ${summary} on stdio (mode ${args.mode})`);
    } else {
      endpoint = await serveHttp(gateway, { ...http, logger });
      if (!isLoopback(args.host)) logger.info(`listening on ${args.host}: clients must send the bearer token`);
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
