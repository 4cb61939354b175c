import type { ToolCallError, ToolCallErrorCode } from './session/step-types.js';

/** The codes core's own error classes carry, one class each. */
export type CoreErrorCode =
  | 'duplicate-tool'
  | 'unknown-tool'
  | 'invalid-tool'
  | 'tool-name-conflict'
  | 'import'
  | 'missing-dependency'
  | 'invalid-option'
  | 'invalid-argument'
  | 'store-data'
  | 'tool-limit'
  | 'store-unavailable'
  | 'policy-timeout'
  | 'unsupported'
  | 'index-disposed'
  | 'session-disposed'
  | 'invalid-index'
  | 'index-mismatch'
  | 'embedder-output'
  | 'sandbox-unavailable'
  | 'source-unavailable'
  | 'invalid-cursor'
  | 'subscription-limit'
  | `tool-call-${ToolCallErrorCode}`;

/** The codes of the adapters' error classes, which extend {@link ToolscoutError} in their own packages. */
export type AdapterErrorCode =
  | 'mcp-upstream'
  | 'mcp-message-too-large'
  | 'mcp-connection-limit'
  | 'mcp-cli-usage'
  | 'mcp-server-closed'
  | 'cli-usage'
  | 'cli-input-file';

/** Every code a {@link ToolscoutError} can carry: stable and machine-readable, e.g. `duplicate-tool`. */
export type ToolscoutErrorCode = CoreErrorCode | AdapterErrorCode;

/** The key of the base class's marker; a subclass's is `toolscout.error.<ClassName>`. */
const BASE_KEY = 'toolscout.error';

/** Whether `error` carries `marker`: was built by the class that owns it (or a subclass), in any installed copy. */
function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

/** The `isInstance` of a class: whether an error carries the class's marker. */
export function checkFor<T extends ToolscoutError>(marker: symbol): (error: unknown) => error is T {
  return (error): error is T => hasMarker(error, marker);
}

/** The marker of an error class, the same in every installed copy of the package. */
export function markerOf(className: string): symbol {
  return Symbol.for(`${BASE_KEY}.${className}`);
}

/** The name of an error class, read from its marker (class names do not survive minifiers). */
function nameOf(target: abstract new (...args: never) => unknown): string {
  const key = Symbol.keyFor((target as unknown as { marker: symbol }).marker) ?? '';
  return key.startsWith(`${BASE_KEY}.`) ? key.slice(BASE_KEY.length + 1) : 'ToolscoutError';
}

/** Sets on `error` the marker of its class and of every class it extends, up to `ToolscoutError`. */
function mark(error: ToolscoutError, target: abstract new (...args: never) => unknown): void {
  for (let type = target; typeof type === 'function' && type !== Error; type = Object.getPrototypeOf(type)) {
    if (Object.hasOwn(type, 'marker')) {
      Object.defineProperty(error, (type as unknown as { marker: symbol }).marker, { value: true });
    }
  }
}

/**
 * Base of every error toolscout throws. Each class has its own marker (`Symbol.for`), set on its
 * instances and on those of its subclasses, so `XError.isInstance(e)` works across two installed
 * copies of the package (where `instanceof` does not), and a base instance with the same `code` is
 * never mistaken for a subclass whose fields it lacks. A subclass declares its own `static marker`
 * and an `isInstance` that checks it (`checkFor`).
 */
export class ToolscoutError extends Error {
  /** The marker this class sets on its instances and checks in `isInstance`. */
  static readonly marker: symbol = Symbol.for(BASE_KEY);
  /** A stable, machine-readable code, e.g. `duplicate-tool`. */
  readonly code: ToolscoutErrorCode;

  constructor(code: ToolscoutErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    mark(this, new.target);
    this.name = nameOf(new.target);
    this.code = code;
  }

  /** Whether `error` is an instance of this class (or of a subclass), from any installed copy. */
  static isInstance(error: unknown): error is ToolscoutError {
    return hasMarker(error, ToolscoutError.marker);
  }
}

/** Two tools with one id in a catalog. */
export class DuplicateToolError extends ToolscoutError {
  static override readonly marker = markerOf('DuplicateToolError');
  static override readonly isInstance = checkFor<DuplicateToolError>(DuplicateToolError.marker);

