import { InvalidOptionError } from '../errors.js';
import { describeValue, isRecord } from '../values.js';

/**
 * What an option a host adds to core's must be when given: a function, an object, a non-empty
 * string, or `[test, expected]` for anything else (`expected` ends "<option> must be ...").
 */
export type HostOptionRule =
  | 'function'
  | 'object'
  | 'non-empty string'
  | readonly [test: (value: unknown) => boolean, expected: string];

const KINDS: Record<Exclude<HostOptionRule, readonly unknown[]>, Exclude<HostOptionRule, string>> = {
  function: [(value) => typeof value === 'function', 'a function'],
  object: [isRecord, 'an object'],
  'non-empty string': [(value) => typeof value === 'string' && value !== '', 'a non-empty string'],
};

/**
 * Checks a host's options object and the options the host adds to core's (the session checks its
 * own): an {@link InvalidOptionError} for `options` when it is not an object (`usage` says what to
 * give: "createX takes one options object, { catalog, ... }"), else for the first option that is
 * given and breaks its rule ("resourceId must be a function; got a string.").
 */
export function checkHostOptions(
  options: unknown,
  usage: string,
  rules: Readonly<Record<string, HostOptionRule>>,
): asserts options is Record<string, unknown> {
  if (!isRecord(options)) throw new InvalidOptionError('options', `${usage}; got ${describeValue(options)}.`);
  for (const [option, rule] of Object.entries(rules)) {
    const value = options[option];
    const [test, expected] = typeof rule === 'string' ? KINDS[rule] : rule;
    if (value !== undefined && !test(value)) {
      throw new InvalidOptionError(option, `${option} must be ${expected}; got ${describeValue(value)}.`);
    }
  }
}

/**
 * The rule of a `state` option that takes core's strategies (`memory`, `conversation`, a
 * `LoadedToolStore`) and strategies of the host's own (`extra`, e.g. a framework's checkpointed state).
 */
export function loadedStateRule(...extra: string[]): HostOptionRule {
  const names = ['memory', 'conversation', ...extra];
  const expected = `${names.map((name) => `'${name}'`).join(', ')} or a LoadedToolStore`;
  return [(value) => names.includes(value as string) || (isRecord(value) && typeof value.get === 'function'), expected];
}

/**
 * An entry point's options, checked: an object, else an {@link InvalidOptionError} of `options`
 * saying `usage` and what came instead ({@link checkHostOptions} without rules).
 */
export function checkOptionsObject(options: unknown, usage: string): asserts options is Record<string, unknown> {
  checkHostOptions(options, usage, {});
}

/** The rule of an option that maps tool names to functions (e.g. per-tool hooks). */
const RECORD_OF_FUNCTIONS: HostOptionRule = [isRecord, 'a record of functions by tool name'];

/**
 * The hook options of an entry point's options object, checked by {@link checkHostOptions}'s rules:
 * each of `functions` that is given must be a function, each of `records` a record of functions by
 * tool name.
 */
export function checkHookOptions(
  options: Record<string, unknown>,
  functions: readonly string[],
  records: readonly string[] = [],
): void {
  const rules: Record<string, HostOptionRule> = {};
  for (const name of functions) rules[name] = 'function';
  for (const name of records) rules[name] = RECORD_OF_FUNCTIONS;
  checkHostOptions(options, 'options must be an object', rules);
}
