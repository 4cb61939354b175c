// The public API of @toolscout/core: an explicit list, grouped by area.

// Errors
export {
  DuplicateToolError,
  ImportError,
  type ImportLocation,
  InvalidToolError,
  MissingDependencyError,
  ToolscoutError,
  UnknownToolError,
} from './errors.js';
// Tool descriptors and search contracts
export type {
  CatalogTool,
  Embedder,
  JsonSchema,
  SchemaLike,
  SearchField,
  SearchFilter,
  SearchHit,
  SearchOptions,
  ToolAnnotations,
  ToolDescriptor,
  ToolExecutionContext,
} from './types.js';
