// @toolscout/core/testing: fake models for running an agent offline, in tests and examples. Needs the
// `ai` package (an optional peer): the scripted model is the AI SDK's own `MockLanguageModelV4`, which
// the AI SDK's and Mastra's agent loops run.
export {
  answer,
  callTool,
  type GenerateResult,
  generateResultOf,
  type ModelAnswer,
  type ModelCallOptions,
  type ScriptAction,
  ScriptedModel,
  type ScriptedModelOptions,
  type SeenToolResult,
  type StreamResult,
  seenToolOutput,
  streamResultOf,
} from './testing/scripted-model.js';
