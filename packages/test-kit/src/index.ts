// @toolscout/test-kit: test helpers shared by every package and app (private, never published). The
// scripted model is published in `@toolscout/core/testing`; it is re-exported here for the tests.
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
} from '@toolscout/core/testing';
export { parseJsonOrText } from './json-or-text.js';
