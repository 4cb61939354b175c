import { describe, expect, it } from 'vitest';
import { isAsyncIterable, lastValue } from './async-output.js';

async function* countDown(from: number) {
  for (let n = from; n >= 0; n--) yield n;
}

describe('lastValue', () => {
  it('reads a streaming output to its end and returns the last value', async () => {
    expect(await lastValue(countDown(3))).toBe(0);
    expect(await lastValue(countDown(-1))).toBeUndefined();
  });

  it('returns any other output as it is', async () => {
    const output = { a: 1 };
    expect(await lastValue(output)).toBe(output);
    expect(await lastValue([1, 2])).toEqual([1, 2]);
    expect(isAsyncIterable(null)).toBe(false);
    expect(isAsyncIterable(countDown(1))).toBe(true);
  });
});
