import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError, ToolscoutError } from '../errors.js';
import { distinctWords } from '../test-utils/distinct-words.js';
import { HashEmbedder } from '../test-utils/hash-embedder.js';
import { thrown } from '../test-utils/thrown.js';
import type { Embedder, SearchHit, ToolDescriptor } from '../types.js';
import { indexIntegrity } from './index-integrity.js';
import { DEFAULT_MIN_SCORE } from './ranking-params.js';
import { type SerializedToolIndex, TOOL_INDEX_FORMAT_VERSION } from './serialize.js';
import { MAX_INDEXED_CHARS } from './tool-document.js';
import { ToolIndex, type ToolIndexOptions, vectorText } from './tool-index.js';

const TOOLS: ToolDescriptor[] = [
  {
    id: 'weather__get_forecast',
    name: 'get_forecast',
    description: 'Weather forecast for the next days in a city.',
    tags: ['weather'],
    source: 'weather',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Paris' },
        days: { type: 'integer', description: 'How many days ahead' },
      },
    },
  },
  {
    id: 'weather__get_current',
    name: 'get_current',
    description: 'Current temperature, wind and humidity.',
    tags: ['weather'],
    source: 'weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  },
  {
    id: 'mail__send_email',
    name: 'sendEmail',
    description: 'Send an email message to a recipient.',
    tags: ['communication'],
    source: 'mail',
    inputSchema: {
      type: 'object',
      properties: {
        to: { type: 'string', description: 'Recipient address' },
        subject: { type: 'string' },
        attachment: {
          type: 'object',
          properties: { filename: { type: 'string', description: 'Name of the attached file' } },
        },
      },
    },
  },
  {
    id: 'mail__list_inbox',
    name: 'listInbox',
    description: 'List the messages in the inbox.',
    tags: ['communication'],
    source: 'mail',
  },
  {
    id: 'github__create_issue',
    name: 'create_issue',
    description: 'Open a new issue in a repository.',
    source: 'github',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' } } },
  },
  {
    id: 'github__list_pull_requests',
    name: 'list_pull_requests',
    description: 'List pull requests of a repository.',
    source: 'github',
  },
  {
    id: 'finance__convert_currency',
    name: 'convertCurrency',
    description: 'Convert an amount between two currencies at the current exchange rate.',
    tags: ['finance'],
    source: 'finance',
  },
  {
    id: 'finance__stock_quote',
    name: 'getStockQuote',
    description: 'Latest stock price for a ticker symbol.',
    tags: ['finance'],
    source: 'finance',
  },
  { id: 'maps__geocode', name: 'geocode', description: 'Turn a street address into coordinates.', source: 'maps' },
  {
    id: 'maps__geocoder_batch',
    name: 'geocoderBatch',
    description: 'Batch service for many addresses at once.',
    source: 'maps',
  },
  { id: 'cal__calendar_events', name: 'calendarEvents', description: 'Events of a calendar.', source: 'cal' },
  { id: 'cal__calender_sync', name: 'calenderSync', description: 'Synchronise two accounts.', source: 'cal' },
  { id: 'zh__weather', name: '天气预报', description: '查询城市的天气预报', source: 'zh' },
  { id: 'fr__meteo', name: 'météo', description: 'Prévisions météo pour une ville française', source: 'fr' },
];

function catalogOf(tools: ToolDescriptor[] = TOOLS): ToolCatalog {
  return new ToolCatalog(tools);
}

const ids = (hits: SearchHit[]) => hits.map((hit) => hit.id);

/** The error `ToolIndex.fromJSON` throws for a document (it must throw a ToolscoutError). */
const loadError = (catalog: ToolCatalog, input: unknown, options?: ToolIndexOptions): ToolscoutError => {
  const error = thrown(() => ToolIndex.fromJSON(catalog, input as SerializedToolIndex, options));
  expect(ToolscoutError.isInstance(error)).toBe(true);
  return error as ToolscoutError;
};
/** A saved index changed by `edit`, its integrity hash recomputed (or not) afterwards. */
const tampered = (json: SerializedToolIndex, edit: (copy: SerializedToolIndex) => void, rehash = true) => {
  const copy = JSON.parse(JSON.stringify(json)) as SerializedToolIndex;
  edit(copy);
  if (rehash) copy.integrity = indexIntegrity(copy);
  return copy;
};

