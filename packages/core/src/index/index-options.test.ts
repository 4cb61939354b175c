import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { HashEmbedder } from '../test-utils/hash-embedder.js';
import { thrown } from '../test-utils/thrown.js';
import { InMemoryEmbeddingCache } from './embedding-cache.js';
import { ToolIndex } from './tool-index.js';

function catalog(): ToolCatalog {
  return new ToolCatalog([{ id: 'get_weather', description: 'Get the weather for a city.' }]);
}

describe('ToolIndex options', () => {
  it('refuses options of the wrong kind when the index is made, each by its name', () => {
    const cases: [unknown, string][] = [
      [null, 'options'],
      ['fast', 'options'],
      [{ embedder: 5 }, 'embedder'],
      [{ embedder: { id: 'e' } }, 'embedder'],
      [{ embedder: { embed: async () => [] } }, 'embedder'],
      [{ embeddingCache: 5 }, 'embeddingCache'],
      [{ embeddingCache: { get: () => undefined } }, 'embeddingCache'],
      [{ fusion: 5 }, 'fusion'],
      [{ fusion: null }, 'fusion'],
    ];
    for (const [options, option] of cases) {
      for (const make of [
        () => new ToolIndex(catalog(), options as never),
        () => ToolIndex.fromJSON(catalog(), new ToolIndex(catalog()).toJSON(), options as never),
      ]) {
        const error = thrown(make);
        expect(InvalidOptionError.isInstance(error), option).toBe(true);
        expect((error as InvalidOptionError).option).toBe(option);
        expect((error as Error).message).toMatch(new RegExp(`^${option} must be`));
      }
    }
  });

  it('takes an embedder, a cache and fusion settings of the right kind', async () => {
    const index = new ToolIndex(catalog(), {
      embedder: new HashEmbedder(),
      embeddingCache: new InMemoryEmbeddingCache(),
      fusion: { vectorWeight: 0.5 },
    });
    expect((await index.search('weather')).map((hit) => hit.id)).toEqual(['get_weather']);
    expect(new ToolIndex(catalog(), undefined).size).toBe(1);
  });
});
