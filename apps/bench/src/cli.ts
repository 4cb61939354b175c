// The `bench` command: pnpm bench <quality|ablation|perf|tokens|gateway|hostile|preselect|feedback|report> [options]. Progress goes to stderr;
// with --json, stdout gets one JSON document and nothing else.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ablationTable, runAblation } from './ablation.js';
import { type Dataset, datasetsRoot, listDatasets, loadDataset } from './datasets.js';
import { ENGINE_NAMES, type EngineName, PERF_ENGINE_NAMES } from './engines/index.js';
import { DEFAULT_FEEDBACK_SEED, type FeedbackResult, feedbackText, runFeedback } from './feedback.js';
import {
  DEFAULT_CALLS,
  DEFAULT_CLIENT_COUNTS,
  DEFAULT_GATEWAY_TIMEOUT_MS,
  DEFAULT_IDLE_MS,
  type GatewayResult,
  MAX_CLIENTS,
  runGateway,
} from './gateway.js';
import {
  DEFAULT_HOSTILE_TIMEOUT_MS,
  HOSTILE_CASE_NAMES,
  HOSTILE_CATALOG_SIZE,
  type HostileCaseName,
  type HostileResult,
  runHostile,
} from './hostile.js';
import {
  DEFAULT_PERF_QUERIES,
  DEFAULT_RUNS,
  DEFAULT_SIZES,
  DEFAULT_TIMEOUT_MS,
  type PerfResult,
  runPerf,
} from './perf.js';
import { DEFAULT_HYBRID_SIZE, hybridLine, measureHybrid } from './perf-hybrid.js';
import {
  PRESELECT_LIMITS,
  PRESELECT_THRESHOLDS,
  type PreselectResult,
  preselectText,
  runPreselect,
} from './preselect.js';
import { type QualityResult, runQuality } from './quality.js';
import {
  coldStartNote,
  gatewayTables,
  hostileTable,
  machineInfo,
  perfTable,
  projectRoot,
  qualityTables,
  tokensTables,
  writeReport,
} from './report.js';
import { DEFAULT_SEED } from './synthetic-catalog.js';
import { DEFAULT_TOKEN_QUERIES, runTokens, type TokenResult } from './tokens.js';

/** The commands. */
export const COMMANDS = [
  'quality',
  'ablation',
  'perf',
  'tokens',
  'gateway',
  'hostile',
  'preselect',
  'feedback',
  'report',
] as const;
/** One of {@link COMMANDS}. */
export type Command = (typeof COMMANDS)[number];

