import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type CatalogTool, importCatalog, type ToolDescriptor } from '@toolscout/core';
import { McpToolSearchServer } from '@toolscout/mcp';
import { type Logger, McpGateway } from '@toolscout/mcp-gateway';
import { DEMO_SERVERS, type DemoServer, demoServersConfig } from './demo-servers.js';

/** One server of the catalog, as the demo reports it. */
export interface ServerReport {
  name: string;
  packageName: string;
  /** Tools it contributed; 0 when it did not start. */
  tools: number;
  /** `ready`, or why it is not. */
  status: string;
}

/** An MCP client session on the catalog, for the MCP agent. */
export interface McpSession {
  client: Client;
  /** What serves the session, for the trace. */
  description: string;
  /** How many `notifications/tools/list_changed` the client has received. */
  listChanged(): number;
  /** What the server side wrote to stderr (the gateway's log), last lines. */
  log(): string[];
  close(): Promise<void>;
}

/** The tools the agents search, and how to reach them over MCP. */
export interface DemoCatalog {
  /** `servers`: real MCP servers; `file`: a catalog file whose tools only dry-run. */
  kind: 'servers' | 'file';
  /** What the catalog is, in a few words. */
  source: string;
  /** The catalog as core descriptors: namespaced ids, JSON Schemas, and an `execute` for each tool. */
  tools: ToolDescriptor[];
  /** The servers behind the catalog (none for a file). */
  servers: ServerReport[];
  /** What the in-process gateway warned about while starting (a server that failed, a tool skipped). */
  warnings: string[];
  /** Opens the MCP agent's session. */
  connectMcp(): Promise<McpSession>;
  /**
   * The tools of one in-process agent: {@link tools}, with the servers that keep state per agent
   * (the memory server) started anew for it. `close` stops those; the catalog's `close` does too.
   */
  agentTools(agent: string): Promise<AgentTools>;
  /** Stops every server and gateway process the catalog started. */
  close(): Promise<void>;
}

/** The tools one in-process agent runs, and what stops the servers started for it alone. */
export interface AgentTools {
  tools: ToolDescriptor[];
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The built `toolscout-mcp` bin of `@toolscout/mcp-gateway`. */
export function gatewayBin(): string {
  const manifestPath = require.resolve('@toolscout/mcp-gateway/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const bin = manifest.bin['toolscout-mcp'];
  if (!bin) throw new Error('@toolscout/mcp-gateway has no toolscout-mcp bin.');
  return join(dirname(manifestPath), bin);
}

/** A gateway catalog tool as a plain descriptor: the adapters build their own framework tools from it. */
function plainDescriptor(tool: CatalogTool<unknown>): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    id: tool.id,
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.jsonSchema,
  };
  if (tool.source !== undefined) descriptor.source = tool.source;
  if (tool.annotations !== undefined) descriptor.annotations = tool.annotations;
  if (tool.execute !== undefined) descriptor.execute = tool.execute;
  return descriptor;
}

/** A logger that keeps the gateway's warnings for the report instead of printing them. */
function collectingLogger(lines: string[]): Logger {
  const keep = (message: string) => {
    lines.push(message);
    if (lines.length > 50) lines.shift();
  };
  return { error: keep, warn: keep, info() {}, debug() {} };
}

/** Splits a stream's text into lines, keeping the last `max`. */
function collectLines(stream: NodeJS.ReadableStream | null, lines: string[], max = 40): void {
  if (!stream) return;
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split(/\r?\n/);
    partial = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      lines.push(line);
      if (lines.length > max) lines.shift();
    }
  });
}

/**
 * The `toolscout-mcp` gateway as a child process over stdio, with an MCP `Client` connected: what
 * Claude Desktop or Cursor do with the gateway in their config. Resolves once the gateway answered
 * `initialize` (it waits for every server's first start).
 */
export async function connectGatewayProcess(configFile: string): Promise<McpSession> {
  const log: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [gatewayBin(), '--config', configFile],
    stderr: 'pipe',
  });
  collectLines(transport.stderr as NodeJS.ReadableStream | null, log);
  const client = new Client({ name: 'toolscout-demo', version: '0.0.0' }, { capabilities: {} });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  try {
    await client.connect(transport, { timeout: 90_000 });
  } catch (error) {
    await client.close().catch(() => {});
    const tail = log.slice(-5).join('\n  ');
    throw new Error(
      `The toolscout-mcp gateway did not start: ${(error as Error).message}${tail ? `\n  its last log lines:\n  ${tail}` : ''}`,
      { cause: error },
    );
  }
  return {
    client,
    description: `toolscout-mcp (${gatewayBin()}) as a child process, over stdio`,
    listChanged: () => changes,
    log: () => [...log],
    close: () => client.close(),
  };
}

/**
 * Starts the demo's MCP servers (see {@link DEMO_SERVERS}) in-process through `McpGateway` (the
 * `@toolscout/mcp-gateway` library): their tools land in one catalog under `server__tool` ids, and each
 * descriptor's `execute` forwards the call to its server. The MCP agent gets its own gateway
 * process in front of the same servers ({@link connectGatewayProcess}).
 */
