import { InvalidOptionError } from '../errors.js';
import { describeValue, isRecord } from '../values.js';

/**
 * An entry point's options, checked: an object, else an {@link InvalidOptionError} of `options`
 * saying `usage` (e.g. `createX takes one options object, { catalog, ... }`) and what came instead.
 */
export function checkOptionsObject(options: unknown, usage: string): asserts options is Record<string, unknown> {
  if (!isRecord(options)) throw new InvalidOptionError('options', `${usage}; got ${describeValue(options)}.`);
}

/**
 * The hook options of an entry point, checked: each of `functions` that is given must be a function,
 * each of `records` a record of functions by tool name, else an {@link InvalidOptionError} naming it.
 */
export function checkHookOptions(
  options: Record<string, unknown>,
  functions: readonly string[],
  records: readonly string[] = [],
): void {
  for (const name of [...functions, ...records]) {
    const value = options[name];
    const isFunction = functions.includes(name);
    if (value === undefined || (isFunction ? typeof value === 'function' : isRecord(value))) continue;
    const expected = isFunction ? 'a function' : 'a record of functions by tool name';
    throw new InvalidOptionError(name, `${name} must be ${expected}; got ${describeValue(value)}.`);
  }
}