export const USAGE = `Usage: pnpm bench <command> [options]

Commands:
  quality   ranking quality of every engine on each dataset (R@1, R@5, R@10, NDCG@10, MRR, Complete@10)
  ablation  toolscout's keyword ranking with each ranking component off in turn: its gain per dataset
  perf      build time, search p50/p99, heap (and toolscout's saved index) at 1,000 / 10,000 / 100,000 tools
  tokens    tokens of offering every tool directly vs. toolscout's meta-tools per step, per mode
  gateway   load test of the MCP HTTP gateway on loopback: concurrent clients, latency, errors, memory, sessions
  hostile   hostile input against a ${HOSTILE_CATALOG_SIZE.toLocaleString('en-US')}-tool catalog (huge descriptions and names, adversarial schemas)
  preselect preselecting the search hits of the user's message at step 1, per minScore and limit: how often
            every needed tool is offered, and the tokens of the ones not needed; recommends a default
  feedback  learning from use: half of each dataset's queries fed as feedback (their relevant tools), the
            other half scored against no feedback, with 20 % of the feedback wrong, and with all of it wrong
  report    quality, ablation, perf, tokens, preselect, feedback, gateway and hostile, written to docs/benchmarks.md with SVG charts

Options:
  --dataset DIR        a dataset folder (path, or name under ${'$'}TOOLSCOUT_DATASETS or ../shared/datasets);
                       repeatable; default: every folder there (quality, ablation, perf, tokens, hostile, preselect, feedback, report)
  --engines a,b        quality: ${ENGINE_NAMES.join(', ')} (default all);
                       perf: ${PERF_ENGINE_NAMES.join(', ')} (default both) (quality, perf)
  --sizes n,n          perf catalog sizes (default ${DEFAULT_SIZES.join(',')}) (perf, report)
  --perf-queries N     queries timed per engine and size (default ${DEFAULT_PERF_QUERIES}) (perf, report)
  --hybrid N           perf: also the embedder's share of a hybrid search (USE Lite) over N tools (e.g. ${DEFAULT_HYBRID_SIZE}),
                       tool vectors through ${'$'}TOOLSCOUT_EMBEDDING_CACHE, and its query cache on repeated queries (perf)
  --timeout SECONDS    perf, report: time limit per engine and size (default ${DEFAULT_TIMEOUT_MS / 1000});
                       hostile: per case (default ${DEFAULT_HOSTILE_TIMEOUT_MS / 1000}); gateway: the clients' part of the run (default ${DEFAULT_GATEWAY_TIMEOUT_MS / 1000})
  --runs N             fresh-process measurements per engine and size, medians reported (default ${DEFAULT_RUNS}) (perf, report)
  --seed N             seed of generated catalogs and query samples (default ${DEFAULT_SEED}; feedback: of the split, ${DEFAULT_FEEDBACK_SEED}) (perf, hostile, feedback, report)
  --token-queries N    queries sampled per dataset (default ${DEFAULT_TOKEN_QUERIES}) (tokens, report)
  --clients n,n        concurrent clients, one level each (default ${DEFAULT_CLIENT_COUNTS.join(',')}) (gateway, report)
  --calls N            tool calls per client after its search and load (default ${DEFAULT_CALLS}) (gateway, report)
  --idle-timeout SECONDS
                       the gateway's session idle timeout for the run (default ${DEFAULT_IDLE_MS / 1000}) (gateway, report)
  --cases a,b          hostile cases: ${HOSTILE_CASE_NAMES.join(', ')} (default all) (hostile, report)
  --tools N            tools in the hostile cases' catalog (default ${HOSTILE_CATALOG_SIZE}) (hostile, report)
  --thresholds x,y     minScore thresholds in [0, 1] (default ${PRESELECT_THRESHOLDS.join(',')}) (preselect)
  --limits n,n         preselect limits (default ${PRESELECT_LIMITS.join(',')}) (preselect)
  --out DIR            where benchmarks.md and its charts go (default docs/ at the project root) (report)
  --json               print one JSON document on stdout and nothing else
  -h, --help           this help`;

/** A usage mistake: reported with the usage hint and exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The parsed command line. */
export interface CliArgs {
  command: Command;
  datasets: string[];
  engines?: EngineName[];
  sizes?: number[];
  perfQueries?: number;
  hybrid?: number;
  timeoutS?: number;
  runs?: number;
  seed?: number;
  tokenQueries?: number;
  clients?: number[];
  calls?: number;
  idleTimeoutS?: number;
  cases?: HostileCaseName[];
  tools?: number;
  thresholds?: number[];
  limits?: number[];
  out?: string;
  json: boolean;
}

const OPTION_COMMANDS: Record<string, readonly Command[]> = {
  '--dataset': ['quality', 'ablation', 'perf', 'tokens', 'hostile', 'preselect', 'feedback', 'report'],
  '--engines': ['quality', 'perf'],
  '--sizes': ['perf', 'report'],
  '--perf-queries': ['perf', 'report'],
  '--hybrid': ['perf'],
  '--timeout': ['perf', 'gateway', 'hostile', 'report'],
  '--runs': ['perf', 'report'],
  '--seed': ['perf', 'hostile', 'feedback', 'report'],
  '--token-queries': ['tokens', 'report'],
  '--clients': ['gateway', 'report'],
  '--calls': ['gateway', 'report'],
  '--idle-timeout': ['gateway', 'report'],
  '--cases': ['hostile', 'report'],
  '--tools': ['hostile', 'report'],
  '--thresholds': ['preselect'],
  '--limits': ['preselect'],
  '--out': ['report'],
  '--json': COMMANDS,
};