describe('ToolIndex search', () => {
  it('finds tools by name, description, tags, source and parameters, best first', async () => {
    const index = new ToolIndex(catalogOf());
    expect(ids(await index.search('weather forecast'))[0]).toBe('weather__get_forecast');
    expect(ids(await index.search('send an email'))[0]).toBe('mail__send_email');
    expect(ids(await index.search('exchange rate between currencies'))[0]).toBe('finance__convert_currency');
    expect(ids(await index.search('pull requests'))[0]).toBe('github__list_pull_requests');
    // a nested parameter's description (parameters weigh least: the score is low)
    const [nested] = await index.search('attached file name', { minScore: 0 });
    expect(nested!.id).toBe('mail__send_email');
    expect(nested!.matches.attach).toEqual(['parameters']);
  });

  it('matches identifiers however they are written', async () => {
    const index = new ToolIndex(catalogOf());
    for (const query of ['sendEmail', 'send_email', 'send-email', 'SEND EMAIL', 'mail.send.email']) {
      expect(ids(await index.search(query))[0], query).toBe('mail__send_email');
    }
    expect(ids(await index.search('getStockQuote'))[0]).toBe('finance__stock_quote');
  });

  it('stems and ignores request filler', async () => {
    const index = new ToolIndex(catalogOf());
    const hits = await index.search('Could you please tell me the stock prices?');
    expect(ids(hits)[0]).toBe('finance__stock_quote');
    expect(Object.keys(hits[0]!.matches).sort()).toEqual(['price', 'stock']);
  });

  it('keeps accented and CJK text searchable', async () => {
    const index = new ToolIndex(catalogOf());
    expect(ids(await index.search('天气'))[0]).toBe('zh__weather');
    expect(ids(await index.search('北京天气预报'))[0]).toBe('zh__weather');
    expect(ids(await index.search('meteo'))[0]).toBe('fr__meteo');
    expect(ids(await index.search('MÉTÉO prévisions'))[0]).toBe('fr__meteo');
  });

  it('reports which query terms matched in which fields', async () => {
    const index = new ToolIndex(catalogOf());
    const [hit] = await index.search('forecast in a city', { limit: 1 });
    expect(hit!.id).toBe('weather__get_forecast');
    expect(hit!.matches.forecast).toEqual(expect.arrayContaining(['name', 'description']));
    expect(hit!.matches.citi).toEqual(expect.arrayContaining(['description', 'parameters']));
    const [tagged] = await index.search('communication inbox', { limit: 1 });
    expect(tagged!.matches.commun ?? tagged!.matches.communication).toContain('tags');
  });

  it('ranks prefix and typo matches below exact ones', async () => {
    const index = new ToolIndex(catalogOf());
    // "geocode" is exact for geocode and a prefix of geocoder
    const prefix = await index.search('geocode', { minScore: 0 });
    expect(ids(prefix).slice(0, 2)).toEqual(['maps__geocode', 'maps__geocoder_batch']);
    expect(prefix[0]!.score).toBeGreaterThan(prefix[1]!.score);
    // "calendar" is exact for calendarEvents and one typo away from calenderSync
    const typo = await index.search('calendar', { minScore: 0 });
    expect(ids(typo).slice(0, 2)).toEqual(['cal__calendar_events', 'cal__calender_sync']);
    expect(typo[0]!.score).toBeGreaterThan(typo[1]!.score);
    // a misspelt query still finds the tool
    expect(ids(await index.search('wether forcast'))[0]).toBe('weather__get_forecast');
  });

  it('sorts hits by score and honours limit and minScore', async () => {
    const index = new ToolIndex(catalogOf());
    const hits = await index.search('list', { limit: 20, minScore: 0 });
    expect(hits.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(await index.search('list', { limit: 1 })).toHaveLength(1);
    expect(await index.search('list', { limit: 0 })).toEqual([]);
    const strict = await index.search('list', { limit: 20, minScore: 0.99 });
    expect(strict.every((hit) => hit.score >= 0.99)).toBe(true);
    await expect(index.search('list', { minScore: 2 })).rejects.toThrow(InvalidOptionError);
    await expect(index.search('list', { limit: -1 })).rejects.toThrow(InvalidOptionError);
    expect(() => new ToolIndex(catalogOf(), { minScore: -0.5 })).toThrow(InvalidOptionError);
  });
});

describe('ToolIndex scores', () => {
  it('stay in [0, 1] and do not depend on the other hits', async () => {
    const index = new ToolIndex(catalogOf());
    for (const query of ['weather', 'send email to a recipient', 'list', 'convert currency exchange rate amount']) {
      for (const hit of await index.search(query, { minScore: 0, limit: 50 })) {
        expect(hit.score).toBeGreaterThan(0);
        expect(hit.score).toBeLessThanOrEqual(1);
      }
    }
    // the same tool scores the same whether or not a better tool is in the catalog
    const withoutBest = new ToolIndex(catalogOf(TOOLS.filter((tool) => tool.id !== 'weather__get_forecast')));
    const a = (await new ToolIndex(catalogOf()).search('current weather', { limit: 5 })).find(
      (hit) => hit.id === 'weather__get_current',
    );
    const b = (await withoutBest.search('current weather', { limit: 5 })).find(
      (hit) => hit.id === 'weather__get_current',
    );
    expect(a).toBeDefined();
    expect(b!.score).toBeCloseTo(a!.score, 1);
  });

  it('are absolute: a tool scores alike in a small and in a large catalog', async () => {
    // 2,000 unrelated tools built from a vocabulary disjoint from the queries
    const nouns = ['invoice', 'ticket', 'shipment', 'patient', 'vehicle', 'playlist', 'recipe', 'lesson', 'sensor'];
    const verbs = ['archive', 'approve', 'audit', 'schedule', 'render', 'rotate', 'index', 'merge'];
    const filler: ToolDescriptor[] = [];
    for (let i = 0; i < 2000; i++) {
      const verb = verbs[i % verbs.length]!;
      const noun = nouns[Math.floor(i / verbs.length) % nouns.length]!;
      filler.push({
        id: `filler__${verb}_${noun}_${i}`,
        name: `${verb}_${noun}`,
        description: `${verb} a ${noun} record number ${i} in the back office`,
        source: `filler${i % 200}`,
      });
    }
    const small = new ToolIndex(catalogOf());
    const large = new ToolIndex(catalogOf([...TOOLS, ...filler]));
    for (const [query, id] of [
      ['weather forecast', 'weather__get_forecast'],
      ['send an email', 'mail__send_email'],
      ['convert currency', 'finance__convert_currency'],
      ['open a new issue', 'github__create_issue'],
    ] as const) {
      const inSmall = (await small.search(query, { limit: 1 }))[0]!;
      const inLarge = (await large.search(query, { limit: 1 }))[0]!;
      expect(inSmall.id, query).toBe(id);
      expect(inLarge.id, query).toBe(id);
      expect(Math.abs(inSmall.score - inLarge.score), query).toBeLessThan(0.15);
      expect(inSmall.score, query).toBeGreaterThan(0.5);
    }
  });

  it('give nothing for nonsense or stop words only', async () => {
    const index = new ToolIndex(catalogOf());
    for (const query of ['xyzzy quux', 'qwertyuiop asdfghjkl', 'blorptastic frobnication', '', '   ', '?!']) {
      expect(await index.search(query), query).toEqual([]);
    }
    expect(await index.search('Can you please tell me what I want?', { minScore: 0 })).toEqual([]);
    expect(await index.search('the and of to a', { minScore: 0 })).toEqual([]);
  });

  it('uses DEFAULT_MIN_SCORE unless told otherwise', async () => {
    const index = new ToolIndex(catalogOf());
    const all = await index.search('list repository', { minScore: 0, limit: 50 });
    const kept = await index.search('list repository', { limit: 50 });
    expect(kept).toEqual(all.filter((hit) => hit.score >= DEFAULT_MIN_SCORE));
    const lenient = new ToolIndex(catalogOf(), { minScore: 0 });
    expect(await lenient.search('list repository', { limit: 50 })).toEqual(all);
    expect(await index.search('list repository', { limit: 50, minScore: undefined })).toEqual(kept);
  });
});

describe('ToolIndex filter', () => {
  it('asks the filter only as often as needed to fill the limit', async () => {
    const index = new ToolIndex(catalogOf());
    const query = 'list weather email issue currency stock geocode calendar';
    const unfiltered = ids(await index.search(query, { limit: 50, minScore: 0 }));
    expect(unfiltered.length).toBeGreaterThan(8);
    const asked: string[] = [];
    // rejects every other candidate, asynchronously
    const hits = await index.search(query, {
      limit: 3,
      minScore: 0,
      filter: async (id) => {
        asked.push(id);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return unfiltered.indexOf(id) % 2 === 1;
      },
    });
    expect(ids(hits)).toEqual([unfiltered[1], unfiltered[3], unfiltered[5]]);
    // exactly the candidates down to the last one kept, each once, in ranking order
    expect(asked).toEqual(unfiltered.slice(0, 6));
  });

  it('is not asked at all beyond the ranking, and lower-ranked tools fill the places', async () => {
    const index = new ToolIndex(catalogOf());
    let calls = 0;
    const hits = await index.search('weather', {
      limit: 10,
      filter: (id) => {
        calls += 1;
        return id !== 'weather__get_forecast';
      },
    });
    expect(ids(hits)).not.toContain('weather__get_forecast');
    expect(ids(hits)).toContain('weather__get_current');
    const unfiltered = await index.search('weather', { limit: 10 });
    expect(calls).toBe(unfiltered.length);
    let none = 0;
    await index.search('xyzzy', {
      filter: () => {
        none += 1;
        return true;
      },
    });
    expect(none).toBe(0);
  });
});

describe('ToolIndex incremental updates', () => {
  it('follows adds, removes and replaces without a rebuild, ranking as a fresh index would', async () => {
    const catalog = catalogOf();
    const index = new ToolIndex(catalog);
    expect(await index.search('translate text')).toEqual([]);

    catalog.add({ id: 'lang__translate', name: 'translate', description: 'Translate text between languages.' });
    expect(ids(await index.search('translate text'))).toEqual(['lang__translate']);
    expect(index.size).toBe(TOOLS.length + 1);

    catalog.remove('weather__get_forecast');
    expect(ids(await index.search('forecast', { minScore: 0 }))).not.toContain('weather__get_forecast');

    catalog.replace({ id: 'finance__stock_quote', name: 'getCryptoPrice', description: 'Price of a coin.' });
    expect(ids(await index.search('ticker symbol', { minScore: 0 }))).not.toContain('finance__stock_quote');
    expect(ids(await index.search('crypto coin'))[0]).toBe('finance__stock_quote');

    catalog.upsert({ id: 'lang__translate', name: 'translate', description: 'Translate documents.' });
    expect(ids(await index.search('translate documents'))[0]).toBe('lang__translate');

    const fresh = new ToolIndex(new ToolCatalog(catalog.list()));
    for (const query of ['weather forecast city', 'price', 'translate', 'list messages', 'github issue']) {
      const a = await index.search(query, { minScore: 0, limit: 20 });
      const b = await fresh.search(query, { minScore: 0, limit: 20 });
      expect(ids(a), query).toEqual(ids(b));
      a.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(b[i]!.score, 9);
      });
    }
  });

  it('builds at construction exactly the index that adding the tools one by one gives', () => {
    const tools: ToolDescriptor[] = [
      ...TOOLS,
      // a name over two lines, a tag equal to the source, a repeated word, ids adding words
      {
        id: 'ops__deploy_app',
        name: 'Deploy app\nto production',
        description: 'Deploy deploy the app.',
        tags: ['ops', 'ci'],
        source: 'ops',
      },
      { id: 'x', name: 'YouTube getUserV2', description: "It's the user's video.\nSecond line here." },
      // a name of function words only: its phrase line is empty
      { id: 'the', name: 'The', description: 'Forecast weather by city.' },
      {
        id: 'ns__same',
        name: 'same same',
        description: '',
        inputSchema: {
          type: 'object',
          properties: { a_b: { type: 'string', title: 'Alpha beta', description: 'alpha\nbeta' } },
        },
      },
    ];
    const built = new ToolIndex(new ToolCatalog(tools));
    const catalog = new ToolCatalog();
    const incremental = new ToolIndex(catalog);
    for (const tool of tools) catalog.add(tool);
    expect(incremental.toJSON()).toEqual(built.toJSON());
    // an empty first line is still a line: the separator comes first, and no term is made up
    const saved = built.toJSON();
    const doc = saved.keyword.documents.find(([, id]) => id === 'the')![0];
    const lines = saved.phrases.documents.find(([number]) => number === doc)![2];
    expect(lines[0]).toBe(-1);
    expect(lines.slice(1).map((position) => saved.keyword.terms[position]![0])).toEqual([
      'forecast',
      'weather',
      'citi',
    ]);
  });

  it('stops following the catalog once disposed', async () => {
    const catalog = catalogOf();
    const index = new ToolIndex(catalog);
    index.dispose();
    index.dispose();
    catalog.add({ id: 'lang__translate', name: 'translate', description: 'Translate text.' });
    expect(await index.search('translate')).toEqual([]);
    expect(ids(await index.search('sendEmail'))[0]).toBe('mail__send_email');
    // it may no longer hold what the catalog does: saving it would record the wrong tools
    expect(() => index.toJSON()).toThrow(expect.objectContaining({ code: 'index-disposed' }));
  });
});

