import { describe, expect, it } from 'vitest';
import { parseJsonOrText } from './json-or-text.js';

describe('parseJsonOrText', () => {
  it('reads JSON, and keeps anything else as text', () => {
    expect(parseJsonOrText('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJsonOrText('"x"')).toBe('x');
    expect(parseJsonOrText('Tool "x" is not loaded.')).toBe('Tool "x" is not loaded.');
    expect(parseJsonOrText('')).toBe('');
  });
});
