// @toolscout/test-kit: test helpers shared by every package and app (private, never published).
export { parseJsonOrText } from './json-or-text.js';
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
} from './scripted-model.js';
