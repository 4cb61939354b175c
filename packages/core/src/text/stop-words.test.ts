import { describe, expect, it } from 'vitest';
import { stem } from './stemmer.js';
import { FUNCTION_WORDS, REQUEST_WORDS } from './stop-words.js';

describe('stop words', () => {
  it('are lower-case, accent-free surface forms', () => {
    for (const word of [...FUNCTION_WORDS, ...REQUEST_WORDS]) expect(word).toMatch(/^[a-z]+$/);
  });

  it('keep words that can name what a tool does', () => {
    for (const word of ['up', 'down', 'out', 'off', 'not', 'new', 'all', 'get', 'send', 'find', 'list']) {
      expect(FUNCTION_WORDS.has(word), word).toBe(false);
      expect(REQUEST_WORDS.has(word), word).toBe(false);
    }
  });

  it('cover request filler separately from function words', () => {
    for (const word of ['please', 'can', 'could', 'want', 'tell', 'help']) expect(REQUEST_WORDS.has(word)).toBe(true);
    for (const word of ['the', 'of', 'me', 'you', 'what']) expect(FUNCTION_WORDS.has(word)).toBe(true);
    expect([...REQUEST_WORDS].filter((word) => FUNCTION_WORDS.has(word))).toEqual([]);
  });

  it('are checked before stemming (a stop word need not be its own stem)', () => {
    expect(stem('does')).not.toBe('does');
    expect(FUNCTION_WORDS.has('does')).toBe(true);
  });
});
