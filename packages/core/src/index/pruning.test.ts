import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import type { SearchHit, SearchOptions, ToolDescriptor } from '../types.js';
import { KthLargest, keptDocs, QueryDocs } from './pruning.js';
import { addTermScores } from './term-sums.js';
import { ToolIndex } from './tool-index.js';

const WORDS = [
  'weather forecast city',
  'send email message recipient',
  'create calendar event meeting',
  'list files folder drive',
  'search web pages results',
  'translate text language',
  'convert currency exchange rate',
  'track package delivery status',
  'get stock price quote',
  'book flight ticket airline',
];

/** 300 tools in 30 sources, each description mixing a topic with words most tools share. */
function catalogTools(): ToolDescriptor[] {
  const tools: ToolDescriptor[] = [];
  for (let i = 0; i < 300; i++) {
    const topic = WORDS[i % WORDS.length]!;
    const other = WORDS[(i * 7 + 3) % WORDS.length]!;
    const words = topic.split(' ');
    tools.push({
      id: `tool_${String(i).padStart(3, '0')}`,
      name: `get_${words[i % words.length]}_${i % 13}`,
      description: `Get ${topic} data. ${i % 3 === 0 ? `Also ${other}.` : 'Returns data as JSON.'}`,
      source: `api_${i % 30}`,
      tags: i % 5 === 0 ? ['data'] : [],
    });
  }
  return tools;
}

/** What a search returns, with the pruning, and without (every tool ranked: no limit, then cut). */
async function bothWays(index: ToolIndex, query: string, options: SearchOptions = {}) {
  const pruned = await index.search(query, options);
  const full = (await index.search(query, { ...options, limit: Number.POSITIVE_INFINITY })).slice(
    0,
    options.limit ?? 10,
  );
  return { pruned, full };
}

const summary = (hits: readonly SearchHit[]) => hits.map((hit) => [hit.id, hit.score, hit.matches]);

