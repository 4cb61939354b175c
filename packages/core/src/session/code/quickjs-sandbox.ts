import * as quickJsNg from '@jitl/quickjs-ng-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { SandboxUnavailableError } from '../../errors.js';
import type {
  CodeBridgeOperation,
  CodeSandbox,
  CodeSandboxEnd,
  CodeSandboxHost,
  CodeSandboxLimits,
} from './code-sandbox.js';

/**
 * The most stack the code's recursion may use, in bytes (~800 frames): QuickJS's own check must
 * fire well before the host's stack, which the WebAssembly interpreter's frames share, runs out.
 */
const MAX_STACK_BYTES = 128 * 1024;
const OPERATIONS: readonly string[] = ['search', 'describe', 'call'];

/**
 * Run first in every context: takes the two host functions out of the global object into a closure,
 * and defines `tools` and `console` over them. Everything crosses as JSON text. Evaluates to
 * `JSON.stringify`, which the host keeps to encode the code's return value.
 */
const PRELUDE = `(() => {
  const bridge = globalThis.__bridge, log = globalThis.__log, stringify = JSON.stringify, parse = JSON.parse;
  delete globalThis.__bridge;
  delete globalThis.__log;
  const send = async (operation, args) => {
    const reply = parse(await bridge(operation, stringify(args)));
    if (reply.ok) return reply.value;
    const error = new Error(reply.message);
    error.code = reply.code;
    throw error;
  };
  const show = (item) => (typeof item === 'string' ? item : String(stringify(item)));
  const write = (...items) => log(items.map(show).join(' '));
  globalThis.tools = Object.freeze({
    search: (query, options) => send('search', [query, options ?? {}]),
    describe: (id) => send('describe', [id]),
    call: (id, args) => send('call', [id, args ?? {}]),
  });
  globalThis.console = Object.freeze({ log: write, info: write, warn: write, error: write });
  return stringify;
})()`;

/** The WebAssembly module, loaded once per process (again after a run left it broken). */
let loading: Promise<QuickJSWASMModule> | undefined;

function loadModule(): Promise<QuickJSWASMModule> {
  // (the package types its ESM build as CommonJS, so TypeScript misreads its default export)
  loading ??= newQuickJSWASMModuleFromVariant(quickJsNg.default as unknown as QuickJSSyncVariant).catch(
    (cause: unknown) => {
      loading = undefined;
      throw new SandboxUnavailableError('quickjs', cause);
    },
  );
  return loading;
}

/**
 * A code-mode sandbox on QuickJS (quickjs-ng) compiled to WebAssembly, the
 * `@jitl/quickjs-ng-wasmfile-release-sync` build, shipped inside its package: an interpreter with
 * no Node, Deno or browser API at all, in any host that runs WebAssembly, without spawning a
 * process. Each run gets a new runtime (its own heap under the memory limit) and is stopped from
 * outside at its deadline. A host that cannot load the module gets a {@link SandboxUnavailableError}.
 *
 * @example
 * ```ts
 * import { createQuickJsSandbox } from '@toolscout/core/code-mode';
 * const session = new ToolSearchSession({ catalog, mode: 'code', code: { sandbox: await createQuickJsSandbox() } });
 * ```
 */
export async function createQuickJsSandbox(): Promise<CodeSandbox> {
  await loadModule();
  return {
    name: 'quickjs',
    run: async (source, host, limits) => new QuickJsRun(await loadModule(), host, limits).run(source),
  };
}

/** One run: a runtime and a context of its own, disposed when it ends. */
class QuickJsRun {
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #host: CodeSandboxHost;
  readonly #deadline: number;
  /** Bridge calls whose answers the code still awaits. */
  readonly #pending = new Set<QuickJSDeferredPromise>();
  #stop: CodeSandboxEnd['ended'] | undefined;
  #ended = false;
  #wake: () => void = () => {};

  constructor(module: QuickJSWASMModule, host: CodeSandboxHost, limits: CodeSandboxLimits) {
    this.#host = host;
    this.#deadline = performance.now() + limits.timeoutMs;
    this.#runtime = module.newRuntime();
    this.#runtime.setMemoryLimit(limits.memoryBytes);
    this.#runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.#runtime.setInterruptHandler(() => this.#mustStop());
    this.#context = this.#runtime.newContext();
  }

