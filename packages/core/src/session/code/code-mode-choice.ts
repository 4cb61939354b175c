import { SandboxUnavailableError } from '../../errors.js';
import type { CodeModeOptions } from './code-options.js';
import { createQuickJsSandbox } from './quickjs-sandbox.js';

/** A session's `mode` and `code` options: code mode, or the fallback the host asked for. */
export type CodeModeChoice = { mode: 'code'; code: CodeModeOptions } | { mode: 'proxy'; code?: undefined };

/**
 * The options of a session in code mode, with the QuickJS sandbox started: spread them into the
 * session's options. When the sandbox cannot start on this host, a {@link SandboxUnavailableError}
 * (never unsandboxed code), or with `fallback: 'proxy'` the `proxy` mode (search, describe and call
 * as three meta-tools; the same policy), which the host asked for.
 *
 * @example
 * ```ts
 * const session = new ToolSearchSession({ catalog, ...(await codeModeOptions({ fallback: 'proxy' })) });
 * ```
 */
export async function codeModeOptions(
  options: Omit<CodeModeOptions, 'sandbox'> & {
    fallback?: 'proxy';
    sandbox?: () => Promise<CodeModeOptions['sandbox']>;
  } = {},
): Promise<CodeModeChoice> {
  const { fallback, sandbox = createQuickJsSandbox, ...limits } = options;
  try {
    return { mode: 'code', code: { ...limits, sandbox: await sandbox() } };
  } catch (error) {
    if (fallback === 'proxy' && SandboxUnavailableError.isInstance(error)) return { mode: 'proxy' };
    throw error;
  }
}
