import { describe, expect, it } from 'vitest';
import { isAsyncGeneratorFunction, isAsyncIterable, lastValue, streamOf } from './async-output.js';

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

describe('streamOf', () => {
  it('streams the values of a streaming output, or the output as one value', async () => {
    const values: unknown[] = [];
    for await (const value of streamOf(Promise.resolve(countDown(2)))) values.push(value);
    expect(values).toEqual([2, 1, 0]);
    const single: unknown[] = [];
    for await (const value of streamOf(Promise.resolve({ a: 1 }))) single.push(value);
    expect(single).toEqual([{ a: 1 }]);
  });

  it('tells an async generator function from other functions', () => {
    expect(isAsyncGeneratorFunction(countDown)).toBe(true);
    expect(isAsyncGeneratorFunction(async () => 1)).toBe(false);
    expect(isAsyncGeneratorFunction(undefined)).toBe(false);
  });
});
