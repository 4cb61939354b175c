/**
 * `@toolscout/core/internal`: helpers that adapters, the CLI and the benchmark share with core, so
 * that no package keeps a copy of its own: what adapters need to host a session (the `host/`
 * helpers: option rules, tool and message conversion, request ids), conversation reading, the
 * tokenizer, rank fusion, and text and value helpers. Only what some package outside core uses is
 * here. Not part of the user-facing API: it may change in any minor release.
 */

export { checkFor, markerOf } from './errors.js';
export { agentOwnTools } from './host/agent-own-tools.js';
export { agentToolsOfRequest } from './host/agent-tools.js';
export { isAsyncGeneratorFunction, lastValue, streamOf } from './host/async-output.js';
export { createRefusalCarrier } from './host/carried-refusal.js';
export { catalogToolOf, executeOutsideSession } from './host/catalog-tool-of.js';
export { conversationFromContentParts } from './host/content-part-messages.js';
export { contentOutput, conversationOf } from './host/conversation-of.js';
export { type DeclaredTool, declaredToolDescriptor } from './host/declared-tool.js';
export { embedderId } from './host/embedder-id.js';
export { outputText, runHostCall } from './host/host-call.js';
export { checkHookOptions, checkHostOptions, checkOptionsObject, loadedStateRule } from './host/host-options.js';
export { hostSession } from './host/host-session.js';
export { HostToolRunner } from './host/host-tool-runner.js';
export { carrySettings, executeThroughStep, keptTools, runStateEntry } from './host/host-tools.js';
export { withKeyAliases } from './host/key-aliases.js';
export {
  checkOptionRules,
  isBoolean,
  isNumberIn,
  isOneOf,
  isWholeNumberFrom,
  type OptionRule,
  valueAt,
} from './host/option-rules.js';
export { checkReturnedRequest, type HostRequest, requestFromContext } from './host/request-from-context.js';
export { requestId } from './host/request-id.js';
export { RequestToolDescriptors } from './host/request-tool-descriptors.js';
export { standardJsonSchema } from './host/standard-json-schema.js';
export { type StepIdPaths, type StepIds, stepIdsFrom } from './host/step-ids.js';
export { activeStepTools, stepToolRecord } from './host/step-tool-record.js';
export { type SystemMessage, withInstructions } from './host/system-instructions.js';
export { correctUnroutedCalls, toolInvocationsOf, type UnroutedCallsMemo } from './host/tool-invocations.js';
export { descriptorsOfToolInput, markPinned, type ToolLikeReader, toolLikeDescriptor } from './host/tool-like.js';
export { descriptorsOfList } from './host/tool-list.js';
export { createToolRecord } from './host/tool-record.js';
export { isToolRecord, toolsOption } from './host/tools-option.js';
export { conversationFromUiMessages } from './host/ui-message-conversation.js';
export { upFrontDescription } from './host/up-front-description.js';
export { userMessageEntry } from './host/user-message-entry.js';
export { validatorSchema } from './host/validator-schema.js';
export { formatReasons } from './index/explain.js';
export { fuseRankings } from './index/fuse-rankings.js';
export { isEmbedder } from './index/index-options.js';
export { toolText } from './index/tool-document.js';
export { producesJsonSchema } from './schema/schema.js';
export { type CandidateRankerOptions, createCandidateRanker } from './session/candidate-ranker.js';
export { loadedNamesFromConversation, unwrapToolOutput } from './session/conversation.js';
export { stepRequestProblem } from './session/step-request.js';
export { threadKey } from './session/thread-key.js';
export { ToolSearchStep } from './session/tool-search-step.js';
export { failureReason, parseLoadedToolIds, quoteKey } from './stores/key-value-store.js';
export { MAX_TIMER_MS } from './stores/loaded-tool-store.js';
export { tokenize } from './text/tokenize.js';
export { describeValue, isIterable, isRecord } from './values.js';