describe('search pruning', () => {
  const index = new ToolIndex(new ToolCatalog(catalogTools()));

  it('returns exactly the unpruned top k, scores and matches included, for every limit and minScore', async () => {
    const queries = [
      'get data', // one very common term and another
      'data', // a term most tools have
      'weather forecast for my city',
      'Send an email to Bob. Then create a calendar event. Also track my package.',
      'convert currency; get stock price quote! book a flight?',
      'list the files in my drive and translate the text',
      'xyzzy quux',
    ];
    for (const query of queries) {
      for (const options of [{ limit: 1 }, { limit: 3, minScore: 0 }, { limit: 10 }, { limit: 25, minScore: 0.3 }]) {
        const { pruned, full } = await bothWays(index, query, options);
        expect(summary(pruned), `${query} ${JSON.stringify(options)}`).toEqual(summary(full));
      }
    }
  });

  it('stays exact under other ranking settings (a clause weight above 1, no coordination, a heavy source)', async () => {
    const tools = catalogTools();
    for (const ranking of [
      { clauseWeight: 1.5 },
      { coordination: 0, sourceWeight: 3 },
      { clauseWeight: 1, coordination: 2 },
    ]) {
      const other = new ToolIndex(new ToolCatalog(tools), { ranking });
      for (const query of [
        'Send an email to Bob. Then create a calendar event.',
        'get data; list files! translate text',
      ]) {
        const { pruned, full } = await bothWays(other, query, { limit: 4, minScore: 0 });
        expect(summary(pruned), `${query} ${JSON.stringify(ranking)}`).toEqual(summary(full));
      }
    }
  });

  it('stays exact when the request asks for an action that some tools name (the action boost)', async () => {
    // Half the tools of each topic are named get_*, half list_*: "list ..." boosts the list_ ones by (1 + actionWeight).
    const tools = catalogTools().map((tool, i) =>
      Math.floor(i / 10) % 2 === 0 ? tool : { ...tool, name: tool.name!.replace(/^get_/, 'list_') },
    );
    for (const actionWeight of [0.3, 2]) {
      const other = new ToolIndex(new ToolCatalog(tools), { ranking: { actionWeight } });
      for (const query of ['list weather forecast', 'show me all the files in the drive', 'get stock price']) {
        for (const limit of [1, 3, 10]) {
          const { pruned, full } = await bothWays(other, query, { limit, minScore: 0 });
          expect(summary(pruned), `${query} ${actionWeight} ${limit}`).toEqual(summary(full));
        }
      }
      // The boost is applied: the first hit of a "list" request is a list_ tool.
      const [first] = await other.search('list weather forecast', { limit: 1 });
      expect(tools.find((tool) => tool.id === first?.id)?.name).toMatch(/^list_/);
    }
  });

  it("stays exact when the request's object is the head of some tools' names (the object-head boost)", async () => {
    // Tool names are get_<topic word>_<n>: "the city forecast" boosts the forecast term of the get_forecast_* tools.
    const tools = catalogTools();
    for (const headWeight of [0.5, 3]) {
      const other = new ToolIndex(new ToolCatalog(tools), { ranking: { headWeight } });
      for (const query of ['show me the city forecast', 'list the files in my drive', 'get the stock price quote']) {
        for (const limit of [1, 3, 10]) {
          const { pruned, full } = await bothWays(other, query, { limit, minScore: 0 });
          expect(summary(pruned), `${query} ${headWeight} ${limit}`).toEqual(summary(full));
        }
      }
      // The boost is applied: the three best are get_forecast_* tools (without it, a get_city_* tool ties with them).
      const best = await other.search('show me the city forecast', { limit: 3 });
      for (const hit of best) expect(tools.find((tool) => tool.id === hit.id)?.name).toMatch(/^get_forecast_/);
    }
  });

  it('with a filter, ranks past the pruned depth in full when the filter refuses too many', async () => {
    for (const [name, allow] of [
      ['all', () => true],
      ['every 7th', (id: string) => Number(id.slice(5)) % 7 === 0],
      ['one', (id: string) => id === 'tool_299'],
      ['none', () => false],
    ] as const) {
      for (const query of ['get data', 'Send an email to Bob. Then create a calendar event.', 'weather forecast']) {
        const { pruned, full } = await bothWays(index, query, { limit: 3, minScore: 0, filter: allow });
        expect(summary(pruned), `${query} (${name})`).toEqual(summary(full));
      }
    }
  });

  it('returns the unpruned top k for every limit from 1 to 25, whether a query touches few tools or most', async () => {
    // 800 tools in 40 sources: every description has a common word, a topic word (one tool in 20)
    // and a rare word (one tool in 400), so queries touch from two tools to all of them.
    const tools = Array.from({ length: 800 }, (_, i) => ({
      id: `t${String(i).padStart(4, '0')}`,
      name: `tool_${['get', 'list', 'create'][i % 3]}_${i % 97}`,
      description: `Common service entry for topic${i % 20} items. Handles rare${i % 400} records ${i % 7 === 0 ? 'in bulk' : 'one by one'}.`,
      source: `api_${i % 40}`,
    }));
    const big = new ToolIndex(new ToolCatalog(tools));
    const queries = [
      'service', // one term every tool has
      'rare17', // two tools
      'topic3 rare123', // 40 tools, one of them with both
      'list the topic5 items in bulk. Then get rare250 records; create a common service entry',
    ];
    for (const query of queries) {
      for (const minScore of [undefined, 0]) {
        const options = minScore === undefined ? {} : { minScore };
        const full = await big.search(query, { ...options, limit: Number.POSITIVE_INFINITY });
        for (let limit = 1; limit <= 25; limit++) {
          const pruned = await big.search(query, { ...options, limit });
          expect(summary(pruned), `${query} (limit ${limit}, minScore ${minScore})`).toEqual(
            summary(full.slice(0, limit)),
          );
        }
      }
    }
  });

  it('breaks ties at the k-th score by id, as the full ranking does', async () => {
    // 40 tools with the same text: every one has the same evidence, so the limit cuts a tie.
    const same = Array.from({ length: 40 }, (_, i) => ({
      id: `same_${String(39 - i).padStart(2, '0')}`,
      description: 'Resize an image.',
    }));
    const ties = new ToolIndex(new ToolCatalog([...same, { id: 'other', description: 'Resize a video.' }]));
    const { pruned, full } = await bothWays(ties, 'resize image', { limit: 5, minScore: 0 });
    expect(pruned.map((hit) => hit.id)).toEqual(['same_00', 'same_01', 'same_02', 'same_03', 'same_04']);
    expect(summary(pruned)).toEqual(summary(full));
  });

  it('keeps the tool a query names, even when its evidence is below the limit', async () => {
    const tools = [
      ...Array.from({ length: 30 }, (_, i) => ({ id: `data_${i}`, description: 'Data. Data of data.' })),
      { id: 'data', name: 'misc_helper_tool', description: 'Reads a data file.' },
    ];
    const named = new ToolIndex(new ToolCatalog(tools));
    const { pruned, full } = await bothWays(named, 'data', { limit: 1, minScore: 0 });
    expect(pruned[0]?.id).toBe('data');
    expect((await named.search('data data', { limit: 1, minScore: 0 }))[0]?.id).not.toBe('data'); // (weaker evidence)
    expect(summary(pruned)).toEqual(summary(full));
  });
});

