import { parseArgs } from 'node:util';
import { FRAMEWORKS, type FrameworkId } from './request-trace.js';

/** A mistake on the command line: the demo prints it with the usage and exits with code 2. */
export class DemoUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoUsageError';
  }
}

/** The parsed command line. */
export interface DemoArgs {
  /** A catalog file to run against instead of the MCP servers. */
  catalog?: string;
  /** The requests to run; empty for the defaults. */
  requests: string[];
  /** The frameworks to run, in the demo's order; all by default. */
  frameworks: FrameworkId[];
  /** Use the scripted fake model even when an API key is set. */
  offline: boolean;
  /** Whose requests are shown step by step (the others are summarised); default see {@link tracedFrameworks}. */
  trace?: FrameworkId | 'all';
}

export const DEMO_USAGE = `Usage: pnpm demo [-- options]

Starts real MCP servers from npm, puts the toolscout gateway in front of them, and runs a few
requests through an agent of each framework with a toolscout adapter (MCP, AI SDK, Mastra,
LangChain, TanStack AI). Each agent starts with search_tools and load_tool instead of every tool:
it searches with the user's words, loads the top hit and calls it. Prints a trace per request and
a table of the tokens of tool definitions offered per step, against offering the whole catalog.

Offline, every agent's model is its framework's own fake model (for TanStack AI, which ships none,
a scripted text adapter), scripted from the request. With
OPENAI_API_KEY or ANTHROPIC_API_KEY set, the AI SDK agent uses a real model (gpt-5-mini or
claude-sonnet-4-5; set DEMO_MODEL to choose another).

Options:
  --catalog FILE     run against a catalog file instead of the servers: JSON Lines
                     ({"id","name","description","parameters"} per line), an MCP tools/list
                     result, or OpenAI or Anthropic tool definitions. Its tools have no
                     executors: calls are dry runs that return the validated arguments.
  --request TEXT     a request to run instead of the defaults; repeatable
  --framework NAME   run only this framework: ${FRAMEWORKS.join(', ')}; repeatable
  --trace NAME|all   show every step of this framework's requests (default: AI SDK's, or the
                     only framework run); the others get one line each and a row in the table
  --offline          use the fake models even when an API key is set
  -h, --help         this help

Example: pnpm demo -- --catalog ../shared/datasets/toolbench/tools.jsonl`;

/**
 * Parses the command line; `{ help: true }` when asked for. Throws {@link DemoUsageError}. A bare
 * `--` is ignored: `pnpm demo -- --catalog FILE` passes it on (through two scripts), and the demo
 * takes no positional arguments it could separate.
 */
export function parseDemoArgs(argv: readonly string[]): DemoArgs | { help: true } {
  let values: {
    catalog?: string;
    request?: string[];
    framework?: string[];
    trace?: string;
    offline?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      options: {
        catalog: { type: 'string' },
        request: { type: 'string', multiple: true },
        framework: { type: 'string', multiple: true },
        trace: { type: 'string' },
        offline: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new DemoUsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  if (values.catalog !== undefined && values.catalog.trim() === '') {
    throw new DemoUsageError('--catalog needs a file name.');
  }
  const requests = (values.request ?? []).map((request) => request.trim());
  if (requests.some((request) => request === '')) throw new DemoUsageError('--request needs a non-empty text.');
  const wanted = values.framework ?? [];
  for (const name of wanted) {
    if (!(FRAMEWORKS as readonly string[]).includes(name)) {
      throw new DemoUsageError(`Unknown framework "${name}" for --framework; use one of ${FRAMEWORKS.join(', ')}.`);
    }
  }
  const trace = values.trace;
  if (trace !== undefined && trace !== 'all' && !(FRAMEWORKS as readonly string[]).includes(trace)) {
    throw new DemoUsageError(`Unknown framework "${trace}" for --trace; use all or one of ${FRAMEWORKS.join(', ')}.`);
  }
  const frameworks =
    wanted.length === 0 ? [...FRAMEWORKS] : FRAMEWORKS.filter((framework) => wanted.includes(framework));
  if (trace !== undefined && trace !== 'all' && !frameworks.includes(trace as FrameworkId)) {
    throw new DemoUsageError(`--trace ${trace}: that framework does not run; add --framework ${trace}.`);
  }
  const args: DemoArgs = {
    requests,
    frameworks,
    offline: values.offline ?? false,
  };
  if (values.catalog !== undefined) args.catalog = values.catalog;
  if (trace !== undefined) args.trace = trace as FrameworkId | 'all';
  return args;
}

/**
 * The frameworks whose requests are shown step by step: all for `all`, the one named, or by default
 * the AI SDK's (the agent that runs a real model when an API key is set), or the first framework run
 * when the AI SDK does not run.
 */
export function tracedFrameworks(
  frameworks: readonly FrameworkId[],
  trace: FrameworkId | 'all' | undefined,
): FrameworkId[] {
  if (trace === 'all') return [...frameworks];
  if (trace !== undefined) return [trace];
  const chosen = frameworks.includes('ai-sdk') ? 'ai-sdk' : frameworks[0];
  return chosen === undefined ? [] : [chosen];
}
