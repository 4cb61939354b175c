import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import {
  checkOptionRules,
  isBoolean,
  isNumberIn,
  isOneOf,
  isWholeNumberFrom,
  type OptionRule,
  shownValue,
  valueAt,
} from './option-rules.js';

interface HostOptions {
  tools?: unknown;
  search?: { topK?: unknown; exact?: unknown };
  storage?: unknown;
  store?: unknown;
}

const RULES: readonly OptionRule<HostOptions>[] = [
  ['tools', Array.isArray, 'a list of tools', 'required'],
  ['search', (search) => typeof search === 'object' && search !== null, '{ topK, exact }'],
  ['search.topK', isWholeNumberFrom(1), 'a whole number >= 1'],
  ['search.exact', isBoolean, 'a boolean'],
  ['storage', isOneOf('memory', 'disk'), "'memory' or 'disk'"],
  ['store', (_, { storage }) => storage === undefined, 'left out when storage is given'],
];

function thrown(options: unknown): InvalidOptionError {
  try {
    checkOptionRules(options as HostOptions, RULES, 'new Host({ tools })');
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

describe('checkOptionRules', () => {
  it('accepts options that keep every rule, and leaves out rules of options not given', () => {
    expect(() => checkOptionRules({ tools: [] }, RULES, 'new Host({ tools })')).not.toThrow();
    const full = { tools: [], search: { topK: 3, exact: false }, storage: 'disk' };
    expect(() => checkOptionRules(full, RULES, 'new Host({ tools })')).not.toThrow();
  });

  it('names the first broken option as the user wrote it, with what it must be and what it got', () => {
    expect(thrown({})).toMatchObject({ option: 'tools', message: 'tools must be a list of tools; got undefined.' });
    expect(thrown({ tools: [], search: null })).toMatchObject({
      option: 'search',
      message: /\{ topK, exact \}; got null/,
    });
    expect(thrown({ tools: [], search: { topK: 2.5 } })).toMatchObject({
      option: 'search.topK',
      message: 'search.topK must be a whole number >= 1; got a number (2.5).',
    });
    expect(thrown({ tools: [], search: { exact: 'yes' } }).option).toBe('search.exact');
    expect(thrown({ tools: [], storage: 'redis' }).message).toBe(
      `storage must be 'memory' or 'disk'; got a string ("redis").`,
    );
    expect(thrown({ tools: [], storage: 'disk', store: {} }).option).toBe('store');
  });

  it('refuses options that are not an object, saying how to call the host', () => {
    expect(thrown(undefined)).toMatchObject({
      option: 'options',
      message: 'options must be an object, as in new Host({ tools }); got undefined.',
    });
    expect(thrown([]).option).toBe('options');
  });
});

describe('option values and predicates', () => {
  it('reads dotted paths, stopping at what is not a record', () => {
    expect(valueAt({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
    expect(valueAt({ a: 'text' }, 'a.length')).toBeUndefined();
    expect(valueAt(null, 'a')).toBeUndefined();
  });

  it('shows numbers and strings with their value, anything else by its kind', () => {
    expect(shownValue(Number.NaN)).toBe('a number (NaN)');
    expect(shownValue('x')).toBe('a string ("x")');
    expect(shownValue([1])).toBe('an array');
    expect(shownValue(true)).toBe('a boolean');
  });

  it('checks whole numbers, ranges and choices', () => {
    expect([1, 7, 0, 1.5, '2', Number.NaN].map(isWholeNumberFrom(1))).toEqual([true, true, false, false, false, false]);
    expect([0, 1, 0.5, -0.1, 1.1, Number.NaN, '0.5'].map(isNumberIn(0, 1))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(['a', 'b', 'c'].map(isOneOf('a', 'b'))).toEqual([true, true, false]);
  });
});
