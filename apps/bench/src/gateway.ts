// A load test of the HTTP gateway on this machine (loopback only, bounded in count and time): N
// concurrent MCP SDK clients each initialize, list, search, load and call a series of tools through
// the real gateway (serveHttp + McpGateway, in a child process of its own in front of fast in-process
// upstreams), then leave: half with DELETE, half by dropping their connections. The gateway's
// sessions and memory are read once all have left and again once the dropped sessions have expired.
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compiledModule } from './child-run.js';
import { UPSTREAM_TOOLS, type UpstreamTool, upstreamAnswer } from './gateway-upstreams.js';
import { percentile, round } from './stats.js';

/** Concurrent clients per level by default; each level gets a fresh gateway. */
export const DEFAULT_CLIENT_COUNTS: readonly number[] = [50, 200];
/** Calls of its loaded tool each client makes by default (after initialize, list, search and load). */
export const DEFAULT_CALLS = 6;
/**
 * The limit of a `bench gateway` run's clients by default, all levels together (each level then
 * still waits, bounded, for its dropped sessions to expire).
 */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 120_000;
/**
 * The idle timeout the gateway under test gets by default, so that dropped sessions expire during the
 * run; long enough that a busy client's session does not expire between two of its requests.
 */
export const DEFAULT_IDLE_MS = 5_000;
/**
 * Clients that run once against each fresh gateway before it is measured, so that the figures are
 * those of a running gateway (and a warm client side), not of code running for the first time.
 */
export const WARM_UP_CLIENTS = 5;
/** Calls of its tool each warm-up client makes. */
const WARM_UP_CALLS = 2;
/** The most clients per level (the load test is bounded). */
export const MAX_CLIENTS = 1_000;

/** What the bench sends the gateway child. */
export type GatewayCommand =
  | { type: 'start'; idleMs: number }
  | { type: 'sample'; gc: boolean; resetPeak?: boolean }
  | { type: 'stop' };

/** What the gateway child answers. */
export type GatewayChildMessage =
  | { type: 'listening'; url: string; tools: number }
  | { type: 'sample'; value: GatewaySample }
  | { type: 'error'; message: string };

/** The gateway process at one moment. */
export interface GatewaySample {
  rssMB: number;
  heapMB: number;
  /** The highest RSS of the process since it started. */
  peakRssMB: number;
  /** The highest heap use seen since the last sample that reset it (sampled every 20 ms). */
  peakHeapMB: number;
  /** HTTP sessions open. */
  sessions: number;
  /** The most sessions open at once since the last sample that reset the peaks. */
  peakSessions: number;
  /** Threads of loaded tools the gateway's in-memory store holds. */
  threads: number;
  /** CPU seconds the process has used. */
  cpuS: number;
}

/** The operations each client makes, in order (`delete`: the half that leave with DELETE). */
export const GATEWAY_OPERATIONS = ['initialize', 'list', 'search', 'load', 'call', 'delete'] as const;
/** One of {@link GATEWAY_OPERATIONS}. */
export type GatewayOperation = (typeof GATEWAY_OPERATIONS)[number];

/** Latencies of one operation. */
export interface OperationFigures {
  /** Completed (answered, right or wrong). */
  count: number;
  p50Ms: number;
  p99Ms: number;
}

/** Before the clients, the highest while they ran and left, and after they left (and a full GC). */
export interface BeforePeakAfter {
  before: number;
  peak: number;
  after: number;
}

/** One concurrency level, measured. */
export interface GatewayFigures {
  clients: number;
  callsPerClient: number;
  /** Operations answered. */
  ops: number;
  /** From the first client's start to the last one's leaving. */
  wallMs: number;
  opsPerSecond: number;
  operations: Record<GatewayOperation, OperationFigures>;
  /** Failed operations: thrown, an error result, or a wrong answer. */
  errors: number;
  /** Up to five distinct error messages. */
  errorSamples: string[];
  /** Whether the run's time limit stopped the clients. */
  timedOut: boolean;
  memory: { rssMB: BeforePeakAfter; heapMB: BeforePeakAfter };
  sessions: {
    /** The most open at once. */
    peak: number;
    /** Clients that left without DELETE (their sessions wait for the idle timeout). */
    dropped: number;
    /**
     * Open once every client had left: the dropped ones not yet expired (those with DELETE close at
     * once). Equal to `dropped` when the run was shorter than the idle timeout.
     */
    afterLeaving: number;
    /** After the gateway's idle timeout (`idleMs`). */
    afterIdle: number;
    idleMs: number;
    /** How long after the last client left the last session expired; null when some never did. */
    expiredAfterMs: number | null;
  };
  /** Threads of loaded tools the gateway still holds after every session closed. */
  threadsLeft: number;
  /** CPU seconds while the clients ran: this process (the clients) and the gateway's. */
  cpu: { clientsS: number; gatewayS: number };
  /** The machine's 1-minute load average when the level started (other work slows every figure). */
  loadAverage: number;
}