  /** `message` replaces the default one, which names both sources, where the place says more. */
  constructor(
    readonly toolId: string,
    readonly existingSource: string | undefined,
    readonly newSource: string | undefined,
    message = `Duplicate tool id "${toolId}": already registered from ${existingSource ? `source "${existingSource}"` : 'an unnamed source'}, added again from ${newSource ? `source "${newSource}"` : 'an unnamed source'}. Tool ids must be unique in a catalog; namespace them (e.g. "server__tool").`,
  ) {
    super('duplicate-tool', message);
  }
}

/** A tool id or name that the catalog does not hold. */
export class UnknownToolError extends ToolscoutError {
  static override readonly marker = markerOf('UnknownToolError');
  static override readonly isInstance = checkFor<UnknownToolError>(UnknownToolError.marker);

  constructor(readonly toolId: string) {
    super('unknown-tool', `Unknown tool "${toolId}": the catalog has no tool with this id.`);
  }
}

/** A tool definition that cannot be used (no id, a schema that is not an object, ...). */
export class InvalidToolError extends ToolscoutError {
  static override readonly marker = markerOf('InvalidToolError');
  static override readonly isInstance = checkFor<InvalidToolError>(InvalidToolError.marker);

  constructor(
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super('invalid-tool', message, options);
  }
}

/**
 * Two different tool ids that map to the same provider-safe tool name (see `toToolName`). Names carry
 * a hash of the id whenever the id had to change, so this takes either a hash collision or an id
 * that is itself a valid name equal to another id's mapped name.
 */
export class ToolNameConflictError extends ToolscoutError {
  static override readonly marker = markerOf('ToolNameConflictError');
  static override readonly isInstance = checkFor<ToolNameConflictError>(ToolNameConflictError.marker);

  constructor(
    readonly toolName: string,
    readonly toolId: string,
    readonly existingToolId: string,
  ) {
    super(
      'tool-name-conflict',
      `Tool ids "${existingToolId}" and "${toolId}" both map to the tool name "${toolName}". Rename one of the two ids.`,
    );
  }
}

/** Where in an imported document something was wrong. */
export interface ImportLocation {
  /** The file (or a label for the input) being read. */
  file?: string;
  /** 1-based line, for line-oriented formats (JSON Lines). */
  line?: number;
  /** The path of the offending field, e.g. `tools[3].inputSchema` or `parameters`. */
  field?: string;
}

/** Malformed input to an importer; the message says where (file, line, field). */
export class ImportError extends ToolscoutError {
  static override readonly marker = markerOf('ImportError');
  static override readonly isInstance = checkFor<ImportError>(ImportError.marker);

  /** Where the input was wrong. */
  readonly location: ImportLocation;
  /** What was wrong, without where (the message is both). */
  readonly problem: string;

  constructor(problem: string, location: ImportLocation = {}, options?: { cause?: unknown }) {
    const where = [
      location.file,
      location.line !== undefined ? `line ${location.line}` : undefined,
      location.field !== undefined ? `field "${location.field}"` : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(', ');
    super('import', where ? `${where}: ${problem}` : problem, options);
    this.location = location;
    this.problem = problem;
  }
}

/** An optional dependency that a feature needs is not installed. */
export class MissingDependencyError extends ToolscoutError {
  static override readonly marker = markerOf('MissingDependencyError');
  static override readonly isInstance = checkFor<MissingDependencyError>(MissingDependencyError.marker);

  constructor(
    readonly packageNames: readonly string[],
    feature: string,
    options?: { cause?: unknown },
  ) {
    super(
      'missing-dependency',
      `${feature} needs ${packageNames.join(' and ')}, which ${packageNames.length > 1 ? 'are' : 'is'} not installed. Install ${packageNames.length > 1 ? 'them' : 'it'}: pnpm add ${packageNames.join(' ')}`,
      options,
    );
  }
}

/** An option outside its allowed range or of the wrong kind (a negative TTL, `NaN`, a fraction where a count is needed). */
export class InvalidOptionError extends ToolscoutError {
  static override readonly marker = markerOf('InvalidOptionError');
  static override readonly isInstance = checkFor<InvalidOptionError>(InvalidOptionError.marker);

