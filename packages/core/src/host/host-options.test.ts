import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import { thrown } from '../test-utils/thrown.js';
import { checkHostOptions, loadedStateRule } from './host-options.js';

const USAGE = 'createX takes one options object, { catalog, ... }';
const RULES = {
  request: 'function',
  extra: 'object',
  name: 'non-empty string',
  state: loadedStateRule('agent-state'),
  limit: [(value: unknown) => value === 'small' || value === 'large', "'small' or 'large'"],
} as const;

/** The InvalidOptionError that checking `options` throws (fails the test on any other outcome). */
function optionError(options: unknown): InvalidOptionError {
  const error = thrown(() => checkHostOptions(options, USAGE, RULES));
  if (!InvalidOptionError.isInstance(error)) throw new Error(`expected an InvalidOptionError, got ${String(error)}`);
  return error;
}

describe('checkHostOptions', () => {
  it('accepts options whose given values keep their rules, and ignores options it has no rule for', () => {
    const store = new InMemoryLoadedToolStore();
    for (const options of [
      {},
      { catalog: 42, mode: 'nope' },
      { request: () => ({}), extra: {}, name: 'a', state: 'agent-state', limit: 'small' },
      { state: 'memory' },
      { state: 'conversation' },
      { state: store },
      { name: undefined, state: undefined },
    ]) {
      expect(() => checkHostOptions(options, USAGE, RULES)).not.toThrow();
    }
    store.dispose();
  });

  it('names the options object when it is not one, with the usage', () => {
    for (const options of [undefined, null, 'catalog', []]) {
      const error = optionError(options);
      expect(error.option).toBe('options');
      expect(error.message).toMatch(/^createX takes one options object, \{ catalog, \.\.\. \}; got /);
    }
    expect(optionError(undefined).message).toBe(`${USAGE}; got undefined.`);
  });

  it('names the first option that breaks its rule, and says what it must be', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ request: 'yes' }, 'request', 'request must be a function; got a string.'],
      [{ extra: [] }, 'extra', 'extra must be an object; got an array.'],
      [{ name: '' }, 'name', 'name must be a non-empty string; got a string.'],
      [{ name: 7 }, 'name', 'name must be a non-empty string; got a number.'],
      [{ limit: 'huge' }, 'limit', "limit must be 'small' or 'large'; got a string."],
      [
        { state: 'disk' },
        'state',
        "state must be 'memory', 'conversation', 'agent-state' or a LoadedToolStore; got a string.",
      ],
      [
        { state: null },
        'state',
        "state must be 'memory', 'conversation', 'agent-state' or a LoadedToolStore; got null.",
      ],
      [{ state: { set: () => {} } }, 'state', expect.stringContaining('or a LoadedToolStore; got an object.') as never],
      [{ request: 1, name: 2 }, 'request', 'request must be a function; got a number.'],
    ];
    for (const [options, option, message] of cases) {
      const error = optionError(options);
      expect(error.option).toBe(option);
      expect(error.message).toEqual(message);
    }
  });

  it('loadedStateRule without extras names core strategies only', () => {
    const [test, expected] = loadedStateRule() as readonly [(value: unknown) => boolean, string];
    expect(expected).toBe("'memory', 'conversation' or a LoadedToolStore");
    expect(test('agent-state')).toBe(false);
    expect(test('memory')).toBe(true);
  });
});
