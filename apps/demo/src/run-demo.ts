import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolSearchSession } from '@toolscout/core';
import type { LanguageModel } from 'ai';
import { tracedFrameworks } from './cli-args.js';
import { type DemoCatalog, loadFileCatalog, startServerCatalog } from './demo-catalog.js';
import { formatSummary, formatTrace, type OutputStyle, outputStyle, requestOutcome } from './format-trace.js';
import { FRAMEWORK_LABELS, FRAMEWORKS, type FrameworkId, type RequestTrace } from './request-trace.js';
import { createAISDKSearch, runAISDKRequest } from './run-ai-sdk-request.js';
import { createLangChainSearch, runLangChainRequest } from './run-langchain-request.js';
import { createMastraProcessor, runMastraRequest } from './run-mastra-request.js';
import { runMcpRequest } from './run-mcp-request.js';
import { createTanStackMiddleware, runTanStackRequest } from './run-tanstack-request.js';
import { createRealModel, describeModel, type ModelSelection, selectModel } from './select-model.js';
import { passThroughLines } from './show-pass-through.js';
import { formatNumber, formatTokenTable, type TokenRow, tokenRows } from './token-table.js';

/** The requests run against the MCP servers: each top hit runs offline, without credentials. */
export const SERVER_REQUESTS: readonly string[] = [
  'What is the sum of 2 and 3?',
  'Echo back the message "hello from toolscout"',
  'Save "Alice" as a new "person" entity in memory, noting she "works at Acme"',
  'List the contents of the demo directory',
];

/** The requests run against a catalog file (whose tools only dry-run). */
export const CATALOG_REQUESTS: readonly string[] = [
  'Get the lyrics of a song',
  'What is the current weather in "London"?',
  'Search for recipes with chicken',
];

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** A catalog file to run against instead of the MCP servers (relative to `cwd`). */
  catalog?: string;
  /** The requests; default {@link SERVER_REQUESTS} or {@link CATALOG_REQUESTS}. */
  requests?: readonly string[];
  /** The frameworks to run; default all. */
  frameworks?: readonly FrameworkId[];
  /** Whose requests are shown step by step: a framework, or `all`. Default see {@link tracedFrameworks}. */
  trace?: FrameworkId | 'all';
  /** Fake models even when an API key is set. */
  offline?: boolean;
  /** Where API keys and `DEMO_MODEL` are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** What relative paths are relative to. Default the process's working directory. */
  cwd?: string;
  /** Receives the output, one line at a time. Default: nothing is printed. */
  write?: (line: string) => void;
  /** ANSI colours in the output. Default false. */
  color?: boolean;
  /** Stops the demo: running requests fail, and everything started is stopped. */
  signal?: AbortSignal;
}

/** What the demo did. */
export interface DemoResult {
  /** Every request of every framework, in the order run. */
  traces: RequestTrace[];
  /** The token table's rows. */
  tokens: TokenRow[];
  /** Tools in the catalog. */
  catalogTools: number;
  /** The model the AI SDK agent used. */
  model: ModelSelection;
}

const SAMPLE_FILES: Record<string, string> = {
  'notes.md': '# Notes\n\n- toolscout keeps tool definitions out of the prompt until they are needed.\n',
  'todo.txt': 'try the demo\nread the README\n',
  'report.csv': 'framework,steps\nmcp,4\nai-sdk,4\n',
};

