import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { waitFor, withTimeout } from '../../mcp/test-utils/wait.js';
import { GATEWAY_BIN } from './gateway-process.js';
import { initializeBody } from './http-request.js';

/** The gateway bin as a child process, spoken to in raw JSON-RPC lines. */
export interface RawGateway {
  process: ChildProcessWithoutNullStreams;
  /** Every line it wrote to stdout, parsed. */
  lines: unknown[];
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Writes one line (a newline is added). */
  send(text: string): void;
  /** Resolves with the `count`-th line (1-based) once it has arrived. */
  answer(count: number, ms?: number): Promise<unknown>;
  /** Sends `initialize` (as request `id`) and `notifications/initialized`; resolves with the answer. */
  initialize(id: number, answerNumber: number): Promise<unknown>;
  /** Resolves with the exit code (or the signal) once it has exited. */
  exited(ms?: number): Promise<number | string>;
}

export interface SpawnRawGatewayOptions {
  /** What runs the gateway. Default `node dist/bin.js`. */
  command?: string[];
  /** Its environment. Default this process's. */
  env?: NodeJS.ProcessEnv;
}

/** Starts the gateway with `args`, with pipes on stdin, stdout and stderr. */
export function spawnRawGateway(args: string[], options: SpawnRawGatewayOptions = {}): RawGateway {
  const [command, ...prefix] = options.command ?? [process.execPath, GATEWAY_BIN];
  const child = spawn(command!, [...prefix, ...args], { env: options.env ?? process.env });
  // A gateway that exited early must fail the test's assertions, not crash the runner with EPIPE.
  child.stdin.on('error', () => {});
  const lines: unknown[] = [];
  let stderr = '';
  createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
    lines.push(JSON.parse(line)),
  );
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const gateway: RawGateway = {
    process: child,
    lines,
    stderr: () => stderr,
    send: (text) => child.stdin.write(`${text}\n`),
    answer: (count, ms = 15_000) => waitFor(() => lines.length >= count && lines[count - 1], ms, `answer #${count}`),
    async initialize(id, answerNumber) {
      gateway.send(initializeBody(id));
      const answer = await gateway.answer(answerNumber);
      gateway.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      return answer;
    },
    exited: (ms = 15_000) => withTimeout(exit, ms, 'the gateway to exit'),
  };
  return gateway;
}