  constructor(
    readonly option: string,
    message: string,
  ) {
    super('invalid-option', message);
  }
}

/**
 * A bad argument of a function that is not an option: a `messages` value that is not an array, a
 * state without the field a hook needs. `argument` names the parameter or the field of it (e.g.
 * `messages`, `state.messages`); the message says what was expected and what was given.
 */
export class InvalidArgumentError extends ToolscoutError {
  static override readonly marker = markerOf('InvalidArgumentError');
  static override readonly isInstance = checkFor<InvalidArgumentError>(InvalidArgumentError.marker);

  constructor(
    readonly argument: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('invalid-argument', message, options);
  }
}

/** A value in a loaded-tool store that is not what toolscout wrote (not JSON, not an array of strings, wrong type). */
export class StoreDataError extends ToolscoutError {
  static override readonly marker = markerOf('StoreDataError');
  static override readonly isInstance = checkFor<StoreDataError>(StoreDataError.marker);

  constructor(
    readonly key: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(
      'store-data',
      `The loaded-tool store holds an unreadable value at key "${key}": ${problem}. It is left untouched; delete the key (or fix its value) to reset that thread.`,
      options,
    );
  }
}

/** Loading more tools into one thread than the store allows (`maxToolsPerThread`). Nothing was added. */
export class ToolLimitError extends ToolscoutError {
  static override readonly marker = markerOf('ToolLimitError');
  static override readonly isInstance = checkFor<ToolLimitError>(ToolLimitError.marker);

  constructor(
    readonly threadKey: string,
    readonly limit: number,
    readonly loadedCount: number,
    readonly requestedIds: readonly string[],
  ) {
    super(
      'tool-limit',
      `Thread "${threadKey}" has ${loadedCount} loaded tool(s); adding ${requestedIds.length} more would exceed the limit of ${limit} (maxToolsPerThread). Nothing was added.`,
    );
  }
}

/**
 * A loaded-tool store (or its backend) that did not answer or failed: unreachable, timed out, refused
 * the command. `store` names the store, `operation` what it was doing, `reason` why, and `cause` is
 * the backend's own error.
 */
export class StoreUnavailableError extends ToolscoutError {
  static override readonly marker = markerOf('StoreUnavailableError');
  static override readonly isInstance = checkFor<StoreUnavailableError>(StoreUnavailableError.marker);

  constructor(
    readonly store: string,
    readonly operation: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      'store-unavailable',
      `The ${store} failed while ${operation}: ${reason}. Check that the store is running and reachable; the call can be retried once it answers.`,
      options,
    );
  }
}

/**
 * The policy filter did not answer in time (`filterTimeoutMs`): the tool counts as not allowed. The
 * reason of the aborted `signal` a filter is handed.
 */
export class PolicyTimeoutError extends ToolscoutError {
  static override readonly marker = markerOf('PolicyTimeoutError');
  static override readonly isInstance = checkFor<PolicyTimeoutError>(PolicyTimeoutError.marker);

  constructor(
    readonly toolId: string,
    readonly phase: string,
    readonly timeoutMs: number,
  ) {
    super(
      'policy-timeout',
      `The policy filter did not answer within ${timeoutMs} ms (tool "${toolId}", phase "${phase}"), so the tool counts as not allowed. Make the filter answer sooner, or raise filterTimeoutMs.`,
    );
  }
}

/** An operation the store or backend at hand cannot do (no `deletePrefix`, an empty prefix, an old Redis). */
export class UnsupportedOperationError extends ToolscoutError {
  static override readonly marker = markerOf('UnsupportedOperationError');
  static override readonly isInstance = checkFor<UnsupportedOperationError>(UnsupportedOperationError.marker);

  constructor(
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('unsupported', message, options);
  }
}

/** Saving a tool index after `dispose()`: it no longer follows its catalog. */
export class IndexDisposedError extends ToolscoutError {
  static override readonly marker = markerOf('IndexDisposedError');
  static override readonly isInstance = checkFor<IndexDisposedError>(IndexDisposedError.marker);

  constructor() {
    super(
      'index-disposed',
      'This tool index was disposed and no longer follows its catalog, so it cannot be saved: save it before disposing.',
    );
  }
}

