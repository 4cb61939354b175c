import { expect } from 'vitest';
import { answer, call, load, search } from '../harness.js';
import { resultOf, type ScenarioContext } from './context.js';

/** Learning from use (the `feedback` option): what the model called after a search teaches later searches. */
export function feedbackScenarios({ scenario, agentWith }: ScenarioContext): void {
  scenario('feedback: a tool called after a search is found by later searches', true, async () => {
    const { agent } = await agentWith({ options: { feedback: true } });
    const names = (output: unknown) => (output as { results: { name: string }[] }).results.map((hit) => hit.name);
    // No tool says "rain": the keyword ranking finds nothing; the model finds the forecast another way.
    const first = await agent.run({
      prompt: 'Will it rain in Rome this weekend?',
      threadId: 'thread-feedback-1',
      script: [
        search('rain this weekend'),
        load('get_forecast'),
        call('get_forecast', { city: 'Rome', days: 3 }),
        answer(),
      ],
    });
    expect(names(resultOf(first, 0).output)).toEqual([]);
    const second = await agent.run({
      prompt: 'Rain in Oslo this weekend?',
      threadId: 'thread-feedback-2',
      script: [search('rain this weekend in oslo'), answer()],
    });
    expect(names(resultOf(second, 0).output)[0]).toBe('get_forecast');
  });
}
