import { expect } from 'vitest';
import { answer, call, load, parallel } from '../harness.js';
import { META, offered, resultOf, type ScenarioContext } from './context.js';

/** Where loaded tools live: per thread, across restarts and trimmed histories, in a stable order. */
export function stateScenarios({ scenario, agentWith, needs, harness }: ScenarioContext): void {
  scenario('threads are isolated', true, async () => {
    const { agent } = await agentWith();
    const a = await agent.run({ prompt: 'Weather', threadId: 'thread-a', script: [load('get_weather'), answer()] });
    const b = await agent.run({ prompt: 'Email', threadId: 'thread-b', script: [load('send_email'), answer()] });
    expect(offered(a, 1)).toEqual([...META, 'get_weather']);
    expect(offered(b, 0)).toEqual(META);
    expect(offered(b, 1)).toEqual([...META, 'send_email']);
  });

  scenario('conversation strategy across a restart', needs('history'), async () => {
    const setup = { options: { state: 'conversation' as const } };
    const first = await agentWith(setup);
    const turn1 = await first.agent.run({
      prompt: 'Weather',
      threadId: 'thread-restart',
      script: [load('get_weather'), answer()],
    });
    const second = await agentWith(setup); // a new agent and session: nothing in memory
    const turn2 = await second.agent.run({
      prompt: 'And in Rome?',
      threadId: 'thread-restart',
      history: turn1.history,
      script: [call('get_weather', { city: 'Rome' }), answer()],
    });
    expect(offered(turn2, 0)).toEqual([...META, 'get_weather']);
    expect(resultOf(turn2, 0).isError).toBe(false);
    expect(second.executions).toEqual([{ toolId: 'get_weather', input: { city: 'Rome' } }]);
  });

  scenario('conversation strategy after the load result is trimmed', needs('history', 'trimHistory'), async () => {
    const setup = { options: { state: 'conversation' as const } };
    const first = await agentWith(setup);
    const turn1 = await first.agent.run({
      prompt: 'Weather',
      threadId: 'thread-trim',
      script: [load('get_weather'), answer()],
    });
    const trimmed = harness.trimHistory!(turn1.history, ['load_tool']);
    const turn2 = await first.agent.run({
      prompt: 'Again',
      threadId: 'thread-trim',
      history: trimmed,
      script: [answer()],
    });
    expect(offered(turn2, 0)).toEqual(META);
  });

  scenario('pinned tools', true, async () => {
    const { agent } = await agentWith({ pinned: true });
    const transcript = await agent.run({
      prompt: 'Time and weather',
      threadId: 'thread-pinned',
      script: [call('get_time', { timezone: 'Europe/Paris' }), load(['get_time', 'get_weather']), answer()],
    });
    expect(offered(transcript, 0)).toEqual([...META, 'get_time']);
    expect(resultOf(transcript, 0).isError).toBe(false);
    expect(resultOf(transcript, 1).output).toMatchObject({ loaded: ['get_weather'], alreadyLoaded: ['get_time'] });
    expect(offered(transcript, 2)).toEqual([...META, 'get_time', 'get_weather']);
  });

  scenario('append-only ordering', true, async () => {
    const { agent } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Many things',
      threadId: 'thread-order',
      script: [
        load('translate_text'),
        load('convert_currency'),
        parallel(
          { toolName: 'load_tool', input: { toolName: 'get_weather' } },
          { toolName: 'load_tool', input: { toolName: 'translate_text' } },
        ),
        answer(),
      ],
    });
    expect(offered(transcript, 1)).toEqual([...META, 'translate_text']);
    expect(offered(transcript, 2)).toEqual([...META, 'translate_text', 'convert_currency']);
    expect(offered(transcript, 3)).toEqual([...META, 'translate_text', 'convert_currency', 'get_weather']);
  });
}