/** A step prepared or a search made after the session's `dispose()`: its index and store are released. */
export class SessionDisposedError extends ToolscoutError {
  static override readonly marker = markerOf('SessionDisposedError');
  static override readonly isInstance = checkFor<SessionDisposedError>(SessionDisposedError.marker);

  constructor(readonly operation: string) {
    super(
      'session-disposed',
      `This tool-search session was disposed (its index and store are released), so it cannot ${operation}: make a new session.`,
    );
  }
}

/** A saved tool index that cannot be read: not JSON, another format or version, damaged, failing its integrity check. */
export class InvalidIndexError extends ToolscoutError {
  static override readonly marker = markerOf('InvalidIndexError');
  static override readonly isInstance = checkFor<InvalidIndexError>(InvalidIndexError.marker);

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid-index', message, options);
  }
}

/**
 * A saved tool index that is sound but was built from another catalog. `toolId` is a tool that is
 * missing from one side or changed since, when there is one to name.
 */
export class IndexMismatchError extends ToolscoutError {
  static override readonly marker = markerOf('IndexMismatchError');
  static override readonly isInstance = checkFor<IndexMismatchError>(IndexMismatchError.marker);

  constructor(
    message: string,
    readonly toolId?: string,
  ) {
    super('index-mismatch', message);
  }
}

/** An embedder that broke its contract: the wrong number of vectors, vectors of unequal length, non-finite values. */
export class EmbedderOutputError extends ToolscoutError {
  static override readonly marker = markerOf('EmbedderOutputError');
  static override readonly isInstance = checkFor<EmbedderOutputError>(EmbedderOutputError.marker);

  constructor(
    readonly embedderId: string,
    problem: string,
  ) {
    super(
      'embedder-output',
      `Embedder "${embedderId}" ${problem}. An embedder must return one vector per text, in order, all of the same length and finite.`,
    );
  }
}

/**
 * A tool call the session refused or that failed, for hosts whose framework reports a thrown error to
 * the model as the call's result (the AI SDK, Mastra): every adapter throws this one class. `message`
 * is what the model reads: what went wrong and the call that fixes it; `toString()` is the message
 * alone, so a framework that prints `String(error)` adds no `Error: ` before it.
 */
export class ToolCallFailedError extends ToolscoutError {
  static override readonly marker = markerOf('ToolCallFailedError');
  static override readonly isInstance = checkFor<ToolCallFailedError>(ToolCallFailedError.marker);
  /** Why the call did not run, as the session reported it (`not-loaded`, `invalid-arguments`, ...). */
  readonly reason: ToolCallErrorCode;
  /** The name the model called. */
  readonly toolName: string;
  /** Tool names the model may have meant (unknown or not loaded tools). */
  readonly suggestions: readonly string[];
  /** Each invalid argument, for `invalid-arguments`. */
  readonly issues: readonly { path: string; message: string }[];

  constructor(error: ToolCallError) {
    super(`tool-call-${error.code}`, error.message, error.cause === undefined ? undefined : { cause: error.cause });
    this.reason = error.code;
    this.toolName = error.toolName;
    this.suggestions = error.suggestions ?? [];
    this.issues = error.issues ?? [];
  }

  /** The message alone: it is what the model sees. */
  override toString(): string {
    return this.message;
  }
}

/**
 * Code mode's sandbox cannot start on this host (its WebAssembly module does not load). Code mode
 * never runs the model's code unsandboxed: use another mode, or `codeModeOptions({ fallback: 'proxy' })`.
 */
export class SandboxUnavailableError extends ToolscoutError {
  static override readonly marker = markerOf('SandboxUnavailableError');
  static override readonly isInstance = checkFor<SandboxUnavailableError>(SandboxUnavailableError.marker);

  constructor(
    readonly sandbox: string,
    cause: unknown,
  ) {
    super(
      'sandbox-unavailable',
      `Code mode's ${sandbox} sandbox cannot start on this host (${cause instanceof Error ? cause.message : String(cause)}). Code mode never runs code unsandboxed: use another mode, or codeModeOptions({ fallback: 'proxy' }).`,
      { cause },
    );
  }
}
