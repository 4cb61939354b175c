import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import { rejection, thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import { createCandidateRanker, MAX_LEARNED_TOOLS } from './candidate-ranker.js';

const tools: ToolDescriptor[] = [
  {
    id: 'send_email',
    description: 'Send an email message.',
    inputSchema: { type: 'object', properties: { subject: { type: 'string', description: 'The subject line.' } } },
  },
  { id: 'get_forecast', description: 'Get a multi-day weather forecast for a city.' },
  { id: 'delete_repository', description: 'Delete a GitHub repository permanently.' },
];

describe('createCandidateRanker', () => {
  it('indexes the candidates it is handed as they come, and again when a description changes', async () => {
    const ranker = createCandidateRanker();
    const first = [
      { name: 'tool_a', description: 'Send an email message.' },
      { name: 'tool_b', description: 'Get the weather forecast.' },
    ];
    expect(await ranker.rank('weather', first)).toEqual(['tool_b']);
    // Another call hands tool_c as well: it is found among the first two.
    const more = [...first, { name: 'tool_c', description: 'Weather radar images.' }];
    expect((await ranker.rank('radar', more))[0]).toBe('tool_c');
    // tool_a now does something else: the ranking follows its new description.
    const changed = [{ name: 'tool_a', description: 'Weather alerts for a region.' }, first[1]!];
    expect(await ranker.rank('alerts', changed)).toEqual(['tool_a']);
    // tool_c is indexed but not a candidate of this call: never returned.
    expect(await ranker.rank('radar', changed)).toEqual([]);
    expect(ranker.size).toBe(3);
  });

  it('keeps at most 10,000 learned tools: past that, only the current candidates stay indexed', async () => {
    const asked = new Set<string>();
    const ranker = createCandidateRanker({
      minScore: 0,
      filter: ({ toolId }) => {
        asked.add(toolId);
        return true;
      },
    });
    const set = (prefix: string) =>
      Array.from({ length: 6000 }, (_, i) => ({ name: `${prefix}_${i}`, description: `Weather report ${i}.` }));
    await ranker.rank('weather', set('a'));
    expect(ranker.size).toBe(6000);
    await ranker.rank('weather', set('b')); // 12,000 tools: the a_* tools are dropped
    expect(ranker.size).toBe(6000);
    expect(ranker.size).toBeLessThanOrEqual(MAX_LEARNED_TOOLS);
    asked.clear();
    expect(await ranker.rank('weather report', set('b'))).toHaveLength(10);
    expect([...asked].filter((id) => id.startsWith('a_'))).toEqual([]);
  });

  it("never returns what the policy's search phase hides, nor tools that are not candidates", async () => {
    const phases = new Set<string>();
    const ranker = createCandidateRanker({
      catalog: tools,
      filter: ({ toolId, phase }) => {
        phases.add(phase);
        return toolId !== 'delete_repository';
      },
    });
    const names = await ranker.rank('delete github repository weather', [
      { name: 'delete_repository', description: 'Delete a GitHub repository permanently.' },
      { name: 'get_forecast', description: 'Get a multi-day weather forecast for a city.' },
    ]);
    expect(names).toEqual(['get_forecast']);
    expect([...phases]).toEqual(['search']);
    // A filter that throws fails closed.
    const failing = createCandidateRanker({
      catalog: tools,
      filter: () => {
        throw new Error('down');
      },
    });
    expect(await failing.rank('weather', [{ name: 'get_forecast' }])).toEqual([]);
  });

  it("with a catalog, ranks by the whole tool (parameters too) and answers in the candidates' own names", async () => {
    const catalog = new ToolCatalog([...tools, { id: 'mail.archive', description: 'Archive an email message.' }]);
    const archive = catalog.get('mail.archive')!.toolName;
    const ranker = createCandidateRanker({ catalog });
    expect(
      await createCandidateRanker().rank('subject line', [
        { name: 'send_email', description: 'Send an email message.' },
      ]),
    ).toEqual([]);
    expect(await ranker.rank('subject line', [{ name: 'send_email' }])).toEqual(['send_email']);
    expect(await ranker.rank('archive email', [{ name: archive }])).toEqual([archive]);
    expect(ranker.size).toBe(4);
  });

  it('counts only candidates toward the limit, however many other tools rank above them', async () => {
    const catalog = Array.from({ length: 50 }, (_, i) => ({ id: `weather_${i}`, description: 'Weather for a city.' }));
    const ranker = createCandidateRanker({
      catalog: [...catalog, { id: 'forecast_city', description: 'Forecast weather.' }],
      limit: 1,
      minScore: 0,
    });
    expect(await ranker.rank('weather city', [{ name: 'forecast_city' }])).toEqual(['forecast_city']);
  });

  it('stops at limit, and answers nothing for an empty query or no candidates', async () => {
    const candidates = Array.from({ length: 8 }, (_, i) => ({
      name: `weather_tool_${i}`,
      description: 'Weather for a city.',
    }));
    expect(await createCandidateRanker({ limit: 3, minScore: 0 }).rank('weather city', candidates)).toHaveLength(3);
    const ranker = createCandidateRanker();
    expect(await ranker.rank('   ', candidates)).toEqual([]);
    expect(await ranker.rank('weather', [])).toEqual([]);
    expect(ranker.size).toBe(0);
  });

  it('names each bad option (InvalidOptionError) and each bad argument (InvalidArgumentError)', async () => {
    const options: [unknown, string][] = [
      [null, 'options'],
      [{ catalog: 42 }, 'catalog'],
      [{ catalog: 'tools' }, 'catalog'],
      [{ filter: 'x' }, 'filter'],
      [{ indexOptions: 5 }, 'indexOptions'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ minScore: 2 }, 'minScore'],
    ];
    for (const [given, option] of options) {
      const error = thrown(() => createCandidateRanker(given as never));
      expect(InvalidOptionError.isInstance(error), option).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
    }
    const ranker = createCandidateRanker();
    const inputs: [unknown, unknown, string][] = [
      [42, [], 'query'],
      ['weather', 'tools', 'candidates'],
      ['weather', [{ name: 'a' }, { description: 'no name' }], 'candidates[1]'],
      ['weather', [{ name: 'a', description: 5 }], 'candidates[0]'],
    ];
    for (const [query, candidates, argument] of inputs) {
      const error = await rejection(() => ranker.rank(query as never, candidates as never));
      expect(InvalidArgumentError.isInstance(error), argument).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe(argument);
    }
  });

  it('refuses a candidate without a name as a bad argument, learning or not, not as a bad tool', async () => {
    for (const ranker of [createCandidateRanker(), createCandidateRanker({ catalog: tools })]) {
      for (const name of ['', '  ']) {
        const error = await rejection(() => ranker.rank('weather', [{ name: 'get_forecast' }, { name }]));
        expect(InvalidArgumentError.isInstance(error), JSON.stringify(name)).toBe(true);
        expect((error as InvalidArgumentError).argument).toBe('candidates[1]');
        expect((error as Error).message).toMatch(/^candidates\[1\] must be \{ name: string/);
      }
      expect(
        await ranker.rank('weather forecast', [{ name: 'get_forecast', description: 'Weather forecast.' }]),
      ).toEqual(['get_forecast']);
      ranker.dispose();
    }
  });
});