/** One row of `bench gateway`: measured, or why not. */
export type GatewayResult = GatewayFigures | { clients: number; error: string };

/** Options of {@link runGateway}. */
export interface GatewayOptions {
  /** Concurrent clients, one level each. Default {@link DEFAULT_CLIENT_COUNTS}. */
  clients?: readonly number[];
  /** Calls per client. Default {@link DEFAULT_CALLS}. */
  calls?: number;
  /** Limit of the clients, all levels together. Default {@link DEFAULT_GATEWAY_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** The gateway's session idle timeout. Default {@link DEFAULT_IDLE_MS}. */
  idleMs?: number;
  /** Receives progress lines. */
  onProgress?: (line: string) => void;
}

const MIB_DIGITS = 1;
const POLL_MS = 100;
/** How long the gateway process may take to answer the bench (start, a sample, stop) before it is killed. */
const ANSWER_MS = 30_000;

/** The gateway child process, driven over IPC. */
class GatewayProcess {
  readonly #child: ChildProcess;
  readonly #waiting: { resolve(message: GatewayChildMessage): void; reject(error: Error): void }[] = [];
  #exited: Error | undefined;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (message: GatewayChildMessage) => {
      const next = this.#waiting.shift();
      if (message.type === 'error') next?.reject(new Error(`the gateway failed: ${message.message}`));
      else next?.resolve(message);
    });
    child.on('exit', (code, signal) => {
      this.#exited = new Error(`the gateway process exited (${signal ?? `code ${code}`})`);
      for (const waiting of this.#waiting.splice(0)) waiting.reject(this.#exited);
    });
  }

  /** Starts a gateway; resolves once it listens. */
  static async start(idleMs: number): Promise<{ process: GatewayProcess; url: URL; tools: number }> {
    const child = fork(compiledModule('gateway-child.js'), [], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const gateway = new GatewayProcess(child);
    const answer = await gateway.#ask({ type: 'start', idleMs });
    if (answer.type !== 'listening') throw new Error(`the gateway answered "${answer.type}" to start`);
    return { process: gateway, url: new URL(answer.url), tools: answer.tools };
  }

  /** Sends a command and waits for its answer; a gateway that does not answer in time is killed. */
  #ask(command: GatewayCommand): Promise<GatewayChildMessage> {
    if (this.#exited) return Promise.reject(this.#exited);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the gateway did not answer "${command.type}" within ${ANSWER_MS / 1000} s`));
        this.#child.kill('SIGKILL');
      }, ANSWER_MS);
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          then(value);
        };
      this.#waiting.push({ resolve: settle(resolve), reject: settle(reject) });
      this.#child.send(command);
    });
  }

  /** Its memory, sessions and CPU now; `gc` first runs full garbage collections. */
  async sample(gc: boolean, resetPeak = false): Promise<GatewaySample> {
    const answer = await this.#ask({ type: 'sample', gc, resetPeak });
    if (answer.type !== 'sample') throw new Error(`the gateway answered "${answer.type}" to sample`);
    return answer.value;
  }

  /** Closes the gateway; kills it if it has not exited within 5 s. */
  async stop(): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'stop' } satisfies GatewayCommand);
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** What the clients of one level record. */
class LoadRecord {
  readonly latencies = new Map<GatewayOperation, number[]>(GATEWAY_OPERATIONS.map((operation) => [operation, []]));
  errors = 0;
  readonly errorSamples = new Set<string>();

  /** Times one operation; a throw or a wrong answer (`check` returns a reason) counts as an error. */
  async time<T>(operation: GatewayOperation, run: () => Promise<T>, check?: (value: T) => string | undefined) {
    const started = performance.now();
    let problem: string | undefined;
    try {
      const value = await run();
      this.latencies.get(operation)!.push(performance.now() - started);
      problem = check?.(value);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem !== undefined) this.fail(`${operation}: ${problem}`);
    return problem === undefined;
  }

  fail(message: string): void {
    this.errors += 1;
    if (this.errorSamples.size < 5) this.errorSamples.add(message.slice(0, 200));
  }

