import { createQuickJsSandbox } from '@toolscout/core/code-mode';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './datasets.js';
import { argumentsFor, runMultiTool } from './multi-tool.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

describe('multi-tool requests, search-load vs code', () => {
  it('code mode runs the same relevant tools in fewer model steps', async () => {
    const result = await runMultiTool(loadDataset(FIXTURE_DIR), await createQuickJsSandbox(), 10);
    expect(result).toBeDefined();
    const { modes } = result!;
    expect(result!.sampled).toBe(result!.queries);
    expect(modes.code.steps).toBe(2); // the program, then the answer
    expect(modes['search-load'].steps).toBeGreaterThanOrEqual(4); // search, load, calls, answer
    expect(modes.code.ranPercent).toBeGreaterThan(0);
    expect(modes.code.ranPercent).toBe(modes['search-load'].ranPercent);
    expect(modes.code.inputTokens).toBeLessThan(modes['search-load'].inputTokens);
  });

  it('fills each required argument by its type, the first enum value first', () => {
    expect(
      argumentsFor({
        type: 'object',
        properties: {
          city: { type: 'string' },
          days: { type: 'integer' },
          unit: { enum: ['c', 'f'] },
          options: { type: 'object', properties: { exact: { type: 'boolean' } }, required: ['exact'] },
          optional: { type: 'string' },
        },
        required: ['city', 'days', 'unit', 'options'],
      }),
    ).toEqual({ city: 'example', days: 1, unit: 'c', options: { exact: true } });
  });
});
