import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, MAX_CURSOR_CHARS } from './page-cursor.js';
import { InvalidCursorError } from './source-errors.js';

/** The cursor of a hand-made value, encoded as the listing encodes its own. */
function cursorOf(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function refusal(run: () => unknown): InvalidCursorError {
  try {
    run();
  } catch (error) {
    if (InvalidCursorError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('page cursors', () => {
  it('round-trip a position, with or without a source cursor of any characters', () => {
    const positions = [
      { source: 0, offset: 0 },
      { source: 2, offset: 7 },
      { source: 1, cursor: 'page-2', offset: 3 },
      { source: 1, cursor: 'é€ 😀 "quoted" \n/+=', offset: 0 },
      { source: 1, cursor: '', offset: 0 },
    ];
    for (const position of positions) {
      const cursor = encodeCursor('prompts', position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor('prompts', cursor, 3)).toEqual(position);
    }
  });

  it('encodes a long source cursor whole (it is read back while under the limit)', () => {
    const long = 'c'.repeat(100_000);
    const cursor = encodeCursor('prompts', { source: 0, cursor: long, offset: 0 });
    expect(cursor.length).toBeGreaterThan(MAX_CURSOR_CHARS);
    expect(refusal(() => decodeCursor('prompts', cursor, 1)).problem).toBe('too-long');
    const fits = encodeCursor('prompts', { source: 0, cursor: 'c'.repeat(2000), offset: 0 });
    expect(decodeCursor('prompts', fits, 1).cursor).toBe('c'.repeat(2000));
  });

  it('refuses a cursor of another list, saying which', () => {
    const error = refusal(() => decodeCursor('prompts', encodeCursor('tools', { source: 0, offset: 5 }), 1));
    expect(error).toMatchObject({ code: 'invalid-cursor', list: 'prompts', problem: 'other-list' });
    expect(error.message).toBe(
      'Unknown cursor for the prompts list (made for the tools list): use the nextCursor of the previous page, or none for the first page.',
    );
  });

  it('refuses anything it did not give, each with its problem', () => {
    const cases: [unknown, InvalidCursorError['problem']][] = [
      ['bogus', 'unreadable'],
      ['', 'unreadable'],
      ['!!!!', 'unreadable'],
      ['a', 'unreadable'],
      [btoa('not json'), 'unreadable'],
      ['x'.repeat(MAX_CURSOR_CHARS + 1), 'too-long'],
      [cursorOf({ list: 'prompts' }), 'unreadable'],
      [cursorOf(['prompts', 0, null]), 'unreadable'],
      [cursorOf([1, 0, null, 0]), 'other-list'],
      [cursorOf(['prompts', 0, 5, 0]), 'unreadable'],
      [cursorOf(['prompts', 3, null, 0]), 'out-of-range'],
      [cursorOf(['prompts', -1, null, 0]), 'out-of-range'],
      [cursorOf(['prompts', 0.5, null, 0]), 'out-of-range'],
      [cursorOf(['prompts', 0, null, -2]), 'out-of-range'],
      [cursorOf(['prompts', 0, null, 2 ** 60]), 'out-of-range'],
      [cursorOf(['prompts', '0', null, 0]), 'out-of-range'],
      [5, 'unreadable'],
    ];
    for (const [cursor, problem] of cases) {
      const error = refusal(() => decodeCursor('prompts', cursor as string, 3));
      expect(error.problem, String(cursor).slice(0, 40)).toBe(problem);
      expect(error.message).toMatch(/^Unknown cursor for the prompts list \(.+\): use the nextCursor/);
    }
    // Invalid UTF-8 inside valid base64url.
    const badUtf8 = btoa(String.fromCharCode(0xff, 0xfe, 0x5b)).replace(/=+$/, '');
    expect(refusal(() => decodeCursor('prompts', badUtf8, 3)).reason).toBe('not one this listing gave');
  });

  it('refuses every cursor of a list over no sources', () => {
    const cursor = encodeCursor('prompts', { source: 0, offset: 0 });
    expect(refusal(() => decodeCursor('prompts', cursor, 0)).problem).toBe('out-of-range');
  });
});
