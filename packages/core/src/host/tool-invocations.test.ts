import { describe, expect, it } from 'vitest';
import { ToolSearchSession } from '../session/tool-search-session.js';
import {
  conversationFromInvocations,
  correctUnroutedCalls,
  toolInvocationsOf,
  type UnroutedCallsMemo,
} from './tool-invocations.js';

describe('conversationFromInvocations', () => {
  it('turns invocations into calls and results in order; pending calls have no result', () => {
    expect(
      conversationFromInvocations([
        {
          state: 'result',
          toolCallId: 'c1',
          toolName: 'load_tool',
          args: { toolName: 'a' },
          result: { loaded: ['a'] },
        },
        { state: 'output-error', toolCallId: 'c2', toolName: 'nope', args: {}, errorText: 'failed' },
        { state: 'call', toolName: 'a', args: { x: 1 } },
        { state: 'result', toolCallId: 'c4' },
        null,
      ]),
    ).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'a' } },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'load_tool', output: { loaded: ['a'] } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'nope', input: {} },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'nope', output: 'failed' },
      { type: 'tool-call', toolCallId: undefined, toolName: 'a', input: { x: 1 } },
    ]);
  });
});

describe('toolInvocationsOf', () => {
  it('reads tool-invocation parts, in a message or in its content, and the older toolInvocations list', () => {
    const a = { toolCallId: 'a' };
    const b = { toolCallId: 'b' };
    const c = { toolCallId: 'c' };
    const messages = [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'hi' },
          { type: 'tool-invocation', toolInvocation: a },
        ],
      },
      {
        role: 'assistant',
        content: { format: 2, parts: [{ type: 'step-start' }, { type: 'tool-invocation', toolInvocation: b }] },
      },
      { role: 'assistant', content: { toolInvocations: [c, 'junk'] } },
      { role: 'user', content: 'plain text' },
      null,
      { parts: [{ type: 'tool-invocation' }] },
    ];
    expect(toolInvocationsOf(messages)).toEqual([a, b, c]);
    expect(toolInvocationsOf(undefined)).toEqual([]);
  });
});

describe('correctUnroutedCalls', () => {
  const isUnrouted = (name: string, text: string) => text === `No tool ${name}.`;

  it("replaces the host's error for a tool the step did not offer with the step's own message, once", async () => {
    const session = new ToolSearchSession({
      catalog: [{ id: 'send_email', description: 'Send an email.', execute: () => 'sent' }],
    });
    const memo: UnroutedCallsMemo = {};
    const history = {
      state: 'output-error',
      toolCallId: 'old',
      toolName: 'send_email',
      errorText: 'No tool send_email.',
    };
    await correctUnroutedCalls([history], memo, isUnrouted); // before the run's first step: left alone
    expect(history.errorText).toBe('No tool send_email.');

    memo.step = await session.prepareStep({ threadId: 't' });
    const call = { state: 'output-error', toolCallId: 'c1', toolName: 'send_email', errorText: 'No tool send_email.' };
    const other = { state: 'output-error', toolCallId: 'c2', toolName: 'x', errorText: 'It broke.' };
    await correctUnroutedCalls([history, call, other], memo, isUnrouted);
    expect(history.errorText).toBe('No tool send_email.');
    expect(call.errorText).toContain('Call load_tool with {"toolName":"send_email"}');
    expect(other.errorText).toBe('It broke.');

    const again = { ...call, errorText: 'No tool send_email.' };
    await correctUnroutedCalls([again], memo, isUnrouted); // looked at already
    expect(again.errorText).toBe('No tool send_email.');
    session.dispose();
  });
});
