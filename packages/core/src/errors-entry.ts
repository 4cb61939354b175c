/**
 * `@toolscout/core/errors`: every error class toolscout throws, one per `code`. Check errors with
 * `XError.isInstance(error)`, which works across two installed copies of the package (where
 * `instanceof` does not) and never accepts an instance of another class.
 */
export {
  type AdapterErrorCode,
  type CoreErrorCode,
  DuplicateToolError,
  EmbedderOutputError,
  ImportError,
  type ImportLocation,
  IndexDisposedError,
  IndexMismatchError,
  InvalidArgumentError,
  InvalidIndexError,
  InvalidOptionError,
  InvalidToolError,
  MissingDependencyError,
  PolicyTimeoutError,
  SandboxUnavailableError,
  SessionDisposedError,
  StoreDataError,
  StoreUnavailableError,
  ToolCallFailedError,
  ToolLimitError,
  ToolNameConflictError,
  ToolscoutError,
  type ToolscoutErrorCode,
  UnknownToolError,
  UnsupportedOperationError,
} from './errors.js';
export {
  type CursorProblem,
  InvalidCursorError,
  SourceUnavailableError,
  SubscriptionLimitError,
} from './sources/source-errors.js';
