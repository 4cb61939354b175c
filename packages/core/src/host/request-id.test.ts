import { describe, expect, it } from 'vitest';
import { requestId } from './request-id.js';

describe('requestId', () => {
  it('keeps a non-empty string, writes a finite number as its digits, and takes anything else as none', () => {
    expect(requestId('thread-1')).toBe('thread-1');
    expect(requestId(42)).toBe('42');
    expect(requestId(0)).toBe('0');
    for (const none of ['', undefined, null, Number.NaN, Number.POSITIVE_INFINITY, {}, ['t'], true]) {
      expect(requestId(none)).toBeUndefined();
    }
  });
});
