import { describe, expect, it } from 'vitest';
import { createReferenceHarness } from '../reference-harness.js';
import { createScenarioContext } from './context.js';

describe('what a scenario needs of the adapter', () => {
  const context = createScenarioContext({
    harness: createReferenceHarness(),
    capabilities: { history: true, modes: { proxy: true } },
    skip: {},
  });

  it('is met, or says which capabilities or mode the adapter does not declare', () => {
    expect(context.needs()).toBe(true);
    expect(context.needs('history')).toBe(true);
    expect(context.needs('history', 'trimHistory', 'aliases')).toBe(
      'the adapter does not declare trimHistory, aliases',
    );
    expect(context.mode('proxy')).toBe(true);
    expect(context.mode('code')).toBe("the adapter does not declare mode 'code'");
  });
});
