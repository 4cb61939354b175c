import { describe, expect, it } from 'vitest';
import { conversationFromContentParts, toolOutputValue } from './content-part-messages.js';

describe('conversationFromContentParts', () => {
  it('reads tool calls and results of assistant and tool messages, oldest first', () => {
    const messages = [
      { role: 'user', content: [{ type: 'tool-call', toolName: 'not_read', input: {} }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Loading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'a' } },
          { type: 'tool-result', toolCallId: 'p1', toolName: 'web_search', output: { type: 'text', value: 'hits' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'load_tool',
            output: { type: 'json', value: { loaded: ['a'] } },
          },
        ],
      },
    ];
    expect(conversationFromContentParts(messages)).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'a' } },
      { type: 'tool-result', toolCallId: 'p1', toolName: 'web_search', output: 'hits' },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'load_tool', output: { loaded: ['a'] } },
    ]);
  });

  it('skips what is malformed instead of throwing', () => {
    expect(conversationFromContentParts(undefined)).toEqual([]);
    expect(conversationFromContentParts('messages')).toEqual([]);
    const messages = [
      null,
      { role: 'assistant', content: 'text only' },
      {
        role: 'tool',
        content: [null, { type: 'tool-result', toolName: 7 }, { type: 'tool-call', toolName: 'x', toolCallId: 1 }],
      },
    ];
    expect(conversationFromContentParts(messages)).toEqual([
      { type: 'tool-call', toolCallId: undefined, toolName: 'x', input: undefined },
    ]);
  });
});

describe('toolOutputValue', () => {
  it('reads each kind of output part as the model saw it', () => {
    expect(toolOutputValue({ type: 'json', value: { a: 1 } })).toEqual({ a: 1 });
    expect(toolOutputValue({ type: 'text', value: 'hi' })).toBe('hi');
    expect(toolOutputValue({ type: 'error-text', value: 'failed' })).toEqual({ error: 'failed' });
    expect(toolOutputValue({ type: 'error-json', value: { e: 1 } })).toEqual({ error: { e: 1 } });
    expect(toolOutputValue({ type: 'execution-denied', reason: 'no' })).toEqual({ denied: true, reason: 'no' });
    const content = {
      type: 'content',
      value: [{ type: 'text', text: 'a' }, { type: 'media' }, { type: 'text', text: 'b' }],
    };
    expect(toolOutputValue(content)).toBe('a\nb');
    expect(toolOutputValue({ type: 'content', value: 'odd' })).toBe('odd');
    expect(toolOutputValue({ plain: true })).toEqual({ plain: true });
    expect(toolOutputValue('raw')).toBe('raw');
  });
});
