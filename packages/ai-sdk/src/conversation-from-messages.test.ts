import { loadedNamesFromConversation } from '@toolscout/core/internal';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { conversationFromMessages } from './conversation-from-messages.js';

const LOADS = { load: 'load_tool' };

describe('conversationFromMessages', () => {
  it("extracts the user's messages, tool calls and the outputs the model saw, oldest first", () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather and email' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Loading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'get_weather' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'search_tools', input: { query: 'mail' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'load_tool',
            output: { type: 'json', value: { loaded: ['get_weather'] } },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'search_tools',
            output: { type: 'text', value: 'no results' },
          },
        ],
      },
      { role: 'assistant', content: 'Done.' },
    ];
    expect(conversationFromMessages(messages)).toEqual([
      { type: 'user-message', text: 'Weather and email' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'get_weather' } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'search_tools', input: { query: 'mail' } },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'load_tool', output: { loaded: ['get_weather'] } },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'search_tools', output: 'no results' },
    ]);
  });

  it("reads a user message's text parts, joined, and leaves its other parts out", () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Convert this invoice' },
          { type: 'image', image: new URL('https://example.com/invoice.png') },
          { type: 'text', text: 'to dollars.' },
        ],
      },
      { role: 'user', content: [{ type: 'image', image: new URL('https://example.com/more.png') }] },
    ];
    expect(conversationFromMessages(messages)).toEqual([
      { type: 'user-message', text: 'Convert this invoice\nto dollars.' },
    ]);
  });

  it('keeps errors and denials apart from loads', () => {
    const messages: ModelMessage[] = [
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'load_tool',
            output: { type: 'error-text', value: '{"loaded":["x"]}' },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'load_tool',
            output: { type: 'error-json', value: { loaded: ['y'] } },
          },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'load_tool',
            output: { type: 'execution-denied', reason: 'no' },
          },
          {
            type: 'tool-result',
            toolCallId: 'd',
            toolName: 'load_tool',
            output: { type: 'json', value: { alreadyLoaded: ['z'] } },
          },
        ],
      },
    ];
    const conversation = conversationFromMessages(messages);
    expect(conversation.map((entry) => entry.type === 'tool-result' && entry.output)).toEqual([
      { error: '{"loaded":["x"]}' },
      { error: { loaded: ['y'] } },
      { denied: true, reason: 'no' },
      { alreadyLoaded: ['z'] },
    ]);
    expect(loadedNamesFromConversation(conversation, LOADS)).toEqual(['z']);
  });

  it('reads the text of content outputs (JSON text counts as JSON for core)', () => {
    const messages: ModelMessage[] = [
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'load_tool',
            output: { type: 'content', value: [{ type: 'text', text: '{"loaded":["get_time"]}' }] },
          },
        ],
      },
    ];
    expect(loadedNamesFromConversation(conversationFromMessages(messages), LOADS)).toEqual(['get_time']);
  });

  it('takes tool results in assistant messages (provider-executed tools) and ignores what it cannot read', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'p', toolName: 'web_search', input: {}, providerExecuted: true },
          { type: 'tool-result', toolCallId: 'p', toolName: 'web_search', output: { type: 'json', value: [1] } },
          { type: 'reasoning', text: 'hmm' },
          null,
          { type: 'tool-call' },
        ],
      },
      { role: 'tool', content: 'not an array' },
      42,
    ] as unknown as ModelMessage[];
    expect(conversationFromMessages(messages)).toEqual([
      { type: 'tool-call', toolCallId: 'p', toolName: 'web_search', input: {} },
      { type: 'tool-result', toolCallId: 'p', toolName: 'web_search', output: [1] },
    ]);
    expect(conversationFromMessages(undefined)).toEqual([]);
  });
});
