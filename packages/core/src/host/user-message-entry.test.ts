import { describe, expect, it } from 'vitest';
import { userMessageEntry } from './user-message-entry.js';

describe('userMessageEntry', () => {
  it('reads a string content as it is', () => {
    expect(userMessageEntry('Send an email to Bob')).toEqual({ type: 'user-message', text: 'Send an email to Bob' });
  });

  it('joins the text parts of a part list, leaving other parts out', () => {
    const content = [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', image: 'data:image/png;base64,AAAA' },
      { type: 'text', text: 'Then email it to Bob.' },
      { type: 'text', text: 42 },
    ];
    expect(userMessageEntry(content)).toEqual({
      type: 'user-message',
      text: 'What is in this picture?\nThen email it to Bob.',
    });
  });

  it('is undefined for a content without text', () => {
    expect(userMessageEntry('')).toBeUndefined();
    expect(userMessageEntry([{ type: 'file', data: 'x', mediaType: 'text/plain' }])).toBeUndefined();
    expect(userMessageEntry(undefined)).toBeUndefined();
    expect(userMessageEntry({ text: 'not a content' })).toBeUndefined();
  });
});
