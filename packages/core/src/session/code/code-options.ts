import { InvalidOptionError } from '../../errors.js';
import { describeNumber, describeValue, isRecord } from '../../values.js';
import type { CodeSandbox } from './code-sandbox.js';

/** Options of code mode (`mode: 'code'`): the sandbox and the limits of each run. */
export interface CodeModeOptions {
  /** The sandbox the model's code runs in: `await createQuickJsSandbox()` from `@toolscout/core/code-mode`. */
  sandbox: CodeSandbox;
  /** Wall-clock limit of one run, async continuations and bridge calls included, in ms (1 to 60,000). Default 5,000. */
  timeoutMs?: number;
  /** Memory limit of one run's heap, in bytes (1 MiB to 1 GiB). Default 32 MiB. */
  memoryBytes?: number;
  /** Bridge calls (`tools.search`, `describe`, `call`) one run may make (1 to 1,000); the next ends the run. Default 50. */
  maxBridgeCalls?: number;
  /** Characters of logs and return value one run hands back (100 to 1,000,000); the rest is cut with a marker. Default 20,000. */
  maxOutputChars?: number;
}

/** Code mode's options with their defaults. */
export type ResolvedCodeMode = Required<CodeModeOptions>;

/** The longest program `run_tool_code` takes, in characters: a short script, not a bundle. */
export const MAX_CODE_LENGTH = 20_000;

const LIMITS = {
  timeoutMs: { min: 1, max: 60_000, fallback: 5_000, unit: 'milliseconds' },
  memoryBytes: { min: 1024 * 1024, max: 1024 * 1024 * 1024, fallback: 32 * 1024 * 1024, unit: 'bytes' },
  maxBridgeCalls: { min: 1, max: 1_000, fallback: 50, unit: 'calls' },
  maxOutputChars: { min: 100, max: 1_000_000, fallback: 20_000, unit: 'characters' },
} as const;

/**
 * The `code` option of a session in code mode, checked, with its defaults: an
 * {@link InvalidOptionError} names the first bad field. Code mode without a sandbox is refused
 * here, at construction: it never runs code unsandboxed.
 */
export function resolveCodeMode(option: unknown): ResolvedCodeMode {
  if (!isRecord(option) || option.sandbox === undefined) {
    throw new InvalidOptionError(
      'code.sandbox',
      "mode 'code' needs a sandbox: code: { sandbox: await createQuickJsSandbox() }, from '@toolscout/core/code-mode'.",
    );
  }
  const { sandbox } = option;
  if (!isRecord(sandbox) || typeof sandbox.run !== 'function' || typeof sandbox.name !== 'string') {
    throw new InvalidOptionError(
      'code.sandbox',
      `code.sandbox must be a CodeSandbox (createQuickJsSandbox() makes one); got ${describeValue(sandbox)}.`,
    );
  }
  const resolved = { sandbox: sandbox as unknown as CodeSandbox } as ResolvedCodeMode;
  for (const [field, limit] of Object.entries(LIMITS) as [
    keyof typeof LIMITS,
    (typeof LIMITS)[keyof typeof LIMITS],
  ][]) {
    const value = option[field] ?? limit.fallback;
    if (!(typeof value === 'number' && Number.isInteger(value) && value >= limit.min && value <= limit.max)) {
      throw new InvalidOptionError(
        `code.${field}`,
        `code.${field} must be a whole number of ${limit.unit} from ${limit.min.toLocaleString('en-US')} to ${limit.max.toLocaleString('en-US')}; got ${describeNumber(value)}.`,
      );
    }
    resolved[field] = value;
  }
  return resolved;
}
