import { toolInvocationsOf } from '@toolscout/core/internal';
import { describe, expect, it } from 'vitest';
import { conversationFromMessages } from './conversation-from-messages.js';

const message = (parts: unknown[]) => ({ id: 'm', role: 'assistant', content: { format: 2, parts } });
const invocation = (toolInvocation: Record<string, unknown>) => ({ type: 'tool-invocation', toolInvocation });

describe('conversationFromMessages', () => {
  it("turns the user's messages and Mastra's tool-invocation parts into entries, in order", () => {
    const messages = [
      { id: 'u', role: 'user', content: { format: 2, parts: [{ type: 'text', text: 'hi' }] } },
      message([
        invocation({
          state: 'result',
          toolCallId: 'c1',
          toolName: 'load_tool',
          args: { toolName: 'a' },
          result: { loaded: ['a'] },
        }),
        { type: 'step-start' },
        invocation({
          state: 'output-error',
          toolCallId: 'c2',
          toolName: 'nope',
          args: {},
          errorText: 'Tool "nope" is not available.',
        }),
        invocation({ state: 'call', toolCallId: 'c3', toolName: 'a', args: { x: 1 } }),
      ]),
    ];
    expect(conversationFromMessages(messages)).toEqual([
      { type: 'user-message', text: 'hi' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'a' } },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'load_tool', output: { loaded: ['a'] } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'nope', input: {} },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'nope', output: 'Tool "nope" is not available.' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'a', input: { x: 1 } },
    ]);
  });

  it('reads the older content.toolInvocations list and skips what is not a message', () => {
    const legacy = {
      role: 'assistant',
      content: {
        toolInvocations: [
          { state: 'result', toolCallId: 'c1', toolName: 'search_tools', args: {}, result: { results: [] } },
        ],
      },
    };
    expect(conversationFromMessages([null, 'text', { role: 'user', content: 'plain' }, legacy])).toEqual([
      { type: 'user-message', text: 'plain' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'search_tools', input: {} },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'search_tools', output: { results: [] } },
    ]);
    expect(conversationFromMessages(undefined)).toEqual([]);
    expect(toolInvocationsOf([message([invocation({ toolCallId: 'x' }), { type: 'tool-invocation' }])])).toEqual([
      { toolCallId: 'x' },
    ]);
  });
});
