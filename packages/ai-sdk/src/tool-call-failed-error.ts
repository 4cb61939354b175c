import { type ToolCallError, type ToolCallErrorCode, ToolscoutError } from '@toolscout/core';

/**
 * A tool call that the session refused or that failed, thrown from a tool's `execute` (or from the
 * repair of a call to a tool that is not offered) so that the AI SDK reports it to the model as a
 * tool error. The model reads `message` as it is: what went wrong and the call that fixes it.
 *
 * The AI SDK turns a thrown `Error` into model text with `String(error)`, which would prefix
 * `Error: `; this error's `toString()` is its message alone.
 */
export class ToolCallFailedError extends ToolscoutError {
  /** Why the call did not run, as the session reported it. */
  readonly reason: ToolCallErrorCode;
  /** The name the model called. */
  readonly toolName: string;
  /** Tool names the model may have meant (unknown or not loaded tools). */
  readonly suggestions: readonly string[];
  /** Each invalid argument, for `invalid-arguments`. */
  readonly issues: readonly { path: string; message: string }[];

  constructor(error: ToolCallError) {
    super(`tool-call-${error.code}`, error.message, error.cause === undefined ? undefined : { cause: error.cause });
    this.name = 'ToolCallFailedError';
    this.reason = error.code;
    this.toolName = error.toolName;
    this.suggestions = error.suggestions ?? [];
    this.issues = error.issues ?? [];
  }

  /** The message alone: it is what the model sees. */
  override toString(): string {
    return this.message;
  }

  static override isInstance(error: unknown): error is ToolCallFailedError {
    return ToolscoutError.isInstance(error) && error.code.startsWith('tool-call-');
  }
}
