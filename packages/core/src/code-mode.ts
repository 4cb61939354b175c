/**
 * `@toolscout/core/code-mode`: the sandbox of code mode (`mode: 'code'`), kept out of the main entry
 * so that sessions in the other modes never load its WebAssembly.
 *
 * @example
 * ```ts
 * import { ToolSearchSession } from '@toolscout/core';
 * import { createQuickJsSandbox } from '@toolscout/core/code-mode';
 *
 * const session = new ToolSearchSession({ catalog, mode: 'code', code: { sandbox: await createQuickJsSandbox() } });
 * ```
 */

export { type CodeModeChoice, codeModeOptions } from './session/code/code-mode-choice.js';
export type { CodeModeOptions } from './session/code/code-options.js';
export type {
  CodeBridgeOperation,
  CodeSandbox,
  CodeSandboxEnd,
  CodeSandboxHost,
  CodeSandboxLimits,
} from './session/code/code-sandbox.js';
export { createQuickJsSandbox } from './session/code/quickjs-sandbox.js';
