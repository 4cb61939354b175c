import { describe, expect, it } from 'vitest';
import { conversationFromUiMessages, userTextOf } from './ui-message-conversation.js';

describe('conversationFromUiMessages', () => {
  it("keeps the user's messages in order with the tool calls and results", () => {
    const invocation = { state: 'result', toolCallId: 'c1', toolName: 'load_tool', args: {}, result: { ok: 1 } };
    expect(
      conversationFromUiMessages([
        {
          role: 'user',
          content: {
            format: 2,
            parts: [
              { type: 'text', text: 'Send' },
              { type: 'text', text: 'mail' },
            ],
          },
        },
        { role: 'assistant', content: { format: 2, parts: [{ type: 'tool-invocation', toolInvocation: invocation }] } },
        { role: 'user', parts: [{ type: 'text', text: 'Weather' }] },
      ]),
    ).toEqual([
      { type: 'user-message', text: 'Send\nmail' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: {} },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'load_tool', output: { ok: 1 } },
      { type: 'user-message', text: 'Weather' },
    ]);
  });

  it('reads string contents, and skips user messages without text and anything malformed', () => {
    expect(userTextOf({ role: 'user', content: 'Hi' })).toBe('Hi');
    expect(userTextOf({ role: 'user', content: { content: 'Hello' } })).toBe('Hello');
    expect(userTextOf({ role: 'user', content: { parts: [{ type: 'image', image: 'x' }] } })).toBeUndefined();
    expect(userTextOf({ role: 'assistant', content: 'Hi' })).toBeUndefined();
    expect(conversationFromUiMessages([null, 3, { role: 'user', content: { parts: [] } }])).toEqual([]);
    expect(conversationFromUiMessages(undefined)).toEqual([]);
  });
});
