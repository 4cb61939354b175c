/**
 * `@toolscout/core/internal`: helpers that adapters, the CLI and the benchmark share with core, so
 * that no package keeps a copy of its own: text and value helpers, the tokenizer and stemmer, rank
 * fusion, conversation reading, and constants of the index and tool names. Not part of the
 * user-facing API: it may change in any minor release.
 */

export { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, toolNameHash } from './catalog/tool-name.js';
export { checkFor, markerOf } from './errors.js';
export { type AgentOwnTools, agentOwnTools } from './host/agent-own-tools.js';
export { type AgentToolsOfRequest, agentToolsOfRequest } from './host/agent-tools.js';
export { isAsyncGeneratorFunction, isAsyncIterable, lastValue, streamOf } from './host/async-output.js';
export { createRefusalCarrier, type RefusalCarrier } from './host/carried-refusal.js';
export { catalogToolOf, executeOutsideSession } from './host/catalog-tool-of.js';
export { conversationFromContentParts, toolOutputValue } from './host/content-part-messages.js';
export { contentOutput, conversationOf, type MessageToolParts } from './host/conversation-of.js';
export { type DeclaredTool, declaredToolDescriptor } from './host/declared-tool.js';
export { embedderId } from './host/embedder-id.js';
export { type HostCallOptions, type HostCallResult, outputText, runHostCall } from './host/host-call.js';
export {
  checkHookOptions,
  checkHostOptions,
  checkOptionsObject,
  type HostOptionRule,
  loadedStateRule,
} from './host/host-options.js';
export { type HostSessionSpec, hostSession } from './host/host-session.js';
export { HostToolRunner } from './host/host-tool-runner.js';
export {
  carrySettings,
  executeThroughStep,
  keptTools,
  runStateEntry,
} from './host/host-tools.js';
export { type HostToolPlaces, isSessionTool } from './host/is-session-tool.js';
export { withKeyAlias, withKeyAliases } from './host/key-aliases.js';
export {
  checkOptionRules,
  isBoolean,
  isNumberIn,
  isOneOf,
  isWholeNumberFrom,
  type OptionRule,
  shownValue,
  valueAt,
} from './host/option-rules.js';
export { checkReturnedRequest, type HostRequest, requestFromContext } from './host/request-from-context.js';
export { requestId } from './host/request-id.js';
export { RequestToolDescriptors } from './host/request-tool-descriptors.js';
export { type StandardJsonSchema, standardJsonSchema } from './host/standard-json-schema.js';
export { type StepIdPaths, type StepIds, stepIdsFrom } from './host/step-ids.js';
export { activeStepTools, stepToolRecord } from './host/step-tool-record.js';
export { type SystemMessage, withInstructions } from './host/system-instructions.js';
export {
  conversationFromInvocations,
  correctUnroutedCalls,
  type ToolInvocation,
  toolInvocationsOf,
  type UnroutedCallsMemo,
} from './host/tool-invocations.js';
export {
  descriptorsOfRecord,
  descriptorsOfToolInput,
  markPinned,
  readToolSchema,
  runsThroughTool,
  type ToolLike,
  type ToolLikeReader,
  toolLikeDescriptor,
} from './host/tool-like.js';
export { descriptorsOfList } from './host/tool-list.js';
export { createToolRecord, type ToolRecord, type ToolRecordOptions } from './host/tool-record.js';
export { isToolRecord, type ToolsOptionRule, toolsOption } from './host/tools-option.js';
export { conversationFromUiMessages, userTextOf } from './host/ui-message-conversation.js';
export { upFrontDescription } from './host/up-front-description.js';
export { userMessageEntry } from './host/user-message-entry.js';
export {
  type ValidatorResult,
  type ValidatorSchemaLike,
  validationIssues,
  validatorSchema,
} from './host/validator-schema.js';
export { embeddingCacheKey } from './index/embedding-cache.js';
export { formatReasons } from './index/explain.js';
export { DEFAULT_FUSE_OPTIONS, fuseRankings, vectorEvidence } from './index/fuse-rankings.js';
export { isEmbedder } from './index/index-options.js';
export { TOOL_INDEX_FORMAT_VERSION } from './index/serialize.js';
export { toolText } from './index/tool-document.js';
export { emptyObjectSchema, formatIssuePath, isStandardSchema, producesJsonSchema } from './schema/schema.js';
export {
  type CandidateRanker,
  type CandidateRankerOptions,
  createCandidateRanker,
  MAX_LEARNED_TOOLS,
  type RankCandidate,
} from './session/candidate-ranker.js';
export { loadedNamesFromConversation, unwrapToolOutput } from './session/conversation.js';
export { MODE_ROLES, resolveMetaTools } from './session/meta-tools.js';
export { clipName } from './session/model-input-limits.js';
export { DEFAULT_FILTER_TIMEOUT_MS } from './session/policy.js';
export { checkStepRequest, type StepRequestProblem, stepRequestProblem } from './session/step-request.js';
export { isKeyOfThread, threadKey } from './session/thread-key.js';
export { ToolSearchStep } from './session/tool-search-step.js';
export { failureReason, parseLoadedToolIds, quoteKey } from './stores/key-value-store.js';
export { MAX_TIMER_MS } from './stores/loaded-tool-store.js';
export { compactText, firstSentence } from './text/compact-text.js';
export { stem } from './text/stemmer.js';
export { FUNCTION_WORDS, REQUEST_WORDS } from './text/stop-words.js';
export { normalizeWord, splitWords, tokenize, tokenizeQuery } from './text/tokenize.js';
export { serializeToolDefinition } from './token-count.js';
export { describeValue, isIterable, isRecord } from './values.js';