/** Catalog tokens, measured as a session measures them: every tool's definition, offered at once. */
async function catalogTokens(catalog: DemoCatalog): Promise<number> {
  const session = new ToolSearchSession({ catalog: catalog.tools });
  try {
    return (await session.measureStep(await session.prepareStep())).catalog.tokens;
  } finally {
    session.dispose();
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What each framework's agent is, for the section headers. */
function frameworkSetup(framework: FrameworkId, catalog: DemoCatalog, model: ModelSelection): string[] {
  const inProcess =
    catalog.kind === 'servers'
      ? 'the servers imported in-process with McpGateway (@toolscout/mcp-gateway): server__tool ids, calls forwarded to the server processes'
      : 'the catalog file (dry runs)';
  switch (framework) {
    case 'mcp':
      return [
        'host: an MCP SDK Client; tools/list before every step, tools/call for each call (one session for all requests)',
        `server: ${catalog.kind === 'servers' ? 'toolscout-mcp, the gateway bin, as a child process over stdio, in front of the servers' : 'an in-process McpToolSearchServer over an in-memory transport'}`,
        'model: the scripted model (no framework model: the MCP host is the loop)',
      ];
    case 'ai-sdk':
      return [
        'agent: generateText with ...createToolSearch({ catalog }) (@toolscout/ai-sdk)',
        `catalog: ${inProcess}`,
        `model: ${model.kind === 'fake' ? 'the scripted MockLanguageModelV4 (ai/test)' : describeModel(model)}`,
      ];
    case 'mastra':
      return [
        'agent: a Mastra Agent with inputProcessors: [new ToolSearchProcessor({ tools })] (@toolscout/mastra)',
        `catalog: ${inProcess}`,
        'model: the scripted MockLanguageModelV4 (ai/test)',
      ];
    case 'langchain':
      return [
        'agent: createAgent with middleware: [toolSearchMiddleware(search)] (@toolscout/langchain)',
        `catalog: ${inProcess}`,
        "model: the scripted FakeBuiltModel (LangChain's fakeModel())",
      ];
    case 'tanstack-ai':
      return [
        'agent: chat() with middleware: [toolSearchMiddleware({ catalog })] (@toolscout/tanstack-ai)',
        `catalog: ${inProcess}`,
        'model: the scripted text adapter (a TextAdapter of the demo: TanStack AI ships no fake one)',
      ];
  }
}

/**
 * The demo: starts the catalog (the MCP servers, or a catalog file), runs every request through an
 * agent of each framework, writes a trace per request and the token table, and stops everything it
 * started, also when a request fails or `signal` aborts.
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const write = options.write ?? (() => {});
  const style: OutputStyle = outputStyle(options.color ?? false);
  const frameworks = options.frameworks ?? FRAMEWORKS;
  const traced = tracedFrameworks(frameworks, options.trace);
  const model = selectModel(options.env ?? process.env, { offline: options.offline });
  const requests =
    options.requests && options.requests.length > 0
      ? options.requests
      : options.catalog === undefined
        ? SERVER_REQUESTS
        : CATALOG_REQUESTS;
  const signal = options.signal;
  signal?.throwIfAborted();

  const workDir = await mkdtemp(join(tmpdir(), 'toolscout-demo-'));
  const filesDir = join(workDir, 'files');
  let catalog: DemoCatalog | undefined;
  const stop = () => void catalog?.close();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await mkdir(filesDir);
    for (const [name, text] of Object.entries(SAMPLE_FILES)) await writeFile(join(filesDir, name), text);

    write(style.bold('toolscout demo'));
    if (options.catalog === undefined) {
      write(style.dim('Starting the MCP servers (each a child process) and the toolscout-mcp gateway...'));
      catalog = await startServerCatalog({ workDir, filesDir, prestartMcp: frameworks.includes('mcp') });
    } else {
      catalog = await loadFileCatalog(resolve(options.cwd ?? process.cwd(), options.catalog));
    }
    signal?.throwIfAborted();
    const wholeCatalog = await catalogTokens(catalog);
    write('');
    if (catalog.kind === 'servers') {
      write(`${catalog.servers.length} MCP servers from the npm registry, started as child processes:`);
      for (const server of catalog.servers) {
        const status =
          server.status === 'ready'
            ? `${server.tools} tool${server.tools === 1 ? '' : 's'}`
            : style.bad(`not started: ${server.status}`);
        write(`  ${server.name.padEnd(20)} ${status.padEnd(10)} ${style.dim(server.packageName)}`);
      }
      for (const warning of catalog.warnings) write(style.dim(`  (${warning.split('\n')[0]})`));
    } else {
      write(`Catalog: ${catalog.source}.`);
      write(style.dim('Its tools have no executors: every call is a dry run that returns the validated arguments.'));
    }
    write(
      `${catalog.tools.length} tools in the catalog: ${formatNumber(wholeCatalog)} tokens of tool definitions (o200k) if all were offered at every step.`,
    );
    const script = 'search with the request → load the top hit → call it with arguments from its schema → answer';
    if (model.kind === 'fake') {
      write(`Models: each agent runs its framework's fake model, scripted: ${script}.`);
      write(style.dim(`        (${model.reason}: set one to run the AI SDK agent with a real model)`));
    } else {
      write(`Models: the AI SDK agent uses ${describeModel(model)};`);
      write(`        the others run their framework's fake model, scripted: ${script}.`);
    }
    if (catalog.kind === 'servers') {
      if (frameworks.includes('mcp'))
        write('The MCP agent has its own toolscout-mcp gateway process in front of a set of these servers;');
      write(
        'the AI SDK, Mastra, LangChain and TanStack AI agents share one set started in-process, except the memory server: each has its own.',
      );
      write(style.dim(`The filesystem server serves the demo's folder ${filesDir}`));
    }

    if (traced.length < frameworks.length) {
      const names = traced.map((framework) => FRAMEWORK_LABELS[framework]).join(', ');
      write(
        style.dim(
          `Every step of the ${names} agent's requests below; the others in a line each (--trace NAME or --trace all for theirs).`,
        ),
      );
    }
    const realModel: LanguageModel | undefined = model.kind === 'fake' ? undefined : await createRealModel(model);
    const traces: RequestTrace[] = [];
    for (const framework of frameworks) {
      write('');
      write(
        style.bold(
          `── ${FRAMEWORK_LABELS[framework]} ${'─'.repeat(Math.max(4, 70 - FRAMEWORK_LABELS[framework].length))}`,
        ),
      );
      for (const line of frameworkSetup(framework, catalog, model)) write(style.dim(`  ${line}`));
      const runner = await createRunner(framework, catalog, { filesDir, signal, model: realModel });
      const runs: RequestTrace[] = [];
      try {
        for (const [index, request] of requests.entries()) {
          signal?.throwIfAborted();
          let trace: RequestTrace;
          try {
            trace = await runner.run(request, `request-${index + 1}`);
          } catch (error) {
            if (signal?.aborted) throw error;
            trace = { framework, request, steps: [], error: errorMessage(error) };
          }
          traces.push(trace);
          runs.push(trace);
          // A request that went wrong is shown step by step in any case.
          if (!traced.includes(framework) && requestOutcome(trace).callSucceeded) continue;
          write('');
          for (const line of formatTrace(trace, index, style)) write(line);
        }
        if (!traced.includes(framework)) write(formatSummary(runs, style));
        const epilogue = (await runner.epilogue?.()) ?? [];
        if (epilogue.length > 0) write('');
        for (const line of epilogue) write(line);
      } finally {
        await runner.close();
      }
    }

    const tokens = tokenRows(frameworks, traces, wholeCatalog);
    write('');
    write(
      style.bold('Tokens of tool definitions offered to the model per step (o200k), toolscout vs. the whole catalog'),
    );
    for (const line of formatTokenTable(tokens)) write(`  ${line}`);
    write(
      style.dim(
        `  toolscout: what the framework offered its model at each step (meta-tools and loaded tools); whole catalog: all ${catalog.tools.length} tools at every step.`,
      ),
    );
    return { traces, tokens, catalogTools: catalog.tools.length, model };
  } catch (error) {
    // Stopping makes whatever was running fail; the reason is the stop.
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
    await catalog?.close();
    await rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}

/** Runs requests through one framework's agent; `close` releases what the runner holds. */
interface Runner {
  run(request: string, threadId: string): Promise<RequestTrace>;
  /** Lines shown after the requests (the MCP agent: what its session offers besides tools). */
  epilogue?(): Promise<string[]>;
  close(): Promise<void>;
}

async function createRunner(
  framework: FrameworkId,
  catalog: DemoCatalog,
  context: { filesDir: string; signal: AbortSignal | undefined; model: LanguageModel | undefined },
): Promise<Runner> {
  const { filesDir, signal } = context;
  if (framework === 'mcp') {
    const session = await catalog.connectMcp();
    return {
      run: (request) => runMcpRequest(session, request, { filesDir, signal }),
      epilogue: () => passThroughLines(session, signal),
      close: () => session.close(),
    };
  }
  const own = await catalog.agentTools(framework);
  const runner = createAgentRunner(framework, own.tools, context);
  return {
    run: runner.run,
    close: async () => {
      await runner.close();
      await own.close();
    },
  };
}

/** The runner of an in-process agent over `tools`. */
function createAgentRunner(
  framework: Exclude<FrameworkId, 'mcp'>,
  tools: DemoCatalog['tools'],
  context: { filesDir: string; signal: AbortSignal | undefined; model: LanguageModel | undefined },
): Runner {
  const { filesDir, signal } = context;
  switch (framework) {
    case 'ai-sdk': {
      const search = createAISDKSearch(tools);
      return {
        run: (request, threadId) =>
          runAISDKRequest(request, { search, filesDir, threadId, model: context.model, signal }),
        close: async () => search.dispose(),
      };
    }
    case 'mastra': {
      const processor = createMastraProcessor(tools);
      return {
        run: (request, threadId) => runMastraRequest(request, { processor, filesDir, threadId, signal }),
        close: async () => processor.dispose(),
      };
    }
    case 'langchain': {
      const search = createLangChainSearch(tools);
      return {
        run: (request, threadId) => runLangChainRequest(request, { search, filesDir, threadId, signal }),
        close: async () => search.session.dispose(),
      };
    }
    case 'tanstack-ai': {
      const middleware = createTanStackMiddleware(tools);
      return {
        run: (request, threadId) => runTanStackRequest(request, { middleware, filesDir, threadId, signal }),
        close: async () => middleware.dispose(),
      };
    }
  }
}