  get ops(): number {
    let total = 0;
    for (const values of this.latencies.values()) total += values.length;
    return total;
  }
}

function resultText(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toolError(result: unknown): string | undefined {
  return (result as CallToolResult).isError ? `an error result: ${resultText(result).slice(0, 160)}` : undefined;
}

/** What the clients of one run share. */
interface ClientRun {
  url: URL;
  /** Calls of its tool each client makes. */
  calls: number;
  /** Aborts every request at the run's deadline. */
  signal: AbortSignal;
  record: LoadRecord;
  /** Whether client `index` leaves with DELETE (else it just drops its connections). */
  deletes(index: number): boolean;
}

/**
 * One client's session: initialize, list, search, load, then `calls` calls of the loaded tool; then
 * it leaves, with DELETE or by dropping its connections.
 */
async function runClient(index: number, run: ClientRun) {
  const { url, calls, signal, record } = run;
  const tool: UpstreamTool = UPSTREAM_TOOLS[index % UPSTREAM_TOOLS.length]!;
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: `bench-client-${index}`, version: '1.0.0' });
  // At the deadline, closing the transport aborts whatever it still has in flight (a DELETE too).
  const abort = () => void transport.close();
  signal.addEventListener('abort', abort, { once: true });
  const options = { signal };
  const steps: (() => Promise<boolean>)[] = [
    () => record.time('initialize', () => client.connect(transport, options)),
    () =>
      record.time(
        'list',
        () => client.listTools(undefined, options),
        (listed) => (listed.tools.some((entry) => entry.name === 'search_tools') ? undefined : 'no search_tools'),
      ),
    () =>
      record.time(
        'search',
        () => client.callTool({ name: 'search_tools', arguments: { query: tool.query } }, undefined, options),
        toolError,
      ),
    () =>
      record.time(
        'load',
        () => client.callTool({ name: 'load_tool', arguments: { toolName: tool.gatewayName } }, undefined, options),
        toolError,
      ),
    ...Array.from({ length: calls }, (_, call) => {
      const id = `client-${index}-call-${call}`;
      return () =>
        record.time(
          'call',
          () => client.callTool({ name: tool.gatewayName, arguments: { id } }, undefined, options),
          (result) =>
            toolError(result) ??
            (resultText(result) === upstreamAnswer(tool.name, id) ? undefined : `wrong answer "${resultText(result)}"`),
        );
    }),
  ];
  // Each step needs the one before: a client stops at its first failure.
  for (const step of steps) if (!(await step())) break;
  if (run.deletes(index) && transport.sessionId !== undefined && !signal.aborted) {
    await record.time('delete', () => transport.terminateSession());
  }
  signal.removeEventListener('abort', abort);
  await client.close();
}

const mb = (value: number) => round(value, MIB_DIGITS);

function operationFigures(record: LoadRecord): Record<GatewayOperation, OperationFigures> {
  const out = {} as Record<GatewayOperation, OperationFigures>;
  for (const operation of GATEWAY_OPERATIONS) {
    const values = record.latencies.get(operation)!;
    out[operation] = {
      count: values.length,
      p50Ms: round(percentile(values, 0.5), 2),
      p99Ms: round(percentile(values, 0.99), 2),
    };
  }
  return out;
}

/** Polls the gateway until its sessions are gone or `withinMs` has passed: the last sample and when it emptied. */
async function waitForExpiry(gateway: GatewayProcess, withinMs: number) {
  const started = performance.now();
  let sample = await gateway.sample(false);
  while (sample.sessions > 0 && performance.now() - started < withinMs) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    sample = await gateway.sample(false);
  }
  return { sample, expiredAfterMs: sample.sessions === 0 ? Math.round(performance.now() - started) : null };
}

/** `clients` clients run at once, until the run's deadline at most. */
async function runClients(
  clients: number,
  deadline: number,
  options: Pick<ClientRun, 'url' | 'calls' | 'deletes'>,
): Promise<{ record: LoadRecord; timedOut: boolean }> {
  const signal = AbortSignal.timeout(Math.max(1, Math.round(deadline - performance.now())));
  const run: ClientRun = { ...options, signal, record: new LoadRecord() };
  await Promise.all(Array.from({ length: clients }, (_, index) => runClient(index, run)));
  return { record: run.record, timedOut: signal.aborted };
}

/** {@link WARM_UP_CLIENTS} clients run once and leave with DELETE (no session of theirs is left). */
async function warmUp(url: URL, deadline: number): Promise<void> {
  const { record } = await runClients(WARM_UP_CLIENTS, deadline, {
    url,
    calls: WARM_UP_CALLS,
    deletes: () => true,
  });
  if (record.errors > 0) throw new Error(`the warm-up failed: ${[...record.errorSamples].join('; ')}`);
}

