/**
 * `@toolscout/core/internal`: helpers that adapters, the CLI and the benchmark share with core, so
 * that no package keeps a copy of its own: text and value helpers, the tokenizer and stemmer, rank
 * fusion, conversation reading, and constants of the index and tool names. Not part of the
 * user-facing API: it may change in any minor release.
 */

export { compactText, firstSentence } from './compact-text.js';
export { loadedNamesFromConversation, unwrapToolOutput } from './conversation.js';
export { embeddingCacheKey } from './embedding-cache.js';
export { checkFor, markerOf } from './errors.js';
export { DEFAULT_FUSE_OPTIONS, fuseRankings, vectorEvidence } from './fuse-rankings.js';
export { MODE_ROLES, resolveMetaTools } from './meta-tools.js';
export { clipName } from './model-input-limits.js';
export { DEFAULT_FILTER_TIMEOUT_MS } from './policy.js';
export { emptyObjectSchema, formatIssuePath, isStandardSchema } from './schema.js';
export { stem } from './stemmer.js';
export { FUNCTION_WORDS, REQUEST_WORDS } from './stop-words.js';
export { failureReason, parseLoadedToolIds, quoteKey } from './stores/key-value-store.js';
export { MAX_TIMER_MS } from './stores/loaded-tool-store.js';
export { serializeToolDefinition } from './token-count.js';
export { normalizeWord, splitWords, tokenize, tokenizeQuery } from './tokenize.js';
export { toolText } from './tool-document.js';
export { TOOL_INDEX_FORMAT_VERSION } from './tool-index.js';
export { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, toolNameHash } from './tool-name.js';
export { ToolSearchStep, threadKey } from './tool-search-session.js';
export { describeValue, isRecord } from './values.js';
