// @toolscout/test-kit: test helpers shared by every package and app (private, never published).
export { parseJsonOrText } from './json-or-text.js';
export {
  answer,
  callTool,
  type ModelCallOptions,
  type ScriptAction,
  ScriptedModel,
  type ScriptedModelOptions,
  type SeenToolResult,
  seenToolOutput,
} from './scripted-model.js';
