import { describe, expect, it } from 'vitest';
import { ToolSearchSession } from '../session/tool-search-session.js';
import type { LoadedToolStore } from '../stores/loaded-tool-store.js';
import { rejection } from '../test-utils/thrown.js';
import type { ToolDescriptor, ToolExecutionContext } from '../types.js';
import { outputText, runHostCall } from './host-call.js';

/** An error a host's framework uses for control flow (an interrupt for a human, say). */
class Interrupt extends Error {}
const isInterrupt = (error: unknown) => error instanceof Interrupt;

function catalog(seen: ToolExecutionContext[] = []): ToolDescriptor[] {
  return [
    {
      id: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (input, context) => {
        seen.push(context);
        const { city } = input as { city: string };
        if (city === 'Atlantis') throw new Error('no such city');
        if (city === 'ask') throw new Interrupt('ask a human');
        return { city, sky: 'sunny' };
      },
    },
  ];
}

async function stepWithWeather(seen?: ToolExecutionContext[], store?: LoadedToolStore) {
  const session = new ToolSearchSession({ catalog: catalog(seen), state: store ?? 'conversation' });
  return session.prepareStep({ threadId: 't', loaded: store ? undefined : ['get_weather'] });
}

describe('runHostCall', () => {
  it('gives a tool output, and the tools a meta-tool call loaded, as the step did', async () => {
    const seen: ToolExecutionContext[] = [];
    const step = await stepWithWeather(seen);
    const host = { runtime: 'of the host' };
    const result = await runHostCall(step, 'get_weather', { city: 'Lima' }, { host });
    expect(result).toEqual({ ok: true, output: { city: 'Lima', sky: 'sunny' }, toolId: 'get_weather' });
    expect(seen[0]!.host).toBe(host);
    const fresh = await new ToolSearchSession({ catalog: catalog(), state: 'conversation' }).prepareStep();
    const load = await runHostCall(fresh, 'load_tool', { toolName: 'get_weather' });
    expect(load).toMatchObject({ ok: true, loaded: ['get_weather'] });
  });

  it("answers the model's mistakes and a failing tool with the message the model reads", async () => {
    const step = await stepWithWeather();
    const unknown = await runHostCall(step, 'get_wether', { city: 'Lima' }, { isControlFlow: isInterrupt });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.message).toContain('get_weather');
    const invalid = await runHostCall(step, 'get_weather', { town: 'Lima' });
    expect(!invalid.ok && invalid.message).toMatch(/^Invalid arguments for tool "get_weather"/);
    const failed = await runHostCall(step, 'get_weather', { city: 'Atlantis' }, { isControlFlow: isInterrupt });
    expect(failed).toEqual({ ok: false, message: 'Tool "get_weather" failed: no such city' });
  });

  it('an error of the session itself (a store that is down) is a result too, saying the tool could not run', async () => {
    const store: LoadedToolStore = {
      get: async () => [],
      add: async () => {
        throw new Error('connection refused');
      },
      remove: async () => {},
      clear: async () => {},
      clearAll: async () => {},
    };
    const step = await stepWithWeather(undefined, store);
    const result = await runHostCall(step, 'load_tool', { toolName: 'get_weather' });
    expect(result).toEqual({ ok: false, message: 'Tool "load_tool" could not run: connection refused' });
    // The name the model wrote is quoted cut.
    const down = { execute: async () => Promise.reject(new Error('down')) };
    const long = await runHostCall(down as never, 'x'.repeat(5000), {});
    expect(!long.ok && long.message).toMatch(/^Tool "x+… \(5000 characters\)" could not run: down$/);
  });

  it("lets the host's control flow through: from the tool, from the session, and a tool's error after an abort", async () => {
    const step = await stepWithWeather();
    const interrupt = await rejection(() =>
      runHostCall(step, 'get_weather', { city: 'ask' }, { isControlFlow: isInterrupt }),
    );
    expect(interrupt).toBeInstanceOf(Interrupt);
    // Without isControlFlow, the same throw is a failed call.
    expect(await runHostCall(step, 'get_weather', { city: 'ask' })).toMatchObject({ ok: false });
    const controller = new AbortController();
    controller.abort();
    const aborted = await rejection(() =>
      runHostCall(step, 'get_weather', { city: 'Atlantis' }, { abortSignal: controller.signal }),
    );
    expect((aborted as Error).message).toBe('no such city');
    const throwing = { execute: async () => Promise.reject(new Interrupt('from the session')) };
    const fromSession = await rejection(() =>
      runHostCall(throwing as never, 'load_tool', {}, { isControlFlow: isInterrupt }),
    );
    expect((fromSession as Error).message).toBe('from the session');
  });
});

describe('outputText', () => {
  it('keeps a string, writes anything else as JSON, and falls back to String() when JSON cannot', () => {
    expect(outputText('sunny')).toBe('sunny');
    expect(outputText({ sky: 'sunny', degrees: 21 })).toBe('{"sky":"sunny","degrees":21}');
    expect(outputText(null)).toBe('null');
    expect(outputText(undefined)).toBe('undefined');
    expect(outputText(10n)).toBe('10');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(outputText(cyclic)).toBe('[object Object]');
  });
});
