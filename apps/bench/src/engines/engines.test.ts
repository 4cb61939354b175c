import { describe, expect, it } from 'vitest';
import { loadDataset } from '../datasets.js';
import { FIXTURE_DIR } from '../test-utils/fixture.js';
import { bm25Words } from './bm25.js';
import { ENGINE_NAMES, ENGINES, EngineUnavailableError, engineByName } from './index.js';
import { toMastraTools } from './mastra.js';

const dataset = loadDataset(FIXTURE_DIR);
const ids = new Set(dataset.tools.map((tool) => tool.id));

describe.each(ENGINES.map((engine) => [engine.name, engine] as const))(
  'engine %s on the fixture catalog',
  (_, engine) => {
    it('returns catalog ids, best first, at most the limit, and finds the obvious tool', async () => {
      const index = await (await engine.prepare(dataset.tools)).build({ limit: 3 });
      try {
        const currency = await index.search('Convert 250 euros to Japanese yen: what is the exchange rate?');
        expect(currency.length).toBeGreaterThan(0);
        expect(currency.length).toBeLessThanOrEqual(3);
        for (const id of currency) expect(ids.has(id)).toBe(true);
        expect(new Set(currency).size).toBe(currency.length);
        expect(currency.slice(0, 2)).toContain('FxNow__convert amount');
        const lyrics = await index.search('song lyrics');
        expect(lyrics[0]).toBe('Lyricist__song lyrics');
      } finally {
        index.dispose?.();
      }
    });
  },
);

describe('engines', () => {
  it('are listed in table order and found by name', () => {
    expect(ENGINE_NAMES).toEqual(['toolscout', 'toolscout-hybrid', 'mastra', 'ai-sdk', 'bm25']);
    expect(engineByName('mastra').name).toBe('mastra');
    expect(() => engineByName('lunr')).toThrow(
      'Unknown engine "lunr"; use one of toolscout, toolscout-hybrid, mastra, ai-sdk, bm25.',
    );
  });

  it("toolscout's index survives a save and a load with the same ranking, and reports both figures", async () => {
    const index = await (await engineByName('toolscout').prepare(dataset.tools)).build({ limit: 10 });
    const figures = await index.measureSerialization!();
    expect(figures.bytes).toBeGreaterThan(1000);
    expect(figures.loadMs).toBeGreaterThanOrEqual(0);
    index.dispose?.();
  });

  it('mastra: the catalog becomes Mastra tools under provider-safe, reversible names', () => {
    const { tools, idOf } = toMastraTools(dataset.tools);
    expect(Object.keys(tools)).toHaveLength(dataset.tools.length);
    for (const [name, tool] of Object.entries(tools)) {
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.id).toBe(name);
      expect(ids.has(idOf.get(name)!)).toBe(true);
    }
    // Two tools share the name sendEmailMessage under two sources: both stay, under distinct keys.
    expect([...idOf.values()].filter((id) => id.endsWith('sendEmailMessage'))).toHaveLength(2);
  });

  it("mastra: the ranking is Mastra's own search_tools answer (topK honoured, its BM25 + name boost)", async () => {
    const index = await (await engineByName('mastra').prepare(dataset.tools)).build({ limit: 2 });
    // "sendEmailMessage" contains "email": Mastra's name boost puts both mailers first.
    expect((await index.search('email')).sort()).toEqual(['mailer.v2|sendEmailMessage', 'sendEmailMessage']);
    expect(await index.search('zzzz qqqq')).toEqual([]);
  });

  it('bm25 splits words at camelCase, snake_case and punctuation, without stemming', () => {
    expect(bm25Words('getHTTPResponse for user_id, "Songs"')).toEqual([
      'get',
      'http',
      'response',
      'for',
      'user',
      'id',
      'songs',
    ]);
  });

  it('EngineUnavailableError is recognised across copies', () => {
    const error = new EngineUnavailableError('skipped: missing');
    expect(EngineUnavailableError.isInstance(error)).toBe(true);
    expect(EngineUnavailableError.isInstance(new Error('skipped: missing'))).toBe(false);
  });
});
