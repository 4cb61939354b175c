import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { loadedNamesFromConversation } from '@toolscout/core/internal';
import { describe, expect, it } from 'vitest';
import { conversationFromMessages } from './conversation-from-messages.js';

describe('conversationFromMessages', () => {
  const messages = [
    new SystemMessage('You are helpful.'),
    new HumanMessage('Weather in Paris and email Bob'),
    new AIMessage({
      content: '',
      tool_calls: [
        { id: 'c1', name: 'load_tool', args: { toolNames: ['get_weather', 'send_email'] }, type: 'tool_call' },
        { id: 'c2', name: 'search_tools', args: { query: 'calendar' }, type: 'tool_call' },
      ],
    }),
    new ToolMessage({
      tool_call_id: 'c1',
      name: 'load_tool',
      content: '{"loaded":["get_weather","send_email"],"alreadyLoaded":[]}',
    }),
    // No name: it takes the name of the call it answers. Content blocks: their text.
    new ToolMessage({ tool_call_id: 'c2', content: [{ type: 'text', text: '{"results":[]}' }] }),
    new AIMessage({
      content: '',
      tool_calls: [{ id: 'c3', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' }],
    }),
    new ToolMessage({ tool_call_id: 'c3', name: 'get_weather', content: 'Sunny', status: 'error' }),
    new AIMessage('Done.'),
    // The user's text parts, joined; an image is left out.
    new HumanMessage({
      content: [
        { type: 'text', text: 'And in ' },
        { type: 'image_url', image_url: { url: 'https://example.com/rome.png' } },
        { type: 'text', text: 'Rome?' },
      ],
    }),
  ];

  it("extracts the user's messages, tool calls and results in order, skipping other messages", () => {
    expect(conversationFromMessages(messages)).toEqual([
      { type: 'user-message', text: 'Weather in Paris and email Bob' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'load_tool',
        input: { toolNames: ['get_weather', 'send_email'] },
      },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'search_tools', input: { query: 'calendar' } },
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'load_tool',
        output: '{"loaded":["get_weather","send_email"],"alreadyLoaded":[]}',
      },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'search_tools', output: '{"results":[]}' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool-result', toolCallId: 'c3', toolName: 'get_weather', output: 'Sunny' },
      { type: 'user-message', text: 'And in Rome?' },
    ]);
  });

  it('gives core what it needs to derive loaded tools from the messages', () => {
    expect(loadedNamesFromConversation(conversationFromMessages(messages), { load: 'load_tool' })).toEqual([
      'get_weather',
      'send_email',
    ]);
  });

  it('skips a result whose call is unknown, and rejects what is not a message list', () => {
    expect(conversationFromMessages([new ToolMessage({ tool_call_id: 'orphan', content: 'x' })])).toEqual([]);
    expect(() => conversationFromMessages('hello' as never)).toThrow(/array of LangChain messages/);
    expect(() => conversationFromMessages('hello' as never)).toThrow(
      expect.objectContaining({ code: 'invalid-argument', argument: 'messages' }),
    );
  });
});
