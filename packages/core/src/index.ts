// The public API of @toolscout/core: what users call, an explicit list grouped by area. Every error
// class is in `@toolscout/core/errors`; helpers that adapters and tools share with core (tokenizer,
// stemmer, fusion, text and value helpers) are in `@toolscout/core/internal`.

// Catalog
export { type CatalogChange, ToolCatalog, type ToolCatalogOptions } from './catalog/catalog.js';
// Provider-safe tool names
export { isValidToolName, toToolName } from './catalog/tool-name.js';
// Errors: the base class here, every class in `@toolscout/core/errors`
export { ToolscoutError, type ToolscoutErrorCode } from './errors.js';
// Learning from use: the session's `feedback` option and where learned queries live
export type { FeedbackEntry, FeedbackLimits, FeedbackOutcome } from './feedback/feedback-entries.js';
export {
  type FeedbackStore,
  InMemoryFeedbackStore,
  KeyValueFeedbackStore,
  type KeyValueFeedbackStoreOptions,
} from './feedback/feedback-store.js';
export { type FeedbackOptions, ToolFeedback } from './feedback/tool-feedback.js';
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
// Semantic search: embedding cache and vector index (fused with keyword ranking by ToolIndex)
export {
  type EmbeddingCache,
  InMemoryEmbeddingCache,
  type InMemoryEmbeddingCacheOptions,
} from './index/embedding-cache.js';
export type { FuseOptions } from './index/fuse-rankings.js';
// The index: its ranking settings, its saved form, what it indexes
export {
  DEFAULT_MIN_SCORE,
  DEFAULT_RANKING,
  type RankingOverrides,
  type RankingParams,
} from './index/ranking-params.js';
export type { SerializedToolIndex } from './index/serialize.js';
export { type IndexField, MAX_INDEXED_CHARS } from './index/tool-document.js';
export { ToolIndex, type ToolIndexOptions } from './index/tool-index.js';
export {
  type SerializedVectorEntry,
  type SerializedVectorIndex,
  type VectorHit,
  VectorIndex,
  type VectorIndexOptions,
} from './index/vector-index.js';
// Schemas: JSON Schema resolution and argument validation
export { toJsonSchema, type ValidationIssue, type ValidationResult, validateInput } from './schema/schema.js';
// Conversations, as adapters hand them to a session
export type { CodeModeOptions } from './session/code/code-options.js';
export type { CodeSandbox } from './session/code/code-sandbox.js';
export type { ConversationEntry } from './session/conversation.js';
// The tool-search session: options, steps, meta-tool calls, loaded state
export type { DeferredToolOptions } from './session/deferred-tools.js';
// Meta-tools and modes
export {
  DEFAULT_META_TOOL_NAMES,
  type MetaToolConfig,
  type MetaToolDefinition,
  type MetaToolRole,
  type MetaToolsConfig,
  TOOL_SEARCH_MODES,
  type ToolSearchMode,
} from './session/meta-tools.js';
export { MODEL_INPUT_LIMITS } from './session/model-input-limits.js';
// Policy
export type { PolicyFilter, PolicyPhase, PolicyRequest } from './session/policy.js';
export type { PreselectContext, PreselectOptions, PreselectSelector } from './session/preselect-options.js';
export type { RequestToolOptions } from './session/request-tools.js';
export type { LoadedStateStrategy, ToolSearchSessionOptions } from './session/session-options.js';
export type {
  CallAuthorization,
  ExecuteOptions,
  OfferedTool,
  PrepareStepOptions,
  StepRequest,
  StepTokenReport,
  ToolCallError,
  ToolCallErrorCode,
  ToolCallOutcome,
} from './session/step-types.js';
// Telemetry
export type {
  BlockedEvent,
  CallEvent,
  CodeRunEvent,
  LoadEvent,
  PreselectEvent,
  ResolveEvent,
  SearchEvent,
  SelfCorrectionEvent,
  StepEvent,
  SubscribeOptions,
  ToolSearchEvent,
  ToolSearchEventListener,
} from './session/telemetry.js';
// The session and its steps
export { ToolSearchSession } from './session/tool-search-session.js';
export type { ToolSearchStep } from './session/tool-search-step.js';
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
} from './stores/key-value-store.js';
export type { AddLoadedToolsResult, LoadedToolStore } from './stores/loaded-tool-store.js';
// Token counting (o200k_base, loaded lazily)
export {
  countTokens,
  countToolDefinitionTokens,
  type ToolDefinitionForCount,
  type ToolDefinitionSize,
} from './token-count.js';
// Tool descriptors and search contracts
export type {
  CatalogTool,
  Embedder,
  JsonSchema,
  MatchReason,
  MatchReasonField,
  ResolvedTool,
  SchemaLike,
  SearchField,
  SearchFilter,
  SearchHit,
  SearchOptions,
  ToolAnnotations,
  ToolDescriptor,
  ToolExecutionContext,
  ToolResolveContext,
} from './types.js';
