import { expect } from 'vitest';

/** Runs `work` and fails if it took longer than `ms` (a ceiling against blow-ups, not a speed claim). */
export async function within<T>(ms: number, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  expect(performance.now() - started).toBeLessThan(ms);
  return result;
}
