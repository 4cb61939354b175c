import type { ToolSearchSessionOptions } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { expect } from 'vitest';
import { createFixtureCatalog } from '../fixtures.js';
import { answer } from '../harness.js';
import type { ScenarioName } from '../scenario-names.js';
import type { ScenarioContext } from './context.js';

/** One bad option per scenario: what is given, and the option the error must name. */
const BAD_OPTIONS: readonly {
  scenario: ScenarioName;
  option: string;
  options: Omit<ToolSearchSessionOptions, 'catalog' | 'tools'>;
}[] = [
  { scenario: 'option error: mode', option: 'mode', options: { mode: 'bogus' as never } },
  { scenario: 'option error: search.limit', option: 'search.limit', options: { search: { limit: 0 } } },
  { scenario: 'option error: filterTimeoutMs', option: 'filterTimeoutMs', options: { filterTimeoutMs: -1 } },
  { scenario: 'option error: state', option: 'state', options: { state: 'nope' as never } },
];

/** What a value is, for a failure message: its class and message, or its type. */
function describeThrown(value: unknown): string {
  if (value instanceof Error) return `${value.constructor.name}: ${value.message}`;
  return value === undefined ? 'nothing (no error)' : typeof value;
}

/**
 * Bad options are refused by class: creating the agent, or its first run (whichever the framework
 * does), rejects with `InvalidOptionError` naming the option, never a plain `Error` or `TypeError`,
 * and never a silent default.
 */
export function optionErrorScenarios({ scenario, harness }: ScenarioContext): void {
  for (const bad of BAD_OPTIONS) {
    scenario(bad.scenario, true, async () => {
      let thrown: unknown;
      try {
        const agent = await harness.createAgent({ tools: createFixtureCatalog().tools, options: bad.options });
        await agent.run({ prompt: 'Hi', threadId: 'thread-bad-option', script: [answer()] });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidOptionError.isInstance(thrown), `an InvalidOptionError; got ${describeThrown(thrown)}`).toBe(true);
      const option = harness.optionNames?.[bad.option] ?? bad.option;
      expect((thrown as InvalidOptionError).option).toBe(option);
      expect((thrown as Error).message).toContain(option);
    });
  }
}