/** A comma-separated list of names from `allowed`, each once; `noun` names one in messages (`where` after it). */
function names<T extends string>(option: string, text: string, allowed: readonly T[], noun: string, where = ''): T[] {
  const items = list(option, text);
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw new UsageError(`Unknown ${noun} "${item}"${where}: use ${allowed.join(', ')}.`);
    }
  }
  if (new Set(items).size !== items.length) {
    throw new UsageError(`${option} lists ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun} twice: "${text}".`);
  }
  return items as T[];
}

function positiveInteger(option: string, text: string, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text.replace(/_/g, ''));
  if (!/^[\d_]+$/.test(text) || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UsageError(
      `${option} expects a positive integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got "${text}".`,
    );
  }
  return value;
}

/** A number in [0, 1] written as a decimal (`0.5`, `.5`, `1`). */
function unitInterval(option: string, text: string): number {
  const value = Number(text);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text) || !(value >= 0 && value <= 1)) {
    throw new UsageError(`${option} expects numbers from 0 to 1, got "${text}".`);
  }
  return value;
}

/** A list of numbers, each once. */
function distinct(option: string, text: string, values: number[]): number[] {
  if (new Set(values).size !== values.length) throw new UsageError(`${option} lists a value twice: "${text}".`);
  return values;
}

function list(option: string, text: string): string[] {
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item === ''))
    throw new UsageError(`${option} expects a comma-separated list, got "${text}".`);
  return items;
}

/** Parses the arguments after `bench`; throws {@link UsageError} for anything it cannot use. */
export function parseArgs(argv: readonly string[]): CliArgs | 'help' {
  if (argv.includes('-h') || argv.includes('--help')) return 'help';
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError(`Missing command: one of ${COMMANDS.join(', ')}.`);
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`Unknown command "${command}": use one of ${COMMANDS.join(', ')}.`);
  }
  const args: CliArgs = { command: command as Command, datasets: [], json: false };
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [option, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const allowed = OPTION_COMMANDS[option];
    if (!allowed) {
      throw new UsageError(arg.startsWith('-') ? `Unknown option ${option}.` : `Unexpected argument "${arg}".`);
    }
    if (!allowed.includes(args.command)) {
      throw new UsageError(`${option} does not apply to "${args.command}" (only to ${allowed.join(', ')}).`);
    }
    if (option !== '--dataset' && seen.has(option)) throw new UsageError(`${option} is given twice.`);
    seen.add(option);
    if (option === '--json') {
      if (inline !== undefined) throw new UsageError('--json takes no value.');
      args.json = true;
      continue;
    }
    const value = inline ?? rest[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new UsageError(`${option} needs a value.`);
    switch (option) {
      case '--dataset':
        if (value === '') throw new UsageError('--dataset needs a folder.');
        args.datasets.push(value);
        break;
      case '--engines':
        args.engines = names<EngineName>(
          option,
          value,
          args.command === 'perf' ? PERF_ENGINE_NAMES : ENGINE_NAMES,
          'engine',
          ` for ${args.command}`,
        );
        break;
      case '--sizes':
        args.sizes = list(option, value).map((size) => positiveInteger(option, size, 10_000_000));
        break;
      case '--hybrid':
        args.hybrid = positiveInteger(option, value, 100_000);
        break;
      case '--perf-queries':
        args.perfQueries = positiveInteger(option, value, 100_000);
        break;
      case '--timeout':
        args.timeoutS = positiveInteger(option, value, 86_400);
        break;
      case '--runs':
        args.runs = positiveInteger(option, value, 100);
        break;
      case '--seed':
        args.seed = positiveInteger(option, value, 2 ** 32 - 1);
        break;
      case '--token-queries':
        args.tokenQueries = positiveInteger(option, value, 100_000);
        break;
      case '--clients':
        args.clients = list(option, value).map((count) => positiveInteger(option, count, MAX_CLIENTS));
        break;
      case '--calls':
        args.calls = positiveInteger(option, value, 1_000);
        break;
      case '--idle-timeout':
        args.idleTimeoutS = positiveInteger(option, value, 3_600);
        break;
      case '--cases':
        args.cases = names(option, value, HOSTILE_CASE_NAMES, 'hostile case');
        break;
      case '--tools':
        args.tools = positiveInteger(option, value, 1_000_000);
        break;
      case '--thresholds':
        args.thresholds = distinct(
          option,
          value,
          list(option, value).map((threshold) => unitInterval(option, threshold)),
        );
        break;
      case '--limits':
        args.limits = distinct(
          option,
          value,
          list(option, value).map((limit) => positiveInteger(option, limit, 1_000)),
        );
        break;
      case '--out':
        if (value === '') throw new UsageError('--out needs a folder.');
        args.out = value;
        break;
    }
  }
  return args;
}

