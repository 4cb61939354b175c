import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { ToolSearchSession } from './tool-search-session.js';

const catalog = [{ id: 'get_weather', description: 'Get the weather for a city.' }];

describe('session options of the wrong kind', () => {
  it('are an InvalidOptionError naming them when the session is made, not a TypeError or a failure at the first search', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const cases: [Record<string, unknown>, string][] = [
      [{ state: null }, 'state'],
      [{ state: 10n }, 'state'],
      [{ state: circular }, 'state'],
      [{ catalogListing: 10n }, 'catalogListing'],
      [{ search: 5 }, 'search'],
      [{ search: null }, 'search'],
      [{ search: { minScore: 2 } }, 'search.minScore'],
      [{ search: { minScore: '0.5' } }, 'search.minScore'],
      [{ descriptionBudget: '60' }, 'descriptionBudget'],
      // An index option is named by its path in the session's options.
      [{ indexOptions: { embedder: { embed: async () => [] } } }, 'indexOptions.embedder'],
      [{ indexOptions: { embeddingCache: {} } }, 'indexOptions.embeddingCache'],
      [{ indexOptions: { fusion: 3 } }, 'indexOptions.fusion'],
      [{ indexOptions: { fusion: { vectorWeight: 2 } } }, 'indexOptions.fusion.vectorWeight'],
      [{ indexOptions: { fusion: { minSimilarity: 0.9, maxSimilarity: 0.5 } } }, 'indexOptions.fusion.minSimilarity'],
    ];
    for (const [options, option] of cases) {
      const error = thrown(() => new ToolSearchSession({ catalog, ...options } as never));
      expect(InvalidOptionError.isInstance(error), option).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
    }
  });

  it('a valid search.minScore is used by search_tools', async () => {
    const session = new ToolSearchSession({ catalog, search: { minScore: 1 } });
    const step = await session.prepareStep();
    expect(await step.execute('search_tools', { query: 'weather' })).toMatchObject({
      ok: true,
      output: { results: [] },
    });
  });
});
