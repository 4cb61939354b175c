import type { ToolSearchEvent } from '@toolscout/core';
import { expect } from 'vitest';
import { createFixtureCatalog } from '../fixtures.js';
import { answer, call, load, search, text } from '../harness.js';
import { EMAIL, hide, offered, resultOf, type ScenarioContext } from './context.js';

/** A listener that keeps every event, for `onEvent`. */
function recorder(): { events: ToolSearchEvent[]; onEvent: (event: ToolSearchEvent) => void } {
  const events: ToolSearchEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

/** The events of one type, typed. */
function ofType<T extends ToolSearchEvent['type']>(
  events: readonly ToolSearchEvent[],
  type: T,
): Extract<ToolSearchEvent, { type: T }>[] {
  return events.filter((event): event is Extract<ToolSearchEvent, { type: T }> => event.type === type);
}

/** What a failing tool says when it throws. */
const FAILURE = 'the forecast service is down';

/** What a host observes of a turn (`onEvent`), and a tool that fails while running. */
export function telemetryScenarios({ scenario, agentWith }: ScenarioContext): void {
  scenario('a tool that throws is an error result (execution-failed)', true, async () => {
    const fixture = createFixtureCatalog();
    fixture.tools = fixture.tools.map((tool) =>
      tool.id === 'get_forecast'
        ? {
            ...tool,
            execute: async () => {
              throw new Error(FAILURE);
            },
          }
        : tool,
    );
    const { events, onEvent } = recorder();
    const { agent, executions } = await agentWith({ fixture, options: { onEvent } });
    const transcript = await agent.run({
      prompt: 'Forecast and weather in Oslo',
      threadId: 'thread-failing-tool',
      script: [
        load(['get_forecast', 'get_weather']),
        call('get_forecast', { city: 'Oslo', days: 2 }),
        call('get_weather', { city: 'Oslo' }),
        answer(),
      ],
    });
    // The model reads which tool failed and why, as a tool error; the turn goes on to its answer.
    const failed = resultOf(transcript, 1);
    expect(failed).toMatchObject({ toolName: 'get_forecast', isError: true });
    expect(text(failed.output)).toContain('get_forecast');
    expect(text(failed.output)).toContain(FAILURE);
    expect(resultOf(transcript, 2)).toMatchObject({ toolName: 'get_weather', isError: false });
    expect(offered(transcript, 3)).toContain('get_weather');
    expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Oslo' } }]);
    expect(ofType(events, 'call')).toMatchObject([
      { toolId: 'get_forecast', ok: false, error: 'execution-failed', threadId: 'thread-failing-tool' },
      { toolId: 'get_weather', ok: true, threadId: 'thread-failing-tool' },
    ]);
  });

  scenario('telemetry events', true, async () => {
    const { events, onEvent } = recorder();
    const { agent } = await agentWith({ options: { onEvent, filter: hide('load', 'delete_repository') } });
    const threadId = 'thread-events';
    const transcript = await agent.run({
      prompt: 'Weather in Paris, then email Bob',
      threadId,
      script: [
        search('weather in a city'),
        load(['get_weather', 'delete_repository']),
        call('get_weather', { city: 'Paris' }),
        call('send_email', EMAIL),
        answer(),
      ],
    });
    expect(resultOf(transcript, 3).isError).toBe(true);
    for (const event of events) expect(event, `a ${event.type} event`).toMatchObject({ threadId });
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set(['step', 'search', 'load', 'blocked', 'call', 'self-correction']),
    );
    // The first search, load, call and self-correction, in the order they happened.
    const firsts = (['search', 'load', 'call', 'self-correction'] as const).map((type) =>
      events.findIndex((event) => event.type === type),
    );
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));

    const [searched] = ofType(events, 'search');
    expect(searched?.query).toBe('weather in a city');
    expect(searched?.hits.map((hit) => hit.id)).toContain('get_weather');
    expect(ofType(events, 'load')).toMatchObject([
      { requested: ['get_weather', 'delete_repository'], loaded: ['get_weather'], notFound: ['delete_repository'] },
    ]);
    const blocked = ofType(events, 'blocked');
    expect(blocked).toContainEqual(
      expect.objectContaining({ toolId: 'delete_repository', phase: 'load', reason: 'denied' }),
    );
    for (const event of blocked) expect(event.toolId).toBe('delete_repository');
    expect(ofType(events, 'call')).toMatchObject([{ toolId: 'get_weather', ok: true }]);
    expect(ofType(events, 'self-correction')).toContainEqual(
      expect.objectContaining({ kind: 'not-loaded', toolName: 'send_email', suggestions: ['send_email'] }),
    );
    // A step event for every model call at least (hosts may also prepare steps for other things).
    const steps = ofType(events, 'step');
    expect(steps.length).toBeGreaterThanOrEqual(transcript.steps.length);
    expect(steps[0]).toMatchObject({ offered: offered(transcript, 0), loaded: [] });
    expect(steps.at(-1)).toMatchObject({ offered: offered(transcript, 4), loaded: ['get_weather'] });
  });
}