/** A dataset folder's path: as given when it holds the two files, else a name under the datasets root. */
export function resolveDatasetDir(folder: string): string {
  const holdsFiles = (dir: string) =>
    existsSync(join(dir, 'tools.jsonl')) && existsSync(join(dir, 'queries.jsonl')) && statSync(dir).isDirectory();
  const direct = resolve(folder);
  if (existsSync(direct) && holdsFiles(direct)) return direct;
  if (!isAbsolute(folder)) {
    const underRoot = join(datasetsRoot(), folder);
    if (existsSync(underRoot) && holdsFiles(underRoot)) return underRoot;
  }
  throw new UsageError(
    `--dataset ${folder}: not a dataset folder (it needs tools.jsonl and queries.jsonl; looked at ${direct}${isAbsolute(folder) ? '' : ` and ${join(datasetsRoot(), folder)}`}).`,
  );
}

/** The dataset folders to use: the ones given, else every folder under the datasets root. */
function datasetDirs(args: CliArgs): string[] {
  if (args.datasets.length > 0) return args.datasets.map(resolveDatasetDir);
  const root = datasetsRoot();
  if (!existsSync(root)) {
    throw new UsageError(`No datasets at ${root}: pass --dataset DIR or set TOOLSCOUT_DATASETS.`);
  }
  const names = listDatasets(root);
  if (names.length === 0) throw new UsageError(`No dataset folders (tools.jsonl + queries.jsonl) under ${root}.`);
  return names.map((name) => join(root, name));
}

