import { describe, expect, it } from 'vitest';
import { ToolCallFailedError } from '../errors.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { carrySettings, executeThroughStep, keptTools, runStateEntry } from './host-tools.js';

describe('keptTools', () => {
  it("are a step's pinned and loaded tools, not its meta-tools", async () => {
    const session = new ToolSearchSession({
      catalog: [
        { id: 'send_email', description: 'Send an email.' },
        { id: 'get_time', description: 'Tell the time.', pinned: true },
      ],
    });
    const first = await session.prepareStep({ threadId: 't' });
    await first.execute('load_tool', { toolName: 'send_email' });
    const step = await session.prepareStep({ threadId: 't' });
    expect(keptTools(step, (offered) => offered.kind)).toEqual({ get_time: 'pinned', send_email: 'loaded' });
    session.dispose();
  });
});

describe('runStateEntry', () => {
  it('keeps one object under its key in the run state, and a fresh one without a run state', () => {
    const state: Record<string, unknown> = { other: 1, mine: 'not an object' };
    const entry = runStateEntry<{ count: number }>(state, 'mine');
    entry.count = 1;
    expect(runStateEntry<{ count: number }>(state, 'mine')).toBe(entry);
    expect(state).toEqual({ other: 1, mine: { count: 1 } });
    expect(runStateEntry(undefined, 'mine')).toEqual({});
  });
});

describe('executeThroughStep', () => {
  it("runs a call through the step with the host's data and abort signal, and throws a refused call", async () => {
    const seen: unknown[] = [];
    const session = new ToolSearchSession({
      catalog: [
        {
          id: 'echo',
          description: 'Echo.',
          pinned: true,
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          execute: (input, context) => {
            seen.push({ host: context.host, aborted: context.abortSignal?.aborted });
            return input;
          },
        },
        { id: 'hidden', description: 'Not loaded.' },
      ],
    });
    const step = await session.prepareStep({ threadId: 't' });
    const host = { abortSignal: new AbortController().signal, callId: 'c1' };
    await expect(executeThroughStep(step, 'echo')({ text: 'hi' }, host)).resolves.toEqual({ text: 'hi' });
    expect(seen).toEqual([{ host, aborted: false }]);
    const invalid = await executeThroughStep(step, 'echo')({ text: 1 }).catch((error: unknown) => error);
    expect(ToolCallFailedError.isInstance(invalid)).toBe(true);
    expect(invalid).toMatchObject({ reason: 'invalid-arguments' });
    await expect(executeThroughStep(step, 'hidden')({})).rejects.toMatchObject({ reason: 'not-loaded' });
    session.dispose();
  });
});

describe('carrySettings', () => {
  it('copies the named settings the original has, and nothing else', () => {
    const wrapper: Record<string, unknown> = { id: 'w', strict: true };
    carrySettings({ requireApproval: true, strict: undefined, secret: 1 }, wrapper, ['requireApproval', 'strict']);
    expect(wrapper).toEqual({ id: 'w', strict: true, requireApproval: true });
    carrySettings(undefined, wrapper, ['id']);
    expect(wrapper.id).toBe('w');
  });
});
