import { describe, expect, it } from 'vitest';
import { clipName, MODEL_INPUT_LIMITS, nameStart } from './model-input-limits.js';

describe('clipName', () => {
  it('keeps a short name whole and cuts a long one to its start, an ellipsis and its length', () => {
    expect(clipName('get_weather')).toBe('get_weather');
    expect(clipName('x'.repeat(MODEL_INPUT_LIMITS.echoLength))).toHaveLength(MODEL_INPUT_LIMITS.echoLength);
    expect(clipName('abcdefghij', 4)).toBe('abcd… (10 characters)');
  });

  it('never splits a surrogate pair', () => {
    expect(nameStart('ab😀cd', 3)).toBe('ab');
    expect(clipName('ab😀cd', 4)).toBe('ab😀… (6 characters)');
  });
});
