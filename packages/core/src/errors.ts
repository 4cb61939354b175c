const marker = Symbol.for('toolscout.error');

/**
 * Base of every error toolscout throws. `ToolscoutError.isInstance(e)` (and each subclass's) works
 * across two installed copies of the package, where `instanceof` does not.
 */
export class ToolscoutError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the symbol
  private readonly [marker] = true;
  /** A stable, machine-readable code, e.g. `duplicate-tool`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolscoutError';
    this.code = code;
  }

  static isInstance(error: unknown): error is ToolscoutError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

function isCode<T extends ToolscoutError>(error: unknown, code: string): error is T {
  return ToolscoutError.isInstance(error) && error.code === code;
}

/** Two tools with one id in a catalog. */
export class DuplicateToolError extends ToolscoutError {
  constructor(
    readonly toolId: string,
    readonly existingSource: string | undefined,
    readonly newSource: string | undefined,
  ) {
    super(
      'duplicate-tool',
      `Duplicate tool id "${toolId}": already registered from ${existingSource ? `source "${existingSource}"` : 'an unnamed source'}, added again from ${newSource ? `source "${newSource}"` : 'an unnamed source'}. Tool ids must be unique in a catalog; namespace them (e.g. "server__tool").`,
    );
    this.name = 'DuplicateToolError';
  }

  static override isInstance(error: unknown): error is DuplicateToolError {
    return isCode(error, 'duplicate-tool');
  }
}

/** A tool id or name that the catalog does not hold. */
export class UnknownToolError extends ToolscoutError {
  constructor(readonly toolId: string) {
    super('unknown-tool', `Unknown tool "${toolId}": the catalog has no tool with this id.`);
    this.name = 'UnknownToolError';
  }

  static override isInstance(error: unknown): error is UnknownToolError {
    return isCode(error, 'unknown-tool');
  }
}

/** A tool definition that cannot be used (no id, a schema that is not an object, ...). */
export class InvalidToolError extends ToolscoutError {
  constructor(
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super('invalid-tool', message, options);
    this.name = 'InvalidToolError';
  }

  static override isInstance(error: unknown): error is InvalidToolError {
    return isCode(error, 'invalid-tool');
  }
}

/**
 * Two different tool ids that map to the same provider-safe tool name (see `toToolName`). Names carry
 * a hash of the id whenever the id had to change, so this takes either a hash collision or an id
 * that is itself a valid name equal to another id's mapped name.
 */
export class ToolNameConflictError extends ToolscoutError {
  constructor(
    readonly toolName: string,
    readonly toolId: string,
    readonly existingToolId: string,
  ) {
    super(
      'tool-name-conflict',
      `Tool ids "${existingToolId}" and "${toolId}" both map to the tool name "${toolName}". Rename one of the two ids.`,
    );
    this.name = 'ToolNameConflictError';
  }

  static override isInstance(error: unknown): error is ToolNameConflictError {
    return isCode(error, 'tool-name-conflict');
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
  readonly location: ImportLocation;

  constructor(problem: string, location: ImportLocation = {}, options?: { cause?: unknown }) {
    const where = [
      location.file,
      location.line !== undefined ? `line ${location.line}` : undefined,
      location.field !== undefined ? `field "${location.field}"` : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(', ');
    super('import', where ? `${where}: ${problem}` : problem, options);
    this.name = 'ImportError';
    this.location = location;
  }

  static override isInstance(error: unknown): error is ImportError {
    return isCode(error, 'import');
  }
}

/** An optional dependency that a feature needs is not installed. */
export class MissingDependencyError extends ToolscoutError {
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
    this.name = 'MissingDependencyError';
  }

  static override isInstance(error: unknown): error is MissingDependencyError {
    return isCode(error, 'missing-dependency');
  }
}

/** An option outside its allowed range or of the wrong kind (a negative TTL, `NaN`, a fraction where a count is needed). */
export class InvalidOptionError extends ToolscoutError {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super('invalid-option', message);
    this.name = 'InvalidOptionError';
  }

  static override isInstance(error: unknown): error is InvalidOptionError {
    return isCode(error, 'invalid-option');
  }
}

/** A value in a loaded-tool store that is not what toolscout wrote (not JSON, not an array of strings, wrong type). */
export class StoreDataError extends ToolscoutError {
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
    this.name = 'StoreDataError';
  }

  static override isInstance(error: unknown): error is StoreDataError {
    return isCode(error, 'store-data');
  }
}

/** Loading more tools into one thread than the store allows (`maxToolsPerThread`). Nothing was added. */
export class ToolLimitError extends ToolscoutError {
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
    this.name = 'ToolLimitError';
  }

  static override isInstance(error: unknown): error is ToolLimitError {
    return isCode(error, 'tool-limit');
  }
}

/**
 * A loaded-tool store (or its backend) that did not answer or failed: unreachable, timed out, refused
 * the command. `store` names the store, `operation` what it was doing, `reason` why, and `cause` is
 * the backend's own error.
 */
export class StoreUnavailableError extends ToolscoutError {
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
    this.name = 'StoreUnavailableError';
  }

  static override isInstance(error: unknown): error is StoreUnavailableError {
    return isCode(error, 'store-unavailable');
  }
}

/**
 * The policy filter did not answer in time (`filterTimeoutMs`): the tool counts as not allowed. The
 * reason of the aborted `signal` a filter is handed.
 */
export class PolicyTimeoutError extends ToolscoutError {
  constructor(
    readonly toolId: string,
    readonly phase: string,
    readonly timeoutMs: number,
  ) {
    super(
      'policy-timeout',
      `The policy filter did not answer within ${timeoutMs} ms (tool "${toolId}", phase "${phase}"), so the tool counts as not allowed. Make the filter answer sooner, or raise filterTimeoutMs.`,
    );
    this.name = 'PolicyTimeoutError';
  }

  static override isInstance(error: unknown): error is PolicyTimeoutError {
    return isCode(error, 'policy-timeout');
  }
}
