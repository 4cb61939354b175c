import { InvalidOptionError } from '../errors.js';
import { describeValue, isRecord } from '../values.js';

/** What a hook option of an entry point must be: a function, or a record of functions by tool name. */
export type HookKind = 'function' | 'functions by tool name';

/**
 * An entry point's options, checked: an object, else an {@link InvalidOptionError} of `options`
 * saying `usage` (e.g. `createX takes one options object, { catalog, ... }`) and what came instead.
 */
export function checkOptionsObject(options: unknown, usage: string): asserts options is Record<string, unknown> {
  if (!isRecord(options)) throw new InvalidOptionError('options', `${usage}; got ${describeValue(options)}.`);
}

/**
 * The hook options of an entry point, checked by kind: each one given must be a function (or a record,
 * for `functions by tool name`), else an {@link InvalidOptionError} naming it.
 */
export function checkHookOptions(options: Record<string, unknown>, hooks: Readonly<Record<string, HookKind>>): void {
  for (const [name, kind] of Object.entries(hooks)) {
    const value = options[name];
    if (value === undefined || (kind === 'function' ? typeof value === 'function' : isRecord(value))) continue;
    const expected = kind === 'function' ? 'a function' : 'a record of functions by tool name';
    throw new InvalidOptionError(name, `${name} must be ${expected}; got ${describeValue(value)}.`);
  }
}