  async run(source: string): Promise<CodeSandboxEnd> {
    const stopTimer = setTimeout(() => this.#wake(), Math.max(0, this.#deadline - performance.now()));
    const onAbort = () => this.#wake();
    this.#host.signal.addEventListener('abort', onAbort);
    try {
      const end = await this.#evaluate(source);
      return { ...end, memoryBytes: this.#memoryUsed() };
    } finally {
      clearTimeout(stopTimer);
      this.#host.signal.removeEventListener('abort', onAbort);
      this.#dispose();
    }
  }

  /** Whether the run must stop now (asked by the interpreter as it runs, and between jobs). */
  #mustStop(): boolean {
    if (this.#stop === undefined && performance.now() >= this.#deadline) this.#stop = 'timed-out';
    if (this.#stop === undefined && this.#host.signal.aborted) this.#stop = 'stopped';
    return this.#stop !== undefined;
  }

  async #evaluate(source: string): Promise<CodeSandboxEnd> {
    const context = this.#context;
    const stringify = this.#install();
    if ('ended' in stringify) return stringify;
    try {
      const evaluated = context.evalCode(`(async () => {${source}\n})()`, 'tool-code.js');
      if (evaluated.error) return this.#threw(evaluated.error);
      try {
        return await this.#settle(evaluated.value, stringify.handle);
      } finally {
        evaluated.value.dispose();
      }
    } finally {
      stringify.handle.dispose();
    }
  }

  /** Runs the code's jobs until its promise settles or a limit stops it, waiting on bridge answers. */
  async #settle(promise: QuickJSHandle, encode: QuickJSHandle): Promise<CodeSandboxEnd> {
    const context = this.#context;
    for (;;) {
      const jobs = this.#runtime.executePendingJobs();
      if (jobs.error) return this.#threw(jobs.error);
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled') return this.#returned(encode, state.value);
      if (state.type === 'rejected') return this.#threw(state.error);
      if (this.#mustStop()) return this.#stopped();
      if (this.#pending.size === 0 && !this.#runtime.hasPendingJob()) {
        return { ended: 'threw', error: 'The code awaits a promise that never settles (only tools.* calls settle).' };
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Defines `__bridge` and `__log`, runs the prelude; its `JSON.stringify`, or how it failed. */
  #install(): { handle: QuickJSHandle } | CodeSandboxEnd {
    const context = this.#context;
    const bridge = context.newFunction('__bridge', (operation, args) => this.#bridge(operation, args));
    const log = context.newFunction('__log', (line) => {
      if (context.typeof(line) === 'string') this.#host.log(context.getString(line));
    });
    context.setProp(context.global, '__bridge', bridge);
    context.setProp(context.global, '__log', log);
    bridge.dispose();
    log.dispose();
    const prelude = context.evalCode(PRELUDE, 'prelude.js');
    if (prelude.error) return this.#threw(prelude.error);
    return { handle: prelude.value };
  }

  /** A bridge call of the code: a promise in the code, settled with the host's JSON answer. */
  #bridge(operationHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
    const context = this.#context;
    const operation = context.typeof(operationHandle) === 'string' ? context.getString(operationHandle) : '';
    const args = context.typeof(argsHandle) === 'string' ? context.getString(argsHandle) : '[]';
    const deferred = context.newPromise();
    this.#pending.add(deferred);
    const answer = OPERATIONS.includes(operation)
      ? this.#host.bridge(operation as CodeBridgeOperation, args)
      : Promise.resolve(JSON.stringify({ ok: false, code: 'invalid-arguments', message: 'Unknown bridge call.' }));
    void answer
      .catch(() => JSON.stringify({ ok: false, code: 'execution-failed', message: 'The bridge call failed.' }))
      .then((text) => {
        // After the run ended, its context is gone: the answer is dropped and the code never resumes.
        if (this.#ended) return;
        this.#pending.delete(deferred);
        const value = context.newString(text);
        deferred.resolve(value);
        value.dispose();
        deferred.dispose();
        this.#wake();
      });
    return deferred.handle;
  }

  #returned(encode: QuickJSHandle, value: QuickJSHandle): CodeSandboxEnd {
    const context = this.#context;
    try {
      if (context.typeof(value) === 'undefined') return { ended: 'returned' };
      const encoded = context.callFunction(encode, context.undefined, value);
      if (encoded.error) return this.#threw(encoded.error);
      const text = encoded.value;
      const isText = context.typeof(text) === 'string';
      const valueJson = isText ? context.getString(text) : undefined;
      text.dispose();
      if (valueJson === undefined) {
        return { ended: 'threw', error: 'The return value is not JSON (a function, a symbol or undefined).' };
      }
      return { ended: 'returned', valueJson };
    } finally {
      value.dispose();
    }
  }

  /** The end of a run whose code threw `error` (or was stopped by a limit, which throws inside it). */
  #threw(error: QuickJSHandle): CodeSandboxEnd {
    const dumped: unknown = this.#context.dump(error);
    error.dispose();
    if (this.#stop !== undefined) return this.#stopped();
    const message = describeThrown(dumped);
    if (/out of memory/i.test(message)) return { ended: 'out-of-memory', error: 'The code ran out of memory.' };
    return { ended: 'threw', error: message };
  }

  #stopped(): CodeSandboxEnd {
    const ended = this.#stop ?? 'stopped';
    const error = ended === 'timed-out' ? 'The code ran out of time.' : 'The code was stopped.';
    return { ended, error };
  }

  #memoryUsed(): number | undefined {
    try {
      const usage = this.#runtime.computeMemoryUsage();
      const used = (this.#context.dump(usage) as { memory_used_size?: unknown }).memory_used_size;
      usage.dispose();
      return typeof used === 'number' ? used : undefined;
    } catch {
      return undefined;
    }
  }

  #dispose(): void {
    this.#ended = true;
    for (const deferred of this.#pending) deferred.dispose();
    this.#pending.clear();
    try {
      this.#context.dispose();
      this.#runtime.dispose();
    } catch {
      // QuickJS aborts on objects a run leaked (e.g. after a stack overflow): the module is unusable
      // from here on, so the next run loads a new one. This run's end is already decided.
      loading = undefined;
    }
  }
}

/** What a thrown value says, as one line: an error's name and message, anything else as JSON. */
function describeThrown(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'message' in value) {
    const { name, message } = value as { name?: unknown; message?: unknown };
    return `${typeof name === 'string' ? name : 'Error'}: ${String(message)}`;
  }
  return `Thrown: ${JSON.stringify(value) ?? String(value)}`;
}