/** One level: a fresh gateway, `clients` concurrent clients, then their leaving. */
async function runLevel(
  clients: number,
  calls: number,
  idleMs: number,
  deadline: number,
  onProgress: (line: string) => void,
): Promise<GatewayFigures> {
  const { process: gateway, url } = await GatewayProcess.start(idleMs);
  try {
    await warmUp(url, deadline);
    const loadAverage = round(loadavg()[0] ?? 0, 2);
    const before = await gateway.sample(true, true);
    const clientCpu = process.cpuUsage();
    const started = performance.now();
    // Even clients leave with DELETE, odd ones just drop their connections.
    const { record, timedOut } = await runClients(clients, deadline, {
      url,
      calls,
      deletes: (index) => index % 2 === 0,
    });
    const wallMs = performance.now() - started;
    const clientCpuUsed = process.cpuUsage(clientCpu);
    const left = await gateway.sample(false);
    onProgress(
      `gateway: ${clients} clients done and gone in ${(wallMs / 1000).toFixed(1)} s; waiting for idle expiry...`,
    );
    // The gateway sweeps every idleMs: a session idle for idleMs goes at the next sweep.
    const expiry = await waitForExpiry(gateway, 2 * idleMs + 3_000);
    const after = await gateway.sample(true);
    return {
      clients,
      callsPerClient: calls,
      ops: record.ops,
      wallMs: round(wallMs, 0),
      opsPerSecond: round(record.ops / (wallMs / 1000), 0),
      operations: operationFigures(record),
      errors: record.errors,
      errorSamples: [...record.errorSamples],
      timedOut,
      memory: {
        rssMB: { before: mb(before.rssMB), peak: mb(after.peakRssMB), after: mb(after.rssMB) },
        heapMB: { before: mb(before.heapMB), peak: mb(after.peakHeapMB), after: mb(after.heapMB) },
      },
      sessions: {
        peak: left.peakSessions,
        dropped: Math.floor(clients / 2),
        afterLeaving: left.sessions,
        afterIdle: expiry.sample.sessions,
        idleMs,
        expiredAfterMs: expiry.expiredAfterMs,
      },
      threadsLeft: after.threads,
      cpu: {
        clientsS: round((clientCpuUsed.user + clientCpuUsed.system) / 1e6, 2),
        gatewayS: round(left.cpuS - before.cpuS, 2),
      },
      loadAverage,
    };
  } finally {
    await gateway.stop();
  }
}

function describeLevel(result: GatewayResult): string {
  if ('error' in result) return result.error;
  const { heapMB } = result.memory;
  const { sessions } = result;
  return `${result.opsPerSecond} ops/s, ${result.errors} errors, heap ${heapMB.before} → ${heapMB.peak} → ${heapMB.after} MB, sessions ${sessions.peak} at most, ${sessions.afterLeaving} once all had left (${sessions.dropped} without DELETE), ${sessions.afterIdle} after the idle timeout`;
}

/** Runs each concurrency level against a fresh gateway, within one time limit for the whole run. */
export async function runGateway(options: GatewayOptions = {}): Promise<GatewayResult[]> {
  const {
    clients = DEFAULT_CLIENT_COUNTS,
    calls = DEFAULT_CALLS,
    timeoutMs = DEFAULT_GATEWAY_TIMEOUT_MS,
    idleMs = DEFAULT_IDLE_MS,
    onProgress = () => {},
  } = options;
  for (const count of clients) {
    if (!Number.isInteger(count) || count < 1 || count > MAX_CLIENTS) {
      throw new Error(`A level's clients must be an integer from 1 to ${MAX_CLIENTS}, got ${count}.`);
    }
  }
  const deadline = performance.now() + timeoutMs;
  const results: GatewayResult[] = [];
  for (const count of clients) {
    if (performance.now() >= deadline) {
      results.push({ clients: count, error: `not run: the run's limit of ${timeoutMs / 1000} s was reached` });
      continue;
    }
    onProgress(`gateway: ${count} concurrent clients, ${calls} calls each...`);
    let result: GatewayResult;
    try {
      result = await runLevel(count, calls, idleMs, deadline, onProgress);
    } catch (error) {
      result = { clients: count, error: `failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    onProgress(`gateway: ${count} clients: ${describeLevel(result)}`);
    results.push(result);
  }
  return results;
}
