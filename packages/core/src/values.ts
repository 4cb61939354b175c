/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a string`, `an array`, `null`... for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
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
