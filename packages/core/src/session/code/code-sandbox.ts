/**
 * The contract between code mode and a sandbox: the sandbox runs the model's code and nothing else;
 * everything the code may do crosses {@link CodeSandboxHost.bridge} as JSON text, so no host object,
 * function or prototype ever reaches the code, and nothing of the code reaches the host but strings.
 */

/** What the code may ask of the session: a search, a tool's schema, a call. */
export type CodeBridgeOperation = 'search' | 'describe' | 'call';

/** What a sandbox hands the code, for one run. */
export interface CodeSandboxHost {
  /**
   * Answers one bridge call. `argsJson` is the JSON text of the call's arguments (an array); the
   * answer is JSON text: `{"ok":true,"value":...}` or `{"ok":false,"code":...,"message":...}`. Never
   * rejects.
   */
  bridge(operation: CodeBridgeOperation, argsJson: string): Promise<string>;
  /** One `console.log` line of the code. */
  log(line: string): void;
  /** Aborted when the run must stop now (its bridge-call cap is exceeded). */
  readonly signal: AbortSignal;
}

/** The limits of one run, enforced by the sandbox. */
export interface CodeSandboxLimits {
  /** Wall-clock time of the whole run, async continuations included, in ms. */
  timeoutMs: number;
  /** The most memory the code's heap may use, in bytes. */
  memoryBytes: number;
}

/** How a run ended, as the sandbox saw it. */
export interface CodeSandboxEnd {
  /**
   * `returned`: the code's value is `valueJson`; `threw`: `error` says what; `timed-out`: the
   * wall-clock limit stopped it; `out-of-memory`: the memory limit did; `stopped`: the host's
   * signal did.
   */
  ended: 'returned' | 'threw' | 'timed-out' | 'out-of-memory' | 'stopped';
  /** The returned value as JSON text; undefined when the code returned nothing. */
  valueJson?: string;
  /** What the code threw (its message, or the sandbox's words for a limit). */
  error?: string;
  /** The heap the code used when it ended, in bytes, when the sandbox can tell. */
  memoryBytes?: number;
}

/**
 * A sandbox that runs code-mode programs (`mode: 'code'`). Made by `createQuickJsSandbox` from
 * `@toolscout/core/code-mode`; a host may bring its own, which must give the same guarantees: no
 * host APIs in the code's reach, the limits enforced from outside the code, only strings across.
 */
export interface CodeSandbox {
  /** The sandbox's name, for telemetry (e.g. `quickjs`). */
  readonly name: string;
  /**
   * Runs `source` as the body of an async function with the globals `tools` and `console`, within
   * `limits`. Resolves when the run ends, whatever the code does; never rejects for the code's doing.
   */
  run(source: string, host: CodeSandboxHost, limits: CodeSandboxLimits): Promise<CodeSandboxEnd>;
}
