/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is an iterable object (an array, a Set, a generator; not a string). */
export function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value;
}

/** `a string`, `an array`, `null`... for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A number as it appears in an error message (or what the value is instead). */
export function describeNumber(value: unknown): string {
  if (value === undefined) return 'absent';
  return typeof value === 'number' ? String(value) : describeValue(value);
}

/** Whether a value is a string with something other than white space in it. */
export function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * What a value that is not text is, for error messages: `a number`, `an empty string`, or
 * `a blank string (only white space): " \t"`.
 */
export function describeNonText(value: unknown): string {
  if (typeof value !== 'string') return describeValue(value);
  return value === '' ? 'an empty string' : `a blank string (only white space): ${JSON.stringify(value)}`;
}

/**
 * Sets `record[key]` as an own, enumerable data property. Unlike `record[key] = value`, a
 * `__proto__` key stays data (plain assignment would set the record's prototype instead).
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether a value is an integer from 0 to 2^53 - 1 (a count, a number of something). */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * Whether a saved running average of per-document counts is their mean, up to the rounding its
 * incremental updates gather (and 0 when there are no documents).
 */
export function isMeanOf(average: unknown, total: number, count: number): boolean {
  if (typeof average !== 'number' || !Number.isFinite(average)) return false;
  if (count === 0) return average === 0;
  const mean = total / count;
  return Math.abs(average - mean) <= 1e-6 * Math.max(1, mean);
}

/** Whether every number of a vector is finite (no NaN, no infinity). */
export function allFinite(vector: ArrayLike<number>): boolean {
  for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) return false;
  return true;
}