export async function startServerCatalog(options: {
  /** The demo's temporary folder: the config file and the servers' state go there. */
  workDir: string;
  /** The folder the filesystem server serves. */
  filesDir: string;
  /** Default {@link DEMO_SERVERS}. */
  servers?: readonly DemoServer[];
  /** Start the MCP agent's gateway process now, beside the in-process servers, to save time. */
  prestartMcp?: boolean;
}): Promise<DemoCatalog> {
  const servers = options.servers ?? DEMO_SERVERS;
  // Two instances of the servers (plus, per in-process agent, its own of those with `statePerAgent`):
  // the in-process gateway's and the gateway process's, each with its
  // own state (two memory servers must not share a file), both serving the same files folder.
  const dirs = (name: string) => ({ filesDir: options.filesDir, stateDir: join(options.workDir, name) });
  const config = demoServersConfig(dirs('in-process'), servers);
  const configFile = join(options.workDir, 'mcp-servers.json');
  await mkdir(dirs('gateway').stateDir, { recursive: true });
  await mkdir(dirs('in-process').stateDir, { recursive: true });
  await writeFile(
    configFile,
    `${JSON.stringify({ mcpServers: demoServersConfig(dirs('gateway'), servers) }, null, 2)}\n`,
  );
  const warnings: string[] = [];
  const gateway = new McpGateway({ servers: config, logger: collectingLogger(warnings) });
  const sessions = new Set<McpSession>();
  const opening = new Set<Promise<McpSession>>();
  let closed = false;
  const open = (): Promise<McpSession> => {
    const pending = connectGatewayProcess(configFile).then((session) => {
      const tracked: McpSession = {
        ...session,
        close: async () => {
          sessions.delete(tracked);
          await session.close();
        },
      };
      sessions.add(tracked);
      return tracked;
    });
    opening.add(pending);
    pending.then(
      () => opening.delete(pending),
      () => opening.delete(pending),
    );
    return pending;
  };
  const agentGateways = new Set<McpGateway>();
  const perAgent = servers.filter((server) => server.statePerAgent);
  let prestarted = options.prestartMcp ? open() : undefined;
  prestarted?.catch(() => {}); // reported when the MCP agent asks for its session
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed = true;
    closing ??= (async () => {
      await Promise.allSettled([...opening]);
      await Promise.allSettled([...sessions].map((session) => session.close()));
      await Promise.allSettled([...agentGateways].map((own) => own.close()));
      await gateway.close();
    })();
    return closing;
  };
  try {
    await gateway.start();
  } catch (error) {
    await close();
    throw error;
  }
  const reports: ServerReport[] = servers.map((server) => {
    const upstream = gateway.upstreams.get(server.name);
    return {
      name: server.name,
      packageName: server.packageName,
      tools: upstream?.toolIds.length ?? 0,
      status: upstream?.status === 'ready' ? 'ready' : (upstream?.statusReason ?? 'not started'),
    };
  });
  const tools = gateway.catalog.list().map(plainDescriptor);
  return {
    kind: 'servers',
    source: `${reports.filter((report) => report.status === 'ready').length} MCP servers from npm`,
    tools,
    servers: reports,
    warnings: [...warnings],
    connectMcp() {
      if (closed) return Promise.reject(new Error('The catalog is closed.'));
      const session = prestarted ?? open();
      prestarted = undefined;
      return session;
    },
    async agentTools(agent) {
      if (closed) throw new Error('The catalog is closed.');
      if (perAgent.length === 0) return { tools, close: async () => {} };
      await mkdir(dirs(agent).stateDir, { recursive: true });
      const own = new McpGateway({ servers: demoServersConfig(dirs(agent), perAgent), logger: collectingLogger([]) });
      agentGateways.add(own);
      const stop = async () => {
        agentGateways.delete(own);
        await own.close();
      };
      try {
        await own.start();
      } catch (error) {
        await stop();
        throw error;
      }
      const replaced = new Map(own.catalog.list().map((tool) => [tool.id, plainDescriptor(tool)]));
      return { tools: tools.map((tool) => replaced.get(tool.id) ?? tool), close: stop };
    },
    close,
  };
}

/** What a dry-run call of a catalog-file tool returns. */
export interface DryRunResult {
  dryRun: true;
  tool: string;
  /** The arguments, as validated against the tool's schema. */
  arguments: unknown;
  note: string;
}

/**
 * A catalog file in any format the importers read (JSON Lines, an MCP `tools/list` result, OpenAI or
 * Anthropic tool definitions). Its tools have no executors: a call is a dry run that returns the
 * validated arguments. The MCP agent talks to an in-process `McpToolSearchServer` over an in-memory
 * transport.
 */
export async function loadFileCatalog(file: string): Promise<DemoCatalog> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the catalog file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const imported = importCatalog(text, { file });
  if (imported.length === 0) throw new Error(`The catalog file ${file} holds no tools.`);
  const tools = imported.map(
    (descriptor): ToolDescriptor => ({
      ...descriptor,
      execute: (input): DryRunResult => ({
        dryRun: true,
        tool: descriptor.id,
        arguments: input,
        note: 'a dry run: tools from a catalog file have no executor',
      }),
    }),
  );
  const servers = new Set<McpToolSearchServer>();
  const sessions = new Set<McpSession>();
  return {
    kind: 'file',
    source: `the catalog file ${file}`,
    tools,
    servers: [],
    warnings: [],
    agentTools: async () => ({ tools, close: async () => {} }),
    async connectMcp() {
      const server = new McpToolSearchServer({ catalog: tools, serverInfo: { name: 'toolscout', version: '0.0.0' } });
      servers.add(server);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'toolscout-demo', version: '0.0.0' }, { capabilities: {} });
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes++;
      });
      await client.connect(clientSide);
      const session: McpSession = {
        client,
        description: 'an in-process McpToolSearchServer over an in-memory transport (no servers behind a catalog file)',
        listChanged: () => changes,
        log: () => [],
        close: async () => {
          sessions.delete(session);
          await client.close();
          await server.close();
          servers.delete(server);
        },
      };
      sessions.add(session);
      return session;
    },
    async close() {
      await Promise.allSettled([...sessions].map((session) => session.close()));
      await Promise.allSettled([...servers].map((server) => server.close()));
    },
  };
}
