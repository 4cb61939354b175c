import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { parseQueriesJsonl, parseToolsJsonl } from '../importers/jsonl.js';
import { HashEmbedder } from '../test-utils/hash-embedder.js';
import { editDistance } from '../text/edit-distance.js';
import type { MatchReason, SearchField, ToolDescriptor } from '../types.js';
import { formatReasons } from './explain.js';
import { ToolIndex } from './tool-index.js';

const TOOLS: ToolDescriptor[] = [
  {
    id: 'weather__get_forecast',
    name: 'get_forecast',
    description: 'Weather forecast for the next days in a city.',
    source: 'weather',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Paris' },
        options: { type: 'object', properties: { units: { type: 'string', description: 'Celsius or Fahrenheit' } } },
      },
    },
  },
  {
    id: 'mail__send_email',
    name: 'sendEmail',
    description: 'Send an email message to a recipient.',
    tags: ['messaging'],
    source: 'mail',
    inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
  },
];

async function reasonsFor(query: string, id: string, tools = TOOLS): Promise<MatchReason[] | undefined> {
  const index = new ToolIndex(new ToolCatalog(tools));
  const hit = (await index.search(query, { explain: true, minScore: 0 })).find((found) => found.id === id);
  return hit?.reasons;
}

describe('ToolIndex.search({ explain: true })', () => {
  it('has no reasons unless asked', async () => {
    const index = new ToolIndex(new ToolCatalog(TOOLS));
    const [hit] = await index.search('weather forecast');
    expect(hit?.id).toBe('weather__get_forecast');
    expect(hit).not.toHaveProperty('reasons');
    const [off] = await index.search('weather forecast', { explain: false });
    expect(off).not.toHaveProperty('reasons');
  });

  it('says which query words matched where: name, description, source, a parameter by its path, a phrase', async () => {
    const reasons = await reasonsFor('Weather forecast in Celsius for a city', 'weather__get_forecast');
    expect(reasons).toEqual([
      // (the name field holds the words of the id that the name lacks: `weather__`)
      { query: 'weather', matched: 'weather', field: 'name', how: 'exact' },
      { query: 'weather', matched: 'weather', field: 'description', how: 'exact' },
      { query: 'weather', matched: 'weather', field: 'source', how: 'exact' },
      { query: 'forecast', matched: 'forecast', field: 'name', how: 'exact' },
      { query: 'forecast', matched: 'forecast', field: 'description', how: 'exact' },
      { query: 'celsius', matched: 'celsius', field: 'parameter', how: 'exact', parameter: 'options.units' },
      { query: 'city', matched: 'citi', field: 'description', how: 'exact' },
      { query: 'city', matched: 'citi', field: 'parameter', how: 'exact', parameter: 'city' },
      { query: 'weather forecast', matched: 'weather forecast', field: 'description', how: 'phrase' },
    ]);
    // (each word once, at its first place: name, description, parameter, tags, source)
    expect(formatReasons(reasons!)).toBe(
      'name: weather, forecast; description: city, "weather forecast"; parameter options.units: celsius',
    );
  });

  it('says when a word matched as a prefix or with a typo, and which indexed word it was', async () => {
    expect(await reasonsFor('forec', 'weather__get_forecast')).toEqual([
      { query: 'forec', matched: 'forecast', field: 'name', how: 'prefix' },
      { query: 'forec', matched: 'forecast', field: 'description', how: 'prefix' },
    ]);
    const typo = await reasonsFor('recipeint', 'mail__send_email');
    expect(typo).toEqual([{ query: 'recipeint', matched: 'recipient', field: 'description', how: 'typo' }]);
    expect(formatReasons(typo!)).toBe('description: recipeint (typo: recipient)');
  });

  it('gives no typo reason for a word many tools have, as the ranking counts none', async () => {
    // "message" is in three tools: a near spelling of it is not looked up, so "messages" is no typo of it.
    const tools: ToolDescriptor[] = ['a', 'b', 'c'].map((id) => ({ id, description: `message ${id}` }));
    tools.push({ id: 'd', description: 'massage chair' });
    expect(await reasonsFor('message', 'd', tools)).toBeUndefined();
    expect(await reasonsFor('message', 'a', tools)).toEqual([
      { query: 'message', matched: 'messag', field: 'description', how: 'exact' },
    ]);
  });

  it("counts a word's tools in the fields the ranking weighs, as the typo lookup does", async () => {
    // "message" is a tag of three tools, but tags weigh 0: the ranking counts no tool with it, so it
    // looks up near spellings and finds "massage"; the reason must say so too.
    const tools: ToolDescriptor[] = ['a', 'b', 'c'].map((id) => ({ id, description: id, tags: ['message'] }));
    tools.push({ id: 'd', description: 'massage chair' });
    const index = new ToolIndex(new ToolCatalog(tools), { ranking: { fieldWeights: { tags: 0 } } });
    const hits = await index.search('message', { explain: true, minScore: 0 });
    expect(hits.map((hit) => hit.id)).toEqual(['d']);
    expect(hits[0]?.reasons).toEqual([{ query: 'message', matched: 'massag', field: 'description', how: 'typo' }]);
  });

  it('explains hits of a hybrid-free index loaded from its saved form alike', async () => {
    const catalog = new ToolCatalog(TOOLS);
    const index = new ToolIndex(catalog);
    const loaded = ToolIndex.fromBinary(catalog, index.toBinary());
    const [a] = await index.search('send email', { explain: true });
    const [b] = await loaded.search('send email', { explain: true });
    expect(b?.reasons).toEqual(a?.reasons);
    expect(a?.reasons?.map((reason) => `${reason.field}:${reason.how}`)).toContain('name:phrase');
  });

  it('formats no reasons (a hybrid hit found by meaning alone) as such', async () => {
    expect(formatReasons([])).toBe('no query word (similar in meaning)');
    // (function words only: no keyword term, but the test embedder sees the words)
    const index = new ToolIndex(new ToolCatalog(TOOLS), { embedder: new HashEmbedder(), fusion: { minSimilarity: 0 } });
    const hits = await index.search('for the in a', { explain: true, minScore: 0 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.reasons).toEqual([]);
  });

  it('refuses an explain option that is not a boolean, naming it', async () => {
    const index = new ToolIndex(new ToolCatalog(TOOLS));
    const search = index.search('weather', { explain: 'yes' as unknown as boolean });
    await expect(search).rejects.toThrow(InvalidOptionError);
    await expect(index.search('weather', { explain: 1 as unknown as boolean })).rejects.toThrow(
      'explain must be true or false, got 1',
    );
  });

  it('edit distance stops past its bound', () => {
    expect(editDistance('forcast', 'forecast', 1, false)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3, false)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1, false)).toBe(2);
  });
});