/**
 * Adds one query term's scores (`score` by document) of the `touched` documents as a search does,
 * logged for the clause sums when the query has several clauses.
 */
function addTerm(docs: QueryDocs, touched: readonly number[], score: (doc: number) => number, clauses = false): void {
  const term = { docs: Int32Array.from(touched), scores: Float64Array.from(touched, score) };
  addTermScores(docs, term, clauses, undefined);
}

describe('keptDocs', () => {
  /** Accumulators of a search (of one clause, or of several) over the given per-document term scores. */
  function accumulated(scores: number[][], clauses = false): QueryDocs {
    const docs = new QueryDocs();
    docs.begin(scores.length);
    for (let t = 0; t < scores[0]!.length; t++) {
      const touched = scores.flatMap((row, doc) => (row[t]! > 0 ? [doc] : []));
      addTerm(docs, touched, (doc) => scores[doc]![t]!, clauses);
    }
    return docs;
  }
  const powers = Float64Array.from([0, 1, Math.SQRT2, Math.sqrt(3)]);
  const noSources = { ofDoc: undefined, factor: new Float64Array(0), total: new Float64Array(0) };

  it('keeps exactly the k best of a one-clause query (the bound is tight), and ties with the k-th', () => {
    const docs = accumulated([
      [1, 1],
      [3, 0],
      [0, 2],
      [1, 1],
      [0.5, 0],
    ]);
    // evidence: 2√2 ≈ 2.83, 3, 2, 2.83, 0.5
    expect([...keptDocs(docs, 1, -1, powers, 0.6, false, noSources)]).toEqual([1]);
    expect([...keptDocs(docs, 2, -1, powers, 0.6, false, noSources)].sort()).toEqual([0, 1, 3]);
    expect([...keptDocs(docs, 2, 4, powers, 0.6, false, noSources)].sort()).toEqual([0, 1, 3, 4]);
    expect([...keptDocs(docs, 5, -1, powers, 0.6, false, noSources)]).toHaveLength(5);
  });

  it('keeps, with clauses, every tool whose upper bound reaches the k-th lower bound', () => {
    const docs = accumulated(
      [
        [2, 2],
        [3, 0],
        [0, 1],
      ],
      true,
    );
    // whole: 4√2 ≈ 5.66, 3, 1; lower (0.4 whole + 0.6 top): 3.46, 3, 1; upper: the whole.
    expect([...keptDocs(docs, 1, -1, powers, 0.6, true, noSources)]).toEqual([0]);
    expect([...keptDocs(docs, 2, -1, powers, 0.6, true, noSources)]).toEqual([0, 1]);
  });

  it('counts what the rest of a source matches in both bounds', () => {
    const docs = accumulated([
      [4, 0],
      [0, 1],
      [0, 2.5],
    ]);
    // documents 0 and 1 share source 0 (total 4 + 1 = 5, factor 0.5): document 1 gets
    // 1 + 0.5 × (5 - 1) = 3 and passes document 2 (2.5), which it would not without its source.
    const sources = { ofDoc: [0, 0, 1], factor: Float64Array.from([0.5, 0]), total: Float64Array.from([5, 2.5]) };
    expect([...keptDocs(docs, 2, -1, powers, 0.6, false, sources)]).toEqual([0, 1]);
    expect([...keptDocs(docs, 2, -1, powers, 0.6, false, noSources)]).toEqual([0, 2]);
  });
});

