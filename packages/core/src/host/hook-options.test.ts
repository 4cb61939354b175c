import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { checkHookOptions, checkOptionsObject } from './host-options.js';

describe('checkOptionsObject', () => {
  it('accepts an object and names `options` for anything else, with what came', () => {
    expect(() => checkOptionsObject({}, 'f takes one options object')).not.toThrow();
    const error = thrown(() => checkOptionsObject(null, 'f takes one options object, { catalog }'));
    expect(InvalidOptionError.isInstance(error) && error.option).toBe('options');
    expect((error as Error).message).toBe('f takes one options object, { catalog }; got null.');
    expect(() => checkOptionsObject([], 'f')).toThrow('f; got an array.');
  });
});

describe('checkHookOptions', () => {
  it('accepts absent hooks, functions and records', () => {
    expect(() => checkHookOptions({}, ['onStep'], ['refine'])).not.toThrow();
    expect(() => checkHookOptions({ onStep: () => {}, refine: { a: () => 1 } }, ['onStep'], ['refine'])).not.toThrow();
  });

  it('names the first bad hook, saying what it must be', () => {
    const error = thrown(() => checkHookOptions({ onStep: 7 }, ['onStep'], ['refine']));
    expect(InvalidOptionError.isInstance(error) && error.option).toBe('onStep');
    expect((error as Error).message).toBe('onStep must be a function; got a number.');
    expect(() => checkHookOptions({ refine: () => {} }, ['onStep'], ['refine'])).toThrow(
      'refine must be a record of functions by tool name; got a function.',
    );
  });
});