describe('ToolIndex serialisation', () => {
  const queries = ['weather forecast', 'send email', 'list', '天气', 'calandar', 'getStockQuote', 'geocode address'];

  it('round-trips through JSON with identical results, then follows the catalog', async () => {
    const catalog = catalogOf();
    const original = new ToolIndex(catalog);
    catalog.remove('mail__list_inbox'); // a discarded document in the saved index
    catalog.add({ id: 'lang__translate', name: 'translate', description: 'Translate text.' });
    const json = JSON.stringify(original.toJSON());
    expect(JSON.parse(json).format).toBe('toolscout-tool-index');
    expect(JSON.parse(json).version).toBe(TOOL_INDEX_FORMAT_VERSION);

    const fromString = ToolIndex.fromJSON(catalog, json);
    const fromObject = ToolIndex.fromJSON(catalog, JSON.parse(json) as SerializedToolIndex);
    for (const query of queries) {
      const expected = await original.search(query, { minScore: 0, limit: 20 });
      expect(await fromString.search(query, { minScore: 0, limit: 20 }), query).toEqual(expected);
      expect(await fromObject.search(query, { minScore: 0, limit: 20 }), query).toEqual(expected);
    }
    original.dispose();
    catalog.add({ id: 'lang__summarize', name: 'summarize', description: 'Summarize a long text.' });
    expect(ids(await fromString.search('summarize'))).toEqual(['lang__summarize']);
  });

  it('rejects a document that is not a saved index, or of another version', () => {
    const catalog = catalogOf();
    const json = new ToolIndex(catalog).toJSON();
    const codeOf = (input: unknown) => loadError(catalog, input).code;
    expect(codeOf('{not json')).toBe('invalid-index');
    expect(codeOf({ hello: 'world' })).toBe('invalid-index');
    expect(codeOf(null)).toBe('invalid-index');
    expect(codeOf({ ...json, version: 99 })).toBe('invalid-index');
    expect(codeOf({ ...json, keyword: undefined })).toBe('invalid-index');
    expect(codeOf({ ...json, keyword: { nonsense: true } })).toBe('invalid-index');
  });

  it('refuses impossible numbers and ids with a specific message, even under a recomputed hash', () => {
    const catalog = catalogOf();
    const json = new ToolIndex(catalog).toJSON();
    const weather = () => json.keyword.terms.findIndex(([term]) => term === 'weather');
    const cases: [string, (copy: SerializedToolIndex) => void, RegExp][] = [
      [
        'a negative term frequency',
        (copy) => {
          copy.keyword.terms[weather()]![1][0]![2][0] = -1;
        },
        /frequency -1 in document \d+ is not a positive integer/,
      ],
      [
        'a zero average field length',
        (copy) => {
          copy.keyword.averages[1] = 0;
        },
        /average length of field 1 is 0, not the mean/,
      ],
      [
        'a document number out of order',
        (copy) => {
          copy.keyword.documents[1]![0] = 5;
        },
        /document entry 1 has number 5, expected 1/,
      ],
      [
        'a posting of no document',
        (copy) => {
          copy.keyword.terms[weather()]![1][0]![1][0] = 99;
        },
        /postings of "weather": .*document 99 is not a document number/,
      ],
      [
        'a wrong count of pairs',
        (copy) => {
          copy.phrases.documents[0]![1] += 1;
        },
        /document 0 has \d+ pairs written, its lines have \d+/,
      ],
      [
        'a line term out of range',
        (copy) => {
          copy.phrases.documents[0]![2][0] = 1e9;
        },
        /term 1000000000 of document 0 is not a term position/,
      ],
      [
        'a phrase average of NaN',
        (copy) => {
          copy.phrases.average = Number.NaN;
        },
        /average is not a number/,
      ],
    ];
    for (const [what, edit, message] of cases) {
      const error = loadError(catalog, tampered(json, edit));
      expect(error.code, what).toBe('invalid-index');
      expect(error.message, what).toMatch(message);
      expect(error.message, what).toMatch(/Rebuild the index/);
    }
  });

  it('refuses a tampered index that is still well-formed: its integrity check fails', async () => {
    const catalog = catalogOf();
    const original = new ToolIndex(catalog);
    const json = original.toJSON();
    // Two tools' ids swapped: every number is as plausible as before.
    const swapped = tampered(
      json,
      (copy) => {
        const [a, b] = [copy.keyword.documents[0]!, copy.keyword.documents[1]!];
        [a[1], b[1]] = [b[1], a[1]];
      },
      false,
    );
    expect(ToolIndex.fromJSON(catalog, json)).toBeInstanceOf(ToolIndex); // (the untouched one loads)
    for (const copy of [
      swapped,
      tampered(
        json,
        (copy) => {
          copy.keyword.terms[0]![1][0]![2][0]! += 1;
        },
        false,
      ),
      tampered(
        json,
        (copy) => {
          copy.keyword.averages[0]! *= 1 + 1e-9;
        },
        false,
      ),
      tampered(json, (copy) => copy.keyword.terms.reverse(), false),
    ]) {
      const error = loadError(catalog, copy);
      expect(error.code).toBe('invalid-index');
      expect(error.message).toMatch(/failed its integrity check/);
    }
    // The order of the tools' keys is not content (a store may sort an object's keys).
    const sorted = { ...json, tools: Object.fromEntries(Object.entries(json.tools).reverse()) };
    const loaded = ToolIndex.fromJSON(catalog, JSON.stringify(sorted));
    expect(await loaded.search('weather forecast')).toEqual(await original.search('weather forecast'));
  });

  it('says what is wrong with the version of a saved index', () => {
    const catalog = catalogOf();
    const json = new ToolIndex(catalog).toJSON();
    const messageOf = (version: unknown) => loadError(catalog, { ...json, version }).message;
    expect(messageOf('3')).toMatch(/"version" is the string "3", where a positive integer is expected/);
    expect(messageOf(3)).toMatch(
      /format version 3, written by an older toolscout; this toolscout reads format version 4/,
    );
    expect(messageOf(99)).toMatch(/written by a newer toolscout/);
    expect(messageOf(undefined)).toMatch(/has no "version"/);
    expect(messageOf(null)).toMatch(/"version" is null/);
    for (const version of ['3', 3, 99, undefined, null]) expect(messageOf(version)).toMatch(/Rebuild the index/);
  });

  it('rejects a saved index that does not match the catalog', () => {
    const json = new ToolIndex(catalogOf()).toJSON();
    const messageOf = (catalog: ToolCatalog) => {
      const error = loadError(catalog, json);
      expect(error.code).toBe('index-mismatch');
      return error.message;
    };
    expect(messageOf(catalogOf([...TOOLS, { id: 'extra', description: 'An extra tool.' }]))).toContain('"extra"');
    expect(messageOf(catalogOf(TOOLS.slice(1)))).toContain('weather__get_forecast');
    const changed = TOOLS.map((tool) => (tool.id === 'maps__geocode' ? { ...tool, description: 'Changed.' } : tool));
    expect(messageOf(catalogOf(changed))).toContain('maps__geocode');
  });
});

