// Runs one measurement in a child Node process, with a time limit: a hang is killed and reported.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of this app's compiled module `name` (e.g. `hostile-child.js`), to fork: beside this
 * module when it runs from `dist/`, in `dist/` when it runs from `src/` (tests run on the sources;
 * turbo builds the app before its tests). Throws when the module is not built.
 */
export function compiledModule(name: string): string {
  const here = fileURLToPath(import.meta.url);
  const dir = here.endsWith('.ts') ? join(dirname(here), '..', 'dist') : dirname(here);
  const path = join(dir, name);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: build the bench app first (pnpm --filter @toolscout/bench build).`);
  }
  return path;
}

/**
 * What a child sends: `ready` once set up (the time limit starts then, and the parent answers
 * {@link GO}), any number of `progress` reports (what it has measured so far), then a result or an
 * error.
 */
export type ChildMessage<T, P = unknown> =
  | { type: 'ready' }
  | { type: 'progress'; value: P }
  | { type: 'result'; value: T }
  | { type: 'error'; message: string };

/**
 * The parent's answer to `ready`, sent once its clock runs: a child that waits for it before
 * starting the work it times can never finish before the time limit is armed.
 */
export const GO = { type: 'go' } as const;

/** How a child run ended; a timed-out run carries the child's last progress report, if any. */
export type ChildOutcome<T, P = unknown> =
  | { status: 'ok'; value: T }
  | { status: 'timed-out'; afterMs: number; progress?: P }
  | { status: 'failed'; message: string };

/** Options of {@link runInChild}. */
export interface ChildRunOptions {
  /** Milliseconds from the child's `ready` to its result; then it is killed (SIGKILL). */
  timeoutMs: number;
  /** Milliseconds the child may take to get `ready` (loading data, generating a catalog). Default 300,000. */
  setupTimeoutMs?: number;
  /** Node flags for the child, e.g. `--expose-gc`. */
  execArgv?: string[];
}

/**
 * Forks `modulePath`, sends it `request`, and waits for its answer (see {@link ChildMessage}). The
 * child's stdout is discarded (this process's stdout may be a JSON document); its stderr is passed
 * through. Never rejects: a crash, an error message or a timeout is an outcome.
 */
export function runInChild<T, P = unknown>(
  modulePath: string,
  request: unknown,
  options: ChildRunOptions,
): Promise<ChildOutcome<T, P>> {
  const { timeoutMs, setupTimeoutMs = 300_000, execArgv = [] } = options;
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let readyAt = 0;
    let progress: P | undefined;
    const child = fork(modulePath, [], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const finish = (outcome: ChildOutcome<T, P>) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(outcome);
    };
    const limit = (ms: number, what: () => ChildOutcome<T, P>) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => finish(what()), ms);
    };
    limit(setupTimeoutMs, () => ({ status: 'failed', message: `the child was not ready within ${setupTimeoutMs} ms` }));
    // A result that reaches a busy parent after the limit was still running at the limit: timed out,
    // whichever of the timer and the message the event loop happens to handle first.
    const late = (): ChildOutcome<T, P> | undefined => {
      const afterMs = Math.round(performance.now() - readyAt);
      if (readyAt === 0 || afterMs <= timeoutMs) return undefined;
      return { status: 'timed-out', afterMs, ...(progress === undefined ? {} : { progress }) };
    };
    child.on('message', (message: ChildMessage<T, P>) => {
      if (message.type === 'ready') {
        readyAt = performance.now();
        limit(timeoutMs, () => ({
          status: 'timed-out',
          afterMs: Math.round(performance.now() - readyAt),
          ...(progress === undefined ? {} : { progress }),
        }));
        if (child.connected) child.send(GO);
      } else if (message.type === 'progress') progress = message.value;
      else if (message.type === 'result') finish(late() ?? { status: 'ok', value: message.value });
      else if (message.type === 'error') finish({ status: 'failed', message: message.message });
    });
    child.on('error', (error) => finish({ status: 'failed', message: error.message }));
    // A result sent just before exiting is delivered first; let it be handled before calling it a crash.
    child.on('exit', (code, signal) =>
      setImmediate(() =>
        finish({ status: 'failed', message: `the child exited (${signal ?? `code ${code}`}) without a result` }),
      ),
    );
    child.send(request as object);
  });
}

/** What a child's measurement reports while it runs (see {@link serveChildRun}). */
export interface ChildHooks<P> {
  /** Set up: the time limit starts now; resolves once the parent's clock runs (start the timed work then). */
  ready(): Promise<void>;
  /** What is measured so far (a timed-out run reports the last one). */
  progress(progress: P): void;
}

function sendToParent<T, P>(message: ChildMessage<T, P>): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * The child's side of {@link runInChild}: waits for the request, runs `measure` on it, sends its
 * result (or its error) back, and exits.
 */
export function serveChildRun<R, T, P>(measure: (request: R, hooks: ChildHooks<P>) => Promise<T>): void {
  let go = () => {};
  const started = new Promise<void>((resolve) => {
    go = resolve;
  });
  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === GO.type) go();
  });
  process.once('message', async (request: R) => {
    try {
      const value = await measure(request, {
        ready: async () => {
          await sendToParent({ type: 'ready' });
          await started;
        },
        progress: (progress) => void sendToParent({ type: 'progress', value: progress }),
      });
      await sendToParent({ type: 'result', value });
    } catch (error) {
      await sendToParent({
        type: 'error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    process.exit(0);
  });
}
