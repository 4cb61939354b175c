// The public API of @toolscout/core: an explicit list, grouped by area.

// Catalog
export { type CatalogChange, ToolCatalog, type ToolCatalogOptions } from './catalog.js';
// The tool-search session: steps, meta-tools, policy, telemetry
export { compactText, firstSentence } from './compact-text.js';
export { type ConversationEntry, loadedNamesFromConversation, unwrapToolOutput } from './conversation.js';
// Semantic search: embedding cache, hybrid fusion, vector index
export {
  type EmbeddingCache,
  embeddingCacheKey,
  InMemoryEmbeddingCache,
  type InMemoryEmbeddingCacheOptions,
} from './embedding-cache.js';
// Errors
export {
  type AdapterErrorCode,
  type CoreErrorCode,
  DuplicateToolError,
  EmbedderOutputError,
  ImportError,
  type ImportLocation,
  IndexDisposedError,
  IndexMismatchError,
  InvalidIndexError,
  InvalidOptionError,
  InvalidToolError,
  MissingDependencyError,
  PolicyTimeoutError,
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
export { DEFAULT_FUSE_OPTIONS, type FuseOptions, fuseRankings, vectorEvidence } from './fuse-rankings.js';
// Importers: MCP, OpenAI, Anthropic tool definitions and JSON Lines datasets
export { type AnthropicImportOptions, fromAnthropicTools } from './importers/anthropic.js';
export type { ImporterOptions } from './importers/fields.js';
export {
  type CatalogFormat,
  detectCatalogFormat,
  type ImportCatalogOptions,
  importCatalog,
} from './importers/import-catalog.js';
export { parseQueriesJsonl, parseToolsJsonl, type RetrievalQuery } from './importers/jsonl.js';
export { fromMcpTools, type McpImportOptions } from './importers/mcp.js';
export { fromOpenAITools, type OpenAIImportOptions } from './importers/openai.js';
export {
  DEFAULT_META_TOOL_NAMES,
  type MetaToolConfig,
  type MetaToolDefinition,
  type MetaToolRole,
  type MetaToolsConfig,
  MODE_ROLES,
  resolveMetaTools,
  TOOL_SEARCH_MODES,
  type ToolSearchMode,
} from './meta-tools.js';
export { clipName, MODEL_INPUT_LIMITS } from './model-input-limits.js';
export {
  DEFAULT_FILTER_TIMEOUT_MS,
  type PolicyFilter,
  type PolicyPhase,
  type PolicyRequest,
} from './policy.js';
// Schemas: JSON Schema resolution and argument validation
export {
  emptyObjectSchema,
  formatIssuePath,
  isStandardSchema,
  toJsonSchema,
  type ValidationIssue,
  type ValidationResult,
  validateInput,
} from './schema.js';
// Search: tokenisation, stemming, stop words and the tool index
export { stem } from './stemmer.js';
export { FUNCTION_WORDS, REQUEST_WORDS } from './stop-words.js';
// Loaded-tool stores: where each thread's loaded tool ids live
export {
  InMemoryLoadedToolStore,
  type InMemoryLoadedToolStoreOptions,
  type InMemoryLoadedToolStoreStats,
} from './stores/in-memory-store.js';
export {
  type AppendUniqueOptions,
  KeyValueLoadedToolStore,
  type KeyValueLoadedToolStoreOptions,
  type KeyValueStore,
  type KeyValueTtlOptions,
  parseLoadedToolIds,
} from './stores/key-value-store.js';
export type { AddLoadedToolsResult, LoadedToolStore } from './stores/loaded-tool-store.js';
export type {
  BlockedEvent,
  CallEvent,
  LoadEvent,
  SearchEvent,
  SelfCorrectionEvent,
  StepEvent,
  ToolSearchEvent,
  ToolSearchEventListener,
} from './telemetry.js';
// Token counting (o200k_base, loaded lazily)
export {
  countTokens,
  countToolDefinitionTokens,
  serializeToolDefinition,
  type ToolDefinitionForCount,
  type ToolDefinitionSize,
} from './token-count.js';
export { normalizeWord, splitWords, tokenize, tokenizeQuery } from './tokenize.js';
export { type IndexField, MAX_INDEXED_CHARS, toolText } from './tool-document.js';
export {
  DEFAULT_MIN_SCORE,
  DEFAULT_RANKING,
  type RankingOverrides,
  type RankingParams,
  type SerializedToolIndex,
  TOOL_INDEX_FORMAT_VERSION,
  ToolIndex,
  type ToolIndexOptions,
} from './tool-index.js';
// Provider-safe tool names
export { isValidToolName, MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, toolNameHash, toToolName } from './tool-name.js';
export {
  type CallAuthorization,
  type ExecuteOptions,
  type LoadedStateStrategy,
  type OfferedTool,
  type PrepareStepOptions,
  type StepRequest,
  type StepTokenReport,
  type ToolCallError,
  type ToolCallErrorCode,
  type ToolCallOutcome,
  ToolSearchSession,
  type ToolSearchSessionOptions,
  ToolSearchStep,
} from './tool-search-session.js';
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
export {
  type SerializedVectorEntry,
  type SerializedVectorIndex,
  type VectorHit,
  VectorIndex,
  type VectorIndexOptions,
} from './vector-index.js';
