import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { DEFAULT_RANKING, resolveRanking } from './ranking-params.js';
import { ToolIndex, type ToolIndexOptions } from './tool-index.js';

function catalog(): ToolCatalog {
  return new ToolCatalog([
    { id: 'side_by_side', description: 'Reads the weather forecast of a city.' },
    { id: 'apart', description: 'A forecast of tides, and the weather at sea.' },
  ]);
}

describe('ranking settings', () => {
  it('takes a weight for every field it documents, phrases included (0 turns phrase matching off)', async () => {
    expect(resolveRanking({ fieldWeights: { phrases: 0 } }).fieldWeights).toEqual({
      ...DEFAULT_RANKING.fieldWeights,
      phrases: 0,
    });
    for (const field of Object.keys(DEFAULT_RANKING.fieldWeights)) {
      expect(resolveRanking({ fieldWeights: { [field]: 3 } }).fieldWeights).toMatchObject({ [field]: 3 });
    }
    // "weather forecast" side by side is a phrase match only while phrases weigh something.
    const score = async (options: ToolIndexOptions) => {
      const hits = await new ToolIndex(catalog(), options).search('weather forecast');
      return hits.find((hit) => hit.id === 'side_by_side')!.score;
    };
    const withPhrases = await score({});
    const withoutPhrases = await score({ ranking: { fieldWeights: { phrases: 0 } } });
    expect(withoutPhrases).toBeLessThan(withPhrases);
  });

  it('refuses a ranking or field weights that are not objects, by name, instead of ignoring them or crashing', () => {
    const cases: [unknown, string][] = [
      [null, 'ranking'],
      [5, 'ranking'],
      ['k1', 'ranking'],
      [[], 'ranking'],
      [{ fieldWeights: 5 }, 'ranking.fieldWeights'],
      [{ fieldWeights: 'name' }, 'ranking.fieldWeights'],
      [{ fieldWeights: null }, 'ranking.fieldWeights'],
    ];
    for (const [ranking, option] of cases) {
      const error = thrown(() => new ToolIndex(catalog(), { ranking: ranking as never }));
      expect(InvalidOptionError.isInstance(error), option).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
      expect((error as Error).message).toMatch(new RegExp(`^${option.replace('.', '\\.')} must be an object`));
    }
  });
});

describe('ranking settings that are shares', () => {
  it('refuses b above 1 by name (BM25 length normalisation would score long tools below zero), keeps 0 and 1', () => {
    const error = thrown(() => resolveRanking({ b: 1.5 }));
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ option: 'ranking.b' });
    expect(String((error as Error).message)).toContain('[0, 1]');
    expect(resolveRanking({ b: 0 }).b).toBe(0);
    expect(resolveRanking({ b: 1 }).b).toBe(1);
  });
});