// Every reason agrees with the ranking's own match report (`matches`), on real catalogs: the same
// query terms in the same fields (phrases aside, which the report does not list).
const datasets = new URL('../../../../../shared/datasets/', import.meta.url);
const haveDatasets = existsSync(fileURLToPath(datasets));
const REPORTED: Record<MatchReason['field'], SearchField> = {
  name: 'name',
  description: 'description',
  tags: 'tags',
  source: 'tags',
  parameter: 'parameters',
};

describe.skipIf(!haveDatasets)('reasons on the benchmark datasets', () => {
  for (const name of ['azuremcp', 'sealtools', 'toolbench']) {
    it(`${name}: every hit's reasons name the fields its match report does`, async () => {
      const file = (part: string) => fileURLToPath(new URL(`${name}/${part}.jsonl`, datasets));
      const tools = parseToolsJsonl(readFileSync(file('tools'), 'utf8'));
      const queries = parseQueriesJsonl(readFileSync(file('queries'), 'utf8'));
      const index = new ToolIndex(new ToolCatalog(tools));
      const step = Math.max(1, Math.floor(queries.length / 150));
      let hits = 0;
      for (let q = 0; q < queries.length; q += step) {
        for (const hit of await index.search(queries[q]!.query, { explain: true, limit: 5 })) {
          hits += 1;
          const fromReasons = new Set(
            hit.reasons!.filter((reason) => reason.how !== 'phrase').map((reason) => REPORTED[reason.field]),
          );
          const fromReport = new Set(Object.values(hit.matches).flat());
          expect([...fromReasons].sort(), `${queries[q]!.query} → ${hit.id}`).toEqual([...fromReport].sort());
          expect(hit.reasons!.length).toBeGreaterThan(0);
        }
      }
      expect(hits).toBeGreaterThan(100);
    }, 60_000);
  }
});
