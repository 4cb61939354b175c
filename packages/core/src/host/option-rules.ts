import { InvalidOptionError } from '../errors.js';
import { describeValue, isRecord } from '../values.js';

/**
 * One rule of a host's table of options: the option as its users write it (a dotted path into the
 * options, e.g. `search.topK`), whether a value is acceptable (asked with all the options too, for
 * rules between two options), what the value must be (the end of "`<option>` must be ..."), and
 * whether it must be given (otherwise a value that is `undefined` is not asked about).
 */
export type OptionRule<TOptions> = readonly [
  option: string,
  accepts: (value: unknown, options: TOptions) => boolean,
  expected: string,
  required?: 'required',
];

/** The value at a dotted path of a record (`search.topK`); undefined when a step on the way is not a record. */
export function valueAt(record: unknown, path: string): unknown {
  let value = record;
  for (const key of path.split('.')) {
    if (!isRecord(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** A value as an option error shows it: its kind, and a number's or a string's value (`a number (2.5)`). */
export function shownValue(value: unknown): string {
  if (typeof value === 'number') return `a number (${value})`;
  return typeof value === 'string' ? `a string (${JSON.stringify(value)})` : describeValue(value);
}

/**
 * Checks a host's options against its table of rules, in the table's order (put a rule for an object
 * before the rules for its fields).
 *
 * @param usage How the host is called, for the error about options that are not an object
 * (`new MyHost({ tools })`).
 * @throws InvalidOptionError naming the first option that breaks its rule (`options` when the options
 * are not an object): "`<option>` must be `<expected>`; got `<value>`."
 */
export function checkOptionRules<TOptions>(
  options: TOptions,
  rules: readonly OptionRule<TOptions>[],
  usage: string,
): void {
  if (!isRecord(options)) {
    throw new InvalidOptionError('options', `options must be an object, as in ${usage}; got ${shownValue(options)}.`);
  }
  for (const [option, accepts, expected, required] of rules) {
    const value = valueAt(options, option);
    if ((value === undefined && required === undefined) || accepts(value, options)) continue;
    throw new InvalidOptionError(option, `${option} must be ${expected}; got ${shownValue(value)}.`);
  }
}

/** Accepts a whole number from `min` on (a count, a limit). */
export function isWholeNumberFrom(min: number): (value: unknown) => boolean {
  return (value) => Number.isSafeInteger(value) && (value as number) >= min;
}

/** Accepts a number from `min` to `max` (both included; not NaN). */
export function isNumberIn(min: number, max: number): (value: unknown) => boolean {
  return (value) => typeof value === 'number' && value >= min && value <= max;
}

/** Accepts one of `values` (compared with `===`). */
export function isOneOf(...values: readonly unknown[]): (value: unknown) => boolean {
  return (value) => values.includes(value);
}

/** Accepts `true` and `false`. */
export function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}
