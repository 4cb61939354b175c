// What the CLI touches outside itself (files, output) and the errors it reports.
import { ToolscoutError } from '@toolscout/core';

/** Somewhere to write text: `process.stdout`, or a test's collector. */
export interface CliOutput {
  write(text: string): unknown;
}

/** What the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  /** Results: table rows, or JSON lines with `--json`, and nothing else. */
  stdout: CliOutput;
  /** Usage errors, input errors and progress notes. */
  stderr: CliOutput;
  /** Reads a file (relative to the working directory) as UTF-8 text. */
  readFile: (path: string) => Promise<string>;
  /**
   * A file's size in bytes, checked before the file is read whole. Without it, files are read
   * whole whatever their size.
   */
  fileSize?: (path: string) => Promise<number>;
  /**
   * Reads a file line by line (without the line breaks). Without it, a catalog larger than
   * `maxWholeFileBytes` cannot be read.
   */
  readLines?: (path: string) => AsyncIterable<string>;
  /**
   * The largest file read whole, in bytes: a JSON catalog document, a queries file, and a JSON
   * Lines catalog up to this size. A larger JSON Lines catalog is read line by line; any other
   * larger file is refused with a message saying what to do. Default {@link MAX_WHOLE_FILE_BYTES}.
   */
  maxWholeFileBytes?: number;
  /** Reads a file whole as bytes (a saved index). Without it, `--index` cannot be used. */
  readBytes?: (path: string) => Promise<Uint8Array>;
  /** Writes a file whole, replacing it (a saved index). Without it, `--save-index` cannot be used. */
  writeFile?: (path: string, data: string | Uint8Array) => Promise<void>;
}

/**
 * The largest file the CLI reads whole by default (256 MiB): far below V8's longest string
 * (about 512 Mi characters, "Invalid string length"), and a JSON document of this size already
 * takes gigabytes once parsed.
 */
export const MAX_WHOLE_FILE_BYTES = 256 * 2 ** 20;

/** A mistake in the command line (exit code 2). */
export class UsageError extends ToolscoutError {
  constructor(message: string) {
    super('cli-usage', message);
    this.name = 'UsageError';
  }

  static override isInstance(error: unknown): error is UsageError {
    return ToolscoutError.isInstance(error) && error.code === 'cli-usage';
  }
}

/** A file the CLI cannot read (exit code 1). */
export class InputFileError extends ToolscoutError {
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('cli-input-file', message, options);
    this.name = 'InputFileError';
  }

  static override isInstance(error: unknown): error is InputFileError {
    return ToolscoutError.isInstance(error) && error.code === 'cli-input-file';
  }
}

/** A file that cannot be opened, read or written, as InputFileError: the path and the reason in words. */
export function unreadable(
  path: string,
  what: string,
  error: unknown,
  verb: 'read' | 'write' = 'read',
): InputFileError {
  if (InputFileError.isInstance(error)) return error;
  const code = (error as { code?: unknown }).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : error instanceof Error
            ? error.message
            : String(error);
  return new InputFileError(path, `cannot ${verb} the ${what} file "${path}": ${reason}`, { cause: error });
}