describe('ToolIndex long requests', () => {
  it('scores a request of thousands of sentences in bounded time (the first 31 each, the rest as one)', async () => {
    // Every sentence a clause, every tool a candidate: a slot per clause per tool took half a
    // gigabyte and 6 s here; with 32 clauses at most, the time goes to tokenising.
    const tools = Array.from({ length: 5_000 }, (_, i) => ({ id: `tool_${i}`, description: `Alpha service ${i}.` }));
    const index = new ToolIndex(catalogOf(tools));
    const started = performance.now();
    const hits = await index.search(`${'alpha. '.repeat(6_000)}service 42`, { minScore: 0, limit: 3 });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(ids(hits)[0]).toBe('tool_42'); // (the last clause still counts)
  });

  it('answers a request of one very long word, built, loaded and changed: no typo search for it', async () => {
    // (an edit-distance search over a 32,768-unit word took 7 s and 4 GB; over 1,048,576 units it threw)
    const word = (letter: string, length: number, last: string) => `${letter.repeat(length - 1)}${last}`;
    const tools = [
      { id: 'long_64', description: `Has ${word('q', 64, 'z')} in it.` },
      { id: 'long_65', description: `Has ${word('p', 65, 'z')} in it.` },
    ];
    const built = new ToolIndex(catalogOf(tools));
    const loaded = ToolIndex.fromBinary(catalogOf(tools), built.toBinary());
    const catalog = catalogOf(tools);
    const changed = new ToolIndex(catalog);
    await changed.search('warm the lookups up');
    catalog.add({ id: 'other', description: 'Another tool.' });
    for (const index of [built, loaded, changed]) {
      expect(await index.search('x'.repeat(1 << 20))).toEqual([]);
      expect(await index.search('a'.repeat(1 << 15))).toEqual([]);
      // One edit away: found up to 64 units, not past them (where only the exact word is).
      expect(ids(await index.search(word('q', 64, 'y'), { minScore: 0 }))).toEqual(['long_64']);
      expect(ids(await index.search(word('p', 65, 'y'), { minScore: 0 }))).toEqual([]);
      expect(ids(await index.search(word('p', 65, 'z'), { minScore: 0 }))).toEqual(['long_65']);
    }
  });

  it("searches typos of a request's first 256 distinct terms only, whatever was searched before", async () => {
    // (each typo search scans the vocabulary: a 1 MB request of made-up words took 17 s)
    const letters = (n: number) =>
      [...n.toString(26).padStart(2, '0')].map((c) => String.fromCharCode(97 + Number.parseInt(c, 26)));
    const noise = Array.from({ length: 300 }, (_, i) => `qzx${letters(i).join('')}`).join(' ');
    const index = new ToolIndex(
      catalogOf([
        { id: 'forecast_tool', description: 'Weather forecast service.' },
        { id: 'other_tool', description: 'Another tool.' },
      ]),
    );
    const search = async (query: string) => ids(await index.search(query, { minScore: 0 }));
    expect(await search('forecazt')).toEqual(['forecast_tool']); // (its typo match now cached)
    expect(await search(`${noise} forecazt`)).toEqual([]);
    expect(await search(`forecazt ${noise}`)).toEqual(['forecast_tool']);
    const [hit] = await index.search(`${noise} forecazt weather`, { minScore: 0, explain: true });
    expect(hit?.id).toBe('forecast_tool');
    expect(hit?.reasons?.map((reason) => `${reason.query}:${reason.how}`)).toEqual(['weather:exact']);
  });
});

