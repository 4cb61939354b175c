import { DuplicateToolError } from '@toolscout/core/errors';
import { expect } from 'vitest';
import { createFixtureCatalog } from '../fixtures.js';
import { answer, call, load, text } from '../harness.js';
import { META, offered, resultOf, type ScenarioContext } from './context.js';

/** Bad input from the model or the host: refused with a clear, bounded, typed answer. */
export function badInputScenarios({ scenario, agentWith, harness }: ScenarioContext): void {
  scenario('a huge tool name is refused, quoted cut', true, async () => {
    // 1 MB: what a model (or an attacker speaking for one) can send as a name.
    const huge = `get_weather_${'x'.repeat(1_048_576 - 12)}`;
    const { agent, executions } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Weather',
      threadId: 'thread-huge-name',
      script: [load(huge), load(['get_weather', huge]), call(huge, { city: 'Rome' }), answer()],
    });
    for (const index of [0, 1, 2]) {
      const result = resultOf(transcript, index);
      expect(result.isError, `result ${index}`).toBe(true);
      expect(text(result.output).length, `result ${index}`).toBeLessThan(2_000);
      expect(text(result.output), `result ${index}`).toContain('… (1048576 characters)');
      expect(text(result.output), `result ${index}`).toContain('at most 1000 characters');
    }
    expect(offered(transcript, 3)).toEqual(META);
    expect(executions).toEqual([]);
  });

  scenario('bad arguments to a loaded tool', true, async () => {
    const { agent, executions } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Forecast',
      threadId: 'thread-bad-args',
      script: [
        load('get_forecast'),
        call('get_forecast', { city: 'Rome', days: 'three' }),
        call('get_forecast', { city: 'Rome', days: 3 }),
        answer(),
      ],
    });
    const bad = resultOf(transcript, 1);
    expect(bad.isError).toBe(true);
    expect(text(bad.output)).toContain('days');
    expect(resultOf(transcript, 2).isError).toBe(false);
    expect(executions).toEqual([{ toolId: 'get_forecast', input: { city: 'Rome', days: 3 } }]);
  });

  scenario('duplicate ids rejected', true, async () => {
    const fixture = createFixtureCatalog();
    const duplicate = { ...fixture.tools[0]!, source: 'second-server' };
    const attempt = Promise.resolve().then(() =>
      harness.createAgent({ tools: [...fixture.tools, duplicate], options: {} }),
    );
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) => DuplicateToolError.isInstance(error) && (error as Error).message.includes('get_weather'),
    );
  });
}
