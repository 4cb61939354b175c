/**
 * A thread or resource id as a host reads it from its framework's config or context: a non-empty
 * string as it is, a finite number as its digits (frameworks that key threads by number), anything
 * else (absent, empty, an object) as none.
 */
export function requestId(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
