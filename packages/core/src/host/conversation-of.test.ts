import { describe, expect, it } from 'vitest';
import { loadedNamesFromConversation } from '../session/conversation.js';
import { contentOutput, conversationOf, type MessageToolParts } from './conversation-of.js';

/** Messages as a framework might hold them: calls on assistant messages, results on tool messages. */
type Message =
  | { role: 'user'; text: string }
  | { role: 'assistant'; calls: { id?: string; name: string; args: unknown }[] }
  | { role: 'tool'; callId: string; name?: string; content: unknown };

function read(message: Message): MessageToolParts | undefined {
  if (message.role === 'assistant') {
    return { calls: message.calls.map(({ id, name, args }) => ({ id, name, input: args })) };
  }
  if (message.role === 'tool')
    return { result: { callId: message.callId, name: message.name, output: message.content } };
  return undefined;
}

describe('conversationOf', () => {
  it('reads calls and results oldest first, naming a result by its call when it has no name', () => {
    const messages: Message[] = [
      { role: 'user', text: 'Weather?' },
      {
        role: 'assistant',
        calls: [
          { id: 'a', name: 'load_tool', args: { toolName: 'get_weather' } },
          { name: 'search_tools', args: { query: 'mail' } },
        ],
      },
      { role: 'tool', callId: 'a', content: '{"success":true,"loaded":["get_weather"]}' },
      { role: 'tool', callId: 'x', name: 'get_time', content: '12:00' },
      { role: 'tool', callId: 'unknown', content: 'skipped: answers no known call' },
    ];
    const conversation = conversationOf(messages, read);
    expect(conversation).toEqual([
      { type: 'tool-call', toolCallId: 'a', toolName: 'load_tool', input: { toolName: 'get_weather' } },
      { type: 'tool-call', toolCallId: undefined, toolName: 'search_tools', input: { query: 'mail' } },
      {
        type: 'tool-result',
        toolCallId: 'a',
        toolName: 'load_tool',
        output: '{"success":true,"loaded":["get_weather"]}',
      },
      { type: 'tool-result', toolCallId: 'x', toolName: 'get_time', output: '12:00' },
    ]);
    expect(loadedNamesFromConversation(conversation, { load: 'load_tool' })).toEqual(['get_weather']);
    expect(conversationOf([], read)).toEqual([]);
  });

  it("reads a user's message where it is, between the calls and results", () => {
    const withUser = (message: Message) => (message.role === 'user' ? { user: message.text } : read(message));
    const messages: Message[] = [
      { role: 'user', text: 'Weather?' },
      { role: 'assistant', calls: [{ id: 'a', name: 'get_weather', args: {} }] },
      { role: 'tool', callId: 'a', content: 'Sunny' },
      { role: 'user', text: '' },
    ];
    expect(conversationOf(messages, withUser).map((entry) => entry.type)).toEqual([
      'user-message',
      'tool-call',
      'tool-result',
      'user-message',
    ]);
    expect(conversationOf(messages, withUser)[3]).toEqual({ type: 'user-message', text: '' });
  });
});

describe('contentOutput', () => {
  it('joins text blocks, and keeps a string or any other content as it is', () => {
    expect(contentOutput('{"ok":true}')).toBe('{"ok":true}');
    expect(
      contentOutput([
        { type: 'text', text: '{"loaded":' },
        { type: 'text', text: '["a"]}' },
      ]),
    ).toBe('{"loaded":["a"]}');
    expect(contentOutput([{ type: 'text' }])).toBe('');
    expect(contentOutput([])).toBe('');
    const mixed = [
      { type: 'text', text: 'chart:' },
      { type: 'image', url: 'x' },
    ];
    expect(contentOutput(mixed)).toBe(mixed);
    const odd = [null, 'text'];
    expect(contentOutput(odd)).toBe(odd);
    expect(contentOutput(undefined)).toBeUndefined();
  });
});