/** Where the CLI writes. */
export interface CliIo {
  /** Receives the result (tables, or the JSON document). */
  stdout(text: string): void;
  /** Receives progress and errors. */
  stderr(text: string): void;
  /** Run perf measurements in child processes (default true; tests run them in-process). */
  isolatePerf?: boolean;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

function ablationText(results: Awaited<ReturnType<typeof runAblation>>): string {
  return `## Ranking components, gain per set\n\n${ablationTable(results)}\n`;
}

function qualityText(results: QualityResult[]): string {
  return `## Ranking quality\n\n${qualityTables(results)}\n`;
}

function perfText(results: PerfResult[]): string {
  return `## Speed at catalog size (mastra ÷ toolscout beside the figures)\n\n${perfTable(results)}\n\n${coldStartNote(results)}\n`;
}

function tokensText(results: TokenResult[]): string {
  return `## Tokens per step\n\n${tokensTables(results)}\n`;
}

function gatewayText(results: GatewayResult[]): string {
  return `## The HTTP gateway under load\n\n${gatewayTables(results)}\n`;
}

function hostileText(results: HostileResult[]): string {
  return `## Hostile input\n\n${hostileTable(results)}\n`;
}

function feedbackResultText(result: FeedbackResult): string {
  return `## Learning from use\n\n${feedbackText(result)}`;
}

function preselectResultText(result: PreselectResult): string {
  return `## Preselect: the search hits of the user's message offered at step 1\n\n${preselectText(result)}`;
}

/** Runs the command line; resolves to the exit code (0 done, 1 failed, 2 usage error). */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let args: CliArgs;
  let dirs: string[];
  try {
    const parsed = parseArgs(argv);
    if (parsed === 'help') {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    args = parsed;
    // The gateway's load test runs on its own tools: no dataset needed.
    dirs = args.command === 'gateway' ? [] : datasetDirs(args);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`bench: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  const progress = (line: string) => io.stderr(`${line}\n`);
  const started = performance.now();
  try {
    const loadAll = (): Dataset[] => dirs.map((dir) => loadDataset(dir));
    const perfOptions = {
      datasets: dirs,
      sizes: args.sizes ?? DEFAULT_SIZES,
      queries: args.perfQueries ?? DEFAULT_PERF_QUERIES,
      timeoutMs: (args.timeoutS ?? DEFAULT_TIMEOUT_MS / 1000) * 1000,
      runs: args.runs ?? DEFAULT_RUNS,
      seed: args.seed ?? DEFAULT_SEED,
      isolate: io.isolatePerf ?? true,
      onProgress: progress,
    };
    const tokenOptions = { queries: args.tokenQueries ?? DEFAULT_TOKEN_QUERIES, onProgress: progress };
    const gatewayOptions = {
      clients: args.clients ?? DEFAULT_CLIENT_COUNTS,
      calls: args.calls ?? DEFAULT_CALLS,
      idleMs: args.idleTimeoutS === undefined ? DEFAULT_IDLE_MS : args.idleTimeoutS * 1000,
      onProgress: progress,
    };
    const hostileOptions = {
      datasets: dirs,
      cases: args.cases ?? HOSTILE_CASE_NAMES,
      tools: args.tools ?? HOSTILE_CATALOG_SIZE,
      seed: args.seed ?? DEFAULT_SEED,
      onProgress: progress,
    };
    // --timeout is the limit of the command it is given to (the report's is perf's).
    const ownTimeoutMs = (fallbackMs: number) => (args.timeoutS === undefined ? fallbackMs : args.timeoutS * 1000);
    switch (args.command) {
      case 'quality': {
        const quality = await runQuality(loadAll(), { engines: args.engines, onProgress: progress });
        io.stdout(args.json ? `${JSON.stringify({ quality }, null, 2)}\n` : qualityText(quality));
        // Every dataset and engine ran; an engine that failed on one is reported, and the exit code says so.
        const failures = quality.flatMap((result) =>
          Object.keys(result.failed ?? {}).map((e) => `${result.dataset}/${e}`),
        );
        if (failures.length > 0) {
          io.stderr(`bench quality: ${failures.length} engine run(s) failed: ${failures.join(', ')} (see "Failed:")\n`);
          return 1;
        }
        break;
      }
      case 'ablation': {
        const ablation = await runAblation(loadAll(), { onProgress: progress });
        io.stdout(args.json ? `${JSON.stringify({ ablation }, null, 2)}\n` : ablationText(ablation));
        break;
      }
      case 'perf': {
        const perf = await runPerf({ ...perfOptions, engines: args.engines ?? PERF_ENGINE_NAMES });
        if (args.hybrid !== undefined) {
          progress(`perf: hybrid search over ${args.hybrid} tools...`);
          const hybrid = await measureHybrid({ ...perfOptions, size: args.hybrid });
          io.stdout(
            args.json ? `${JSON.stringify({ perf, hybrid }, null, 2)}\n` : `${perfText(perf)}\n${hybridLine(hybrid)}\n`,
          );
        } else io.stdout(args.json ? `${JSON.stringify({ perf }, null, 2)}\n` : perfText(perf));
        break;
      }
      case 'tokens': {
        const tokens = await runTokens(loadAll(), tokenOptions);
        io.stdout(args.json ? `${JSON.stringify({ tokens }, null, 2)}\n` : tokensText(tokens));
        break;
      }
      case 'gateway': {
        const gateway = await runGateway({ ...gatewayOptions, timeoutMs: ownTimeoutMs(DEFAULT_GATEWAY_TIMEOUT_MS) });
        io.stdout(args.json ? `${JSON.stringify({ gateway }, null, 2)}\n` : gatewayText(gateway));
        break;
      }
      case 'hostile': {
        const hostile = await runHostile({ ...hostileOptions, timeoutMs: ownTimeoutMs(DEFAULT_HOSTILE_TIMEOUT_MS) });
        io.stdout(args.json ? `${JSON.stringify({ hostile }, null, 2)}\n` : hostileText(hostile));
        break;
      }
      case 'preselect': {
        const preselect = await runPreselect(loadAll(), {
          thresholds: args.thresholds,
          limits: args.limits,
          onProgress: progress,
        });
        io.stdout(args.json ? `${JSON.stringify({ preselect }, null, 2)}\n` : preselectResultText(preselect));
        break;
      }
      case 'feedback': {
        const feedback = await runFeedback(loadAll(), {
          seed: args.seed ?? DEFAULT_FEEDBACK_SEED,
          onProgress: progress,
        });
        io.stdout(args.json ? `${JSON.stringify({ feedback }, null, 2)}\n` : feedbackResultText(feedback));
        break;
      }
      case 'report': {
        const date = new Date();
        const machine = machineInfo();
        const datasets = loadAll();
        const quality = await runQuality(datasets, { onProgress: progress });
        const perf = await runPerf({ ...perfOptions, engines: PERF_ENGINE_NAMES });
        const tokens = await runTokens(datasets, tokenOptions);
        const gateway = await runGateway({ ...gatewayOptions, timeoutMs: DEFAULT_GATEWAY_TIMEOUT_MS });
        const hostile = await runHostile({ ...hostileOptions, timeoutMs: DEFAULT_HOSTILE_TIMEOUT_MS });
        const preselect = await runPreselect(datasets, { onProgress: progress });
        const feedback = await runFeedback(datasets, { onProgress: progress });
        const ablation = await runAblation(datasets, { onProgress: progress });
        const outDir = args.out ?? join(projectRoot(), 'docs');
        const command = ['pnpm bench', ...argv.filter((arg) => arg !== '--json')].join(' ');
        const files = await writeReport(
          { quality, perf, tokens, gateway, hostile, preselect, feedback, ablation },
          {
            outDir,
            command,
            date,
            machine,
            durationS: (performance.now() - started) / 1000,
            settings: {
              sizes: perfOptions.sizes,
              perfQueries: perfOptions.queries,
              timeoutS: perfOptions.timeoutMs / 1000,
              runs: perfOptions.runs,
              tokenQueries: tokenOptions.queries,
              seed: perfOptions.seed,
              gatewayCalls: gatewayOptions.calls,
              gatewayTimeoutS: DEFAULT_GATEWAY_TIMEOUT_MS / 1000,
              hostileTimeoutS: DEFAULT_HOSTILE_TIMEOUT_MS / 1000,
            },
          },
        );
        progress(`report: wrote ${files.join(', ')}`);
        io.stdout(
          args.json
            ? `${JSON.stringify({ quality, perf, tokens, gateway, hostile, preselect, feedback, ablation }, null, 2)}\n`
            : [
                qualityText(quality),
                ablationText(ablation),
                perfText(perf),
                tokensText(tokens),
                preselectResultText(preselect),
                feedbackResultText(feedback),
                gatewayText(gateway),
                hostileText(hostile),
              ]
                .concat(`Wrote ${files.join(', ')}\n`)
                .join('\n'),
        );
        break;
      }
    }
  } catch (error) {
    io.stderr(
      `bench ${args.command} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
  progress(`${args.command}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
