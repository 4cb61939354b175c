import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { assertToolIds, countOption, durationOption, mergeLoadedIds, uniqueIds } from './loaded-tool-store.js';

describe('mergeLoadedIds', () => {
  it('appends new ids in request order, once each, and says which were already loaded', () => {
    const existing = ['a', 'b'];
    expect(mergeLoadedIds(existing, ['c', 'b', 'c', 'd', 'a'])).toEqual({
      loaded: ['a', 'b', 'c', 'd'],
      added: ['c', 'd'],
      alreadyLoaded: ['b', 'a'],
    });
    expect(existing).toEqual(['a', 'b']);
  });

  it('handles empty input and duplicated existing ids', () => {
    expect(mergeLoadedIds([], [])).toEqual({ loaded: [], added: [], alreadyLoaded: [] });
    expect(mergeLoadedIds(['a', 'a'], ['a'])).toEqual({ loaded: ['a'], added: [], alreadyLoaded: ['a'] });
  });
});

describe('uniqueIds', () => {
  it('keeps first occurrences in order', () => {
    expect(uniqueIds(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
  });
});

describe('option checks', () => {
  it('durationOption accepts finite numbers >= 0 and falls back when unset', () => {
    expect(durationOption('ttlMs', undefined, 5)).toBe(5);
    expect(durationOption('ttlMs', 0, 5)).toBe(0);
    expect(durationOption('ttlMs', 1.5, 5)).toBe(1.5);
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '10' as unknown as number]) {
      expect(() => durationOption('ttlMs', bad, 5)).toThrow(InvalidOptionError);
    }
    expect(() => durationOption('intervalMs', 11, 5, 10)).toThrow(/at most 10 ms/);
  });

  it('countOption accepts whole numbers >= 1', () => {
    expect(countOption('max', undefined, 7)).toBe(7);
    expect(countOption('max', 1, 7)).toBe(1);
    for (const bad of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => countOption('max', bad, 7)).toThrow(/"max" must be a whole number >= 1/);
    }
  });

  it('assertToolIds accepts arrays of strings only', () => {
    expect(() => assertToolIds(['a', ''])).not.toThrow();
    expect(() => assertToolIds([null as unknown as string])).toThrow(/must be strings/);
    expect(() => assertToolIds({} as unknown as string[])).toThrow(/array of strings/);
  });
});
