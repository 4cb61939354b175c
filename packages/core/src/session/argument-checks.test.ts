import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { rejection, thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import { ToolSearchSession } from './tool-search-session.js';

// The session's methods that hosts call with values of their own: each bad argument is an
// InvalidArgumentError naming it, never a TypeError from deep inside nor a call quietly ignored.

function catalog(): ToolDescriptor[] {
  return [
    { id: 'get_weather', description: 'Get the current weather for a city.', execute: () => 'sunny' },
    { id: 'send_email', description: 'Send an email to a recipient.', execute: () => 'sent' },
  ];
}

/** Checks that `error` is an InvalidArgumentError naming `argument`, with a message saying so. */
function expectArgumentError(error: unknown, argument: string): void {
  expect(InvalidArgumentError.isInstance(error), argument).toBe(true);
  expect((error as InvalidArgumentError).argument).toBe(argument);
  expect((error as Error).message).toMatch(new RegExp(`^${argument.replace(/[.[\]]/g, '\\$&')} must be`));
}

describe('arguments of the session and its steps', () => {
  it('expectCalls takes call ids: one id given as a string is refused, not split into characters', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const step = await session.prepareStep({ threadId: 't' });
    const cases: [unknown, string][] = [
      ['call_1', 'callIds'],
      [5, 'callIds'],
      [null, 'callIds'],
      [['call_1', 7], 'callIds[1]'],
    ];
    for (const [callIds, argument] of cases) {
      expectArgumentError(
        thrown(() => step.expectCalls(callIds as never)),
        argument,
      );
    }
    // Any iterable of ids is fine; the step is handed to each of them.
    step.expectCalls(new Set(['call_1', 'call_2']));
    expect(await session.stepForCall({ threadId: 't' }, 'call_1')).toBe(step);
    expect(await session.stepForCall({ threadId: 't' }, 'call_2')).toBe(step);
  });

  it('clearState takes a thread id string (and a resource id string), not a key made of anything', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const cases: [() => Promise<unknown>, string][] = [
      [() => session.clearState(42 as never), 'threadId'],
      [() => session.clearState(undefined as never), 'threadId'],
      [() => session.clearState('t', 7 as never), 'resourceId'],
    ];
    for (const [call, argument] of cases) expectArgumentError(await rejection(call), argument);
    // A string thread id clears what the thread loaded.
    const step = await session.prepareStep({ threadId: 't' });
    await step.execute('load_tool', { toolName: 'send_email' });
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toContain('send_email');
    await session.clearState('t');
    expect((await session.prepareStep({ threadId: 't' })).toolNames).not.toContain('send_email');
  });

  it('a conversation that is not an array is an InvalidArgumentError naming request.conversation, whatever the state', async () => {
    for (const state of ['memory', 'conversation'] as const) {
      const session = new ToolSearchSession({ catalog: catalog(), state });
      for (const conversation of ['load_tool', { 0: 'x' }, 5, null]) {
        const request = { threadId: 't', conversation } as never;
        for (const call of [
          () => session.prepareStep(request),
          () => session.loadedTools(request),
          () => session.stepForCall(request, 'c1'),
        ]) {
          expectArgumentError(await rejection(call), 'request.conversation');
        }
      }
      session.dispose();
    }
  });

  it('search takes a query string', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    for (const query of [undefined, 5, { query: 'weather' }]) {
      expectArgumentError(await rejection(() => session.search(query as never)), 'query');
    }
    expect((await session.search('weather')).map((hit) => hit.tool.id)).toEqual(['get_weather']);
  });

  it('a step takes tool names as strings: execute, authorize and refuseUnrouted name a bad one', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const step = await session.prepareStep({ threadId: 't' });
    for (const name of [5, undefined, null, { name: 'get_weather' }]) {
      for (const call of [
        () => step.execute(name as never, {}),
        () => step.authorize(name as never, {}),
        () => step.refuseUnrouted(name as never),
      ]) {
        expectArgumentError(await rejection(call), 'name');
      }
    }
    expect(await step.execute('get_weather', {})).toMatchObject({ ok: false, error: { code: 'not-loaded' } });
  });

  it("prepareStep's options are an object when given", async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    for (const options of [null, 'quiet', 5]) {
      expectArgumentError(await rejection(() => session.prepareStep({}, options as never)), 'options');
    }
    expect((await session.prepareStep({}, undefined)).toolNames).toEqual(['search_tools', 'load_tool']);
  });
});