describe('ToolIndex text budget', () => {
  /** The terms a saved index holds. */
  const vocabulary = (index: ToolIndex) => new Set(index.toJSON().keyword.terms.map(([term]) => term));
  /** Of words joined by spaces, the last one the budget keeps whole and the first one it drops. */
  const edge = (words: readonly string[], budget = MAX_INDEXED_CHARS) => {
    const kept =
      words
        .join(' ')
        .slice(0, budget + 1)
        .split(' ').length - 1;
    return { inside: words[kept - 1]!, outside: words[kept]! };
  };

  it('indexes a tool with a 160,000-word description in linear time, up to the budget', async () => {
    const words = distinctWords(160_000);
    const description = words.join(' ');
    const catalog = catalogOf();
    const index = new ToolIndex(catalog);
    const started = performance.now();
    catalog.add({ id: 'huge', name: 'huge', description });
    expect(performance.now() - started).toBeLessThan(5_000); // it took 33 s
    // The catalog serves the whole text; the index holds its words up to the budget.
    expect(catalog.get('huge')!.description).toBe(description);
    const { inside, outside } = edge(words);
    const terms = vocabulary(index);
    expect(terms.has(inside)).toBe(true);
    expect(terms.has(outside)).toBe(false);
    expect(ids(await index.search(`${words[0]} ${inside}`))).toEqual(['huge']);
  });

  it('reads at most the budget of each part of a tool, in a build as in an update', () => {
    const name = distinctWords(6_000, 1_000_000);
    const id = distinctWords(6_000, 2_000_000);
    const tags = distinctWords(6_000, 3_000_000);
    const parameter = distinctWords(6_000, 4_000_000);
    const tool: ToolDescriptor = {
      id: id.join('_'),
      name: name.join(' '),
      tags,
      inputSchema: { type: 'object', properties: { q: { type: 'string', description: parameter.join(' ') } } },
    };
    // Tags are strings of their own (all of one length here), the budget shared.
    const tagsKept = Math.floor(MAX_INDEXED_CHARS / tags[0]!.length);
    const expected = (terms: Set<string>) => {
      for (const [words, separator, budget] of [
        [name, ' ', MAX_INDEXED_CHARS],
        [id, '_', MAX_INDEXED_CHARS],
        [parameter, ' ', MAX_INDEXED_CHARS - 1], // after the parameter's name, `q`
      ] as const) {
        const kept =
          words
            .join(separator)
            .slice(0, budget + 1)
            .split(separator).length - 1;
        expect(terms.has(words[kept - 1]!)).toBe(true);
        expect(terms.has(words[kept]!)).toBe(false);
      }
      expect(terms.has(tags[tagsKept - 1]!)).toBe(true);
      expect(terms.has(tags[tagsKept]!)).toBe(false);
    };
    const built = new ToolIndex(catalogOf([tool]));
    expected(vocabulary(built));
    const catalog = catalogOf([]);
    const updated = new ToolIndex(catalog);
    catalog.add(tool);
    expected(vocabulary(updated));
    expect(catalog.get(tool.id)!.name).toBe(tool.name);
  });
});