describe('keptDocs in either order', () => {
  /** A seeded generator of numbers in [0, 1). */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
  }
  const powers = Float64Array.from({ length: 6 }, (_, m) => Math.sqrt(m));
  const noSources = { ofDoc: undefined, factor: new Float64Array(0), total: new Float64Array(0) };

  it('keeps the tools whose evidence reaches the k-th, touched few (in the order touched) or many (in document order)', () => {
    for (const [size, touchedCount] of [
      [10_000, 40], // few: bounds made in the order touched
      [200, 150], // most: bounds made in document order
    ] as const) {
      const next = random(size);
      const docs = new QueryDocs();
      docs.begin(size);
      const touched = new Set<number>();
      while (touched.size < touchedCount) touched.add(Math.floor(next() * size));
      // (touched in a scrambled order, up to 5 terms each)
      const evidence = new Map<number, number>();
      const termScores = new Map<number, number[]>();
      for (const doc of touched) {
        const terms = 1 + Math.floor(next() * 5);
        const scores = Array.from({ length: terms }, () => next() * 10);
        termScores.set(doc, scores);
        evidence.set(doc, scores.reduce((sum, score) => sum + score, 0) * powers[terms]!);
      }
      for (let t = 0; t < 5; t++) {
        const inTerm = [...touched].filter((doc) => termScores.get(doc)!.length > t);
        addTerm(docs, inTerm, (doc) => termScores.get(doc)![t]!);
      }
      const ranked = [...evidence.values()].sort((a, b) => b - a);
      for (const wanted of [1, 5, 10, 25]) {
        const kth = ranked[wanted - 1]!;
        const expected = [...evidence].filter(([, value]) => value >= kth).map(([doc]) => doc);
        const kept = [...keptDocs(docs, wanted, -1, powers, 0.6, false, noSources)];
        expect(
          kept.sort((a, b) => a - b),
          `${size} ${wanted}`,
        ).toEqual(expected.sort((a, b) => a - b));
        // The tool to include is kept whatever its evidence.
        const weakest = [...evidence].sort((a, b) => a[1] - b[1])[0]![0];
        expect(keptDocs(docs, wanted, weakest, powers, 0.6, false, noSources)).toContain(weakest);
      }
    }
  });
});

describe('the marks of 2 bytes', () => {
  it('forget the documents of earlier searches when the stamps start over', () => {
    const docs = new QueryDocs();
    docs.begin(10);
    addTerm(docs, [3], () => 1.5);
    docs.addPhrase(3, 0.25);
    expect(docs.touched(3)).toBe(true);
    // (65,535 searches later the stamp has started over: without clearing, it would match again)
    for (let i = 0; i < 0xffff; i++) {
      docs.begin(10);
      expect(docs.touched(3)).toBe(false);
    }
    expect(docs.phrase[3]).toBe(0);
    addTerm(docs, [4], () => 2);
    expect([docs.touched(3), docs.touched(4)]).toEqual([false, true]);
  });

  it('rank a search as before after the term and query marks have started over', async () => {
    const index = new ToolIndex(new ToolCatalog(catalogTools()));
    const query = 'send the weather forecast. track a package';
    const first = await index.search(query, { limit: 10 });
    // (a search moves the term stamps by one a term and two a word pair: several wraps)
    for (let i = 0; i < 25_000; i++) await index.search(query, { limit: 10 });
    expect(await index.search(query, { limit: 10 })).toEqual(first);
  });
});

describe('KthLargest', () => {
  it('is -Infinity until k numbers came, then the k-th largest of all', () => {
    const heap = new KthLargest(3);
    heap.push(5);
    heap.push(1);
    expect(heap.value).toBe(Number.NEGATIVE_INFINITY);
    for (const value of [9, 2, 7, 7, 3]) heap.push(value);
    expect(heap.value).toBe(7);
    const one = new KthLargest(1);
    for (const value of [2, 8, 4]) one.push(value);
    expect(one.value).toBe(8);
  });
});
