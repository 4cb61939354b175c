const marker = Symbol.for('toolscout.error');

/**
 * Base of every error toolscout throws. `ToolscoutError.isInstance(e)` (and each subclass's) works
 * across two installed copies of the package, where `instanceof` does not.
 */
export class ToolscoutError extends Error {
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
  ) {
    super('invalid-tool', message);
    this.name = 'InvalidToolError';
  }

  static override isInstance(error: unknown): error is InvalidToolError {
    return isCode(error, 'invalid-tool');
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