/** Maps a few synonyms onto one word before hashing: a stand-in for a model that knows meanings. */
class SynonymEmbedder implements Embedder {
  readonly id = 'synonym-hash';
  readonly inner = new HashEmbedder({ dimensions: 128 });
  readonly embedded: string[] = [];
  async embed(texts: string[]): Promise<number[][]> {
    this.embedded.push(...texts);
    return texts.map((text) => this.inner.vector(text.toLowerCase().replace(/\b(?:automobile|vehicle)\b/g, 'car')));
  }
}

describe('ToolIndex hybrid search', () => {
  const carTool: ToolDescriptor = { id: 'cars__rent', name: 'rent_car', description: 'Rent a car', source: 'cars' };

  it('needs no embedder by default', async () => {
    const index = new ToolIndex(catalogOf());
    expect(index.toJSON().vector).toBeUndefined();
  });

  it('fuses keyword hits with the nearest tools by meaning, and follows the catalog', async () => {
    const embedder = new SynonymEmbedder();
    const catalog = catalogOf([...TOOLS, carTool]);
    const options = { embedder, fusion: { minSimilarity: 0.2, maxSimilarity: 0.6 } };
    const index = new ToolIndex(catalog, options);
    expect(await new ToolIndex(catalog).search('automobile')).toEqual([]);
    const hits = await index.search('automobile');
    expect(ids(hits)[0]).toBe('cars__rent');
    expect(hits[0]!.matches).toEqual({});
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    // keyword matches keep their keyword evidence
    const keyword = await index.search('weather forecast');
    expect(ids(keyword)[0]).toBe('weather__get_forecast');
    expect(Object.keys(keyword[0]!.matches)).toContain('forecast');

    expect(vectorText({ name: 'kusto_clusterList', description: 'Lists clusters. Needs a subscription.' })).toBe(
      'kusto cluster List\nLists clusters.',
    );
    expect(embedder.embedded).toContain(vectorText(catalog.get('cars__rent')!));
    catalog.remove('cars__rent');
    expect(ids(await index.search('automobile'))).not.toContain('cars__rent');

    // saved and loaded with its vectors: nothing is embedded again
    const before = embedder.embedded.length;
    const restored = ToolIndex.fromJSON(catalog, JSON.stringify(index.toJSON()), options);
    expect(await restored.search('weather forecast')).toEqual(await index.search('weather forecast'));
    // only the query, by the restored index (the first one has it from its earlier search)
    expect(embedder.embedded.length - before).toBe(1);
  });

  it('flush() embeds every tool before any search, so a saved index holds all the vectors', async () => {
    const embedder = new SynonymEmbedder();
    const catalog = catalogOf([...TOOLS, carTool]);
    const index = new ToolIndex(catalog, { embedder });
    expect(index.toJSON().vector!.pending).toHaveLength(catalog.size);
    await index.flush();
    const saved = index.toJSON().vector!;
    expect(saved.pending).toEqual([]);
    expect(saved.entries.map((entry) => entry.id).sort()).toEqual(
      catalog
        .list()
        .map((tool) => tool.id)
        .sort(),
    );
    expect(embedder.embedded).toHaveLength(catalog.size);
    await new ToolIndex(catalog).flush(); // keyword-only: nothing to do
  });

  it('refuses a saved vector section that was changed, or that cannot be used', async () => {
    const options = { embedder: new SynonymEmbedder() };
    const catalog = catalogOf([...TOOLS, carTool]);
    const index = new ToolIndex(catalog, options);
    await index.search('automobile'); // (every tool embedded)
    const json = index.toJSON();
    const entry = json.vector!.entries.findIndex((item) => item.id === 'cars__rent');
    // Another tool's vector in its place: the integrity check fails.
    const moved = tampered(
      json,
      (copy) => {
        copy.vector!.entries[entry]!.vector = copy.vector!.entries[0]!.vector;
      },
      false,
    );
    expect(loadError(catalog, moved, options).message).toMatch(/failed its integrity check/);
    // With the hash recomputed: a tool the index does not list, a malformed section, another embedder.
    const cases: [(copy: SerializedToolIndex) => void, RegExp][] = [
      [
        (copy) => {
          copy.vector!.entries[entry]!.id = 'ghost';
        },
        /vector section has tool "ghost", which it does not list/,
      ],
      [
        (copy) => {
          copy.vector!.dimensions = 2 ** 40;
        },
        /vector section has 1099511627776 dimensions, its vectors 128/,
      ],
      [
        (copy) => {
          copy.vector!.embedderId = 'another-model';
        },
        /vector section cannot be used \(.*embedder "another-model"/,
      ],
    ];
    for (const [edit, message] of cases) {
      const error = loadError(catalog, tampered(json, edit), options);
      expect(error.code).toBe('invalid-index');
      expect(error.message).toMatch(message);
    }
  });
});

describe('exact names', () => {
  it('ranks the tool a query names exactly first, even against a text full of the query words', async () => {
    const catalog = new ToolCatalog([
      { id: 'get_weather', description: 'Get the current weather for a city.' },
      {
        id: 'get_weather_forecast',
        description: 'Get the weather forecast: weather for the next days, weather alerts, get weather trends.',
      },
    ]);
    const index = new ToolIndex(catalog);
    expect((await index.search('get_weather', { limit: 1 }))[0]?.id).toBe('get_weather');
    expect((await index.search('GET_WEATHER_FORECAST', { limit: 1 }))[0]?.id).toBe('get_weather_forecast');
    expect((await index.search('get_weather', { limit: 2 })).map((hit) => hit.id)).toEqual([
      'get_weather',
      'get_weather_forecast',
    ]);
  });
});

describe('ToolIndex ranking settings', () => {
  const stargazer = () =>
    new ToolCatalog([
      { id: 'stargazer', description: 'Shows the night sky over a city.', tags: ['astronomy'] },
      { id: 'forecast', description: 'Weather forecast for a city.' },
    ]);

  it('switches a field off with a weight of 0: a tool matching only by tag is not found', async () => {
    const on = new ToolIndex(stargazer(), { ranking: { fieldWeights: { tags: 1 } } });
    expect(ids(await on.search('astronomy'))).toEqual(['stargazer']);
    const off = new ToolIndex(stargazer(), { ranking: { fieldWeights: { tags: 0 } } });
    expect(await off.search('astronomy', { minScore: 0 })).toEqual([]);
    expect(ids(await off.search('night sky'))).toEqual(['stargazer']); // (its other fields still count)
  });

  it('scores in [0, 1] with names switched off', async () => {
    const index = new ToolIndex(stargazer(), { ranking: { fieldWeights: { name: 0 } } });
    const [hit] = await index.search('night sky');
    expect(hit?.id).toBe('stargazer');
    expect(hit!.score).toBeGreaterThan(0);
    expect(hit!.score).toBeLessThan(1);
  });

  it('keeps the default of a setting given as undefined', async () => {
    const plain = new ToolIndex(stargazer());
    const given = new ToolIndex(stargazer(), { ranking: { k1: undefined, fieldWeights: { tags: undefined } } });
    expect(await given.search('astronomy city')).toEqual(await plain.search('astronomy city'));
  });

  it('refuses a negative, non-finite or unknown setting by its name', () => {
    const cases: [ToolIndexOptions['ranking'], string][] = [
      [{ k1: -1 }, 'ranking.k1'],
      [{ coordination: Number.NaN }, 'ranking.coordination'],
      [{ fieldWeights: { tags: Number.POSITIVE_INFINITY } }, 'ranking.fieldWeights.tags'],
      [{ fieldWeights: { title: 1 } as never }, 'ranking.fieldWeights.title'],
      [{ boost: 1 } as never, 'ranking.boost'],
    ];
    for (const [ranking, option] of cases) {
      const error = thrown(() => new ToolIndex(stargazer(), { ranking }));
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
      expect((error as Error).message).toContain(option);
    }
  });
});

describe('ToolIndex.fromJSON hands what it loaded to its own index only', () => {
  it('an index constructed while another loads (from its options) indexes its own catalog', async () => {
    const saved = new ToolIndex(catalogOf()).toJSON();
    const other = new ToolCatalog([{ id: 'stargazer', description: 'Shows the night sky over a city.' }]);
    let inner: ToolIndex | undefined;
    const options = {
      get minScore() {
        inner ??= new ToolIndex(other);
        return DEFAULT_MIN_SCORE;
      },
    };
    const loaded = ToolIndex.fromJSON(catalogOf(), saved, options);
    expect(inner?.size).toBe(1);
    expect(ids(await inner!.search('night sky'))).toEqual(['stargazer']);
    expect(loaded.size).toBe(TOOLS.length);
    expect(loaded.toJSON()).toEqual(saved);
  });

  it('an index constructed from a listener of the loaded catalog indexes its own catalog', async () => {
    const catalog = catalogOf();
    const saved = new ToolIndex(catalog).toJSON();
    const loaded = ToolIndex.fromJSON(catalog, saved);
    const other = new ToolCatalog([{ id: 'stargazer', description: 'Shows the night sky over a city.' }]);
    let inner: ToolIndex | undefined;
    catalog.subscribe(() => {
      inner ??= new ToolIndex(other);
    });
    catalog.add({ id: 'telescope', description: 'Points the telescope at a star.' });
    expect(inner?.size).toBe(1);
    expect(ids(await loaded.search('telescope star'))).toEqual(['telescope']);
  });
});
