import { countToolDefinitionTokens, ToolCatalog, ToolIndex, ToolSearchSession } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { type Dataset, loadDataset } from './datasets.js';
import {
  judgePreselected,
  NO_PRESELECT,
  type PreselectFigures,
  type PreselectSetting,
  pickSetting,
  preselectedAtFirstStep,
  preselectSettings,
  preselectText,
  runPreselect,
} from './preselect.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

// A made-up catalog whose rankings are clear-cut: every query's hits score either above 0.75 or
// below 0.3, so thresholds 0.5 and 0.9 cut them where the expectations below say.
const tools = [
  {
    id: 'translateText',
    description: 'Translate text between languages.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { id: 'detectLanguage', description: 'Detect the language of a text.' },
  { id: 'sendInvoice', description: 'Send an invoice to a customer by email.' },
  { id: 'refundPayment', description: 'Refund a card payment.' },
  { id: 'billing|refundPayment', name: 'refundPayment', description: 'Refund a card payment (billing service).' },
  { id: 'weatherForecast', description: 'Weather forecast for a city.' },
];

const dataset: Dataset = {
  name: 'made-up',
  tools,
  queries: [
    // translateText ~0.99, detectLanguage ~0.23: one relevant hit, the other below both thresholds
    { id: 'q1', query: 'translate this text', relevant: ['translateText'], split: '' },
    // matches nothing: nothing preselected at any setting
    { id: 'q2', query: 'qwzx vbnm', relevant: ['translateText'], split: '' },
    // sendInvoice ~0.95, refundPayment ~0.86, billing|refundPayment ~0.79 (the same slot as refundPayment)
    {
      id: 'q3',
      query: 'send an invoice and refund the payment',
      relevant: ['sendInvoice', 'refundPayment'],
      alternatives: [['refundPayment', 'billing|refundPayment']],
      split: '',
    },
    // detectLanguage ~0.99, translateText ~0.20
    { id: 'q4', query: 'detect language', relevant: ['detectLanguage'], split: '' },
    // weatherForecast ~0.98, judged irrelevant: preselected and wasted at every setting
    { id: 'q5', query: 'weather forecast in Paris', relevant: ['translateText'], split: '' },
  ],
};

/** The o200k tokens of these tools' definitions together, as a session offers them. */
async function tokensOf(...ids: string[]): Promise<number> {
  const catalog = new ToolCatalog(tools);
  const definitions = ids.map((id) => {
    const tool = catalog.get(id)!;
    return { name: tool.toolName, description: tool.description ?? '', inputSchema: tool.jsonSchema };
  });
  return (await countToolDefinitionTokens(definitions)).tokens;
}

const row = (setting: PreselectSetting, figures: Partial<PreselectFigures>) => ({
  ...NO_PRESELECT,
  ...setting,
  ...figures,
});

describe('judgePreselected', () => {
  const judgement = { relevant: ['a', 'b'], alternatives: [['a', 'a2']] };

  it('counts a second member of a filled alternatives group and irrelevant tools as not needed', () => {
    expect(judgePreselected(['a', 'a2', 'x', 'b'], judgement)).toEqual({
      offered: ['a', 'a2', 'x', 'b'],
      needed: ['a', 'b'],
      wasted: ['a2', 'x'],
      allGold: true,
      anyGold: true,
    });
    expect(judgePreselected(['a', 'a2', 'x'], judgement)).toMatchObject({
      needed: ['a'],
      allGold: false,
      anyGold: true,
    });
    expect(judgePreselected([], judgement)).toEqual({
      offered: [],
      needed: [],
      wasted: [],
      allGold: false,
      anyGold: false,
    });
  });
});

describe('preselectedAtFirstStep', () => {
  it("is core's preselect: the first `limit` hits scoring at least `minScore`, offered at the first step", async () => {
    const fixture = loadDataset(FIXTURE_DIR);
    const catalog = new ToolCatalog(fixture.tools);
    const index = new ToolIndex(catalog);
    for (const setting of preselectSettings([0.2, 0.5, 0.8, 0.95], [1, 2, 5])) {
      const session = new ToolSearchSession({ catalog, index, state: 'conversation', preselect: setting });
      for (const query of fixture.queries) {
        const searched = (await index.search(query.query, setting)).map((hit) => hit.id);
        expect(await preselectedAtFirstStep(session, query.query)).toEqual(searched);
      }
      session.dispose();
    }
    index.dispose();
  });
});

describe('runPreselect on a made-up dataset with known answers', () => {
  it('computes coverage, tools, tokens, waste, precision and the empty share per setting', async () => {
    const result = await runPreselect([dataset], { thresholds: [0.9, 0.5], limits: [3, 1] });
    expect(result.thresholds).toEqual([0.5, 0.9]);
    expect(result.limits).toEqual([1, 3]);
    const [measured] = result.datasets;
    expect(measured).toMatchObject({ dataset: 'made-up', tools: 6, queries: 5, baseline: NO_PRESELECT });
    const rows = measured!.rows;
    expect(rows.map(({ minScore, limit }) => [minScore, limit])).toEqual([
      [0.5, 1],
      [0.5, 3],
      [0.9, 1],
      [0.9, 3],
    ]);
    const [t, d, s, r, b, w] = tools.map((tool) => tool.id) as [string, string, string, string, string, string];
    // limit 1: q1 translateText, q3 sendInvoice, q4 detectLanguage, q5 weatherForecast; q2 nothing.
    const topOnly = {
      allGold: 40, // q1, q4
      anyGold: 60, // q1, q3, q4
      preselected: 0.8,
      tokens: (await tokensOf(t, s, d, w)) / 5,
      wastedTokens: (await tokensOf(w)) / 5,
      precision: 75, // 3 needed of 4
      empty: 20, // q2
    };
    // 0.5, limit 3: q3 also gets refundPayment and billing|refundPayment (same slot: not needed).
    const wider = {
      allGold: 60, // q1, q3, q4
      anyGold: 60,
      preselected: 1.2,
      tokens: (await tokensOf(t, s, r, b, d, w)) / 5,
      wastedTokens: (await tokensOf(b, w)) / 5,
      precision: (100 * 4) / 6,
      empty: 20,
    };
    for (const [i, expected] of [topOnly, wider, topOnly, topOnly].entries()) {
      const { value, minScore, limit, ...figures } = rows[i]!;
      expect(figures.allGold).toBe(expected.allGold);
      expect(figures.anyGold).toBe(expected.anyGold);
      expect(figures.preselected).toBe(expected.preselected);
      expect(figures.tokens).toBeCloseTo(expected.tokens, 1);
      expect(figures.wastedTokens).toBeCloseTo(expected.wastedTokens, 1);
      expect(figures.precision).toBeCloseTo(expected.precision, 2);
      expect(figures.empty).toBe(expected.empty);
      expect(value).toBeCloseTo(expected.allGold - 0.05 * expected.wastedTokens, 1);
    }
    // 60 − 0.05 × (a few dozen tokens) beats 40 − less: the wider setting, alone and combined.
    expect(measured!.pick).toEqual({ minScore: 0.5, limit: 3 });
    expect(result.recommended).toEqual({ minScore: 0.5, limit: 3 });
    expect(result.stable).toBe(true);
    expect(measured!.regret).toBe(0);
  });

  it('weights each dataset equally in the combined table and says which datasets pick otherwise', async () => {
    const fixture = loadDataset(FIXTURE_DIR);
    const result = await runPreselect([dataset, fixture], { thresholds: [0.5, 0.9], limits: [1, 3] });
    const [a, b] = result.datasets;
    // Nothing in the fixture scores 0.9: no precision there, so the combined one is the made-up dataset's.
    expect(b!.rows.filter((row) => row.minScore === 0.9).map((row) => row.precision)).toEqual([null, null]);
    expect(result.combined.rows[2]!.precision).toBe(a!.rows[2]!.precision);
    result.combined.rows.forEach((combined, i) => {
      expect(combined.allGold).toBeCloseTo((a!.rows[i]!.allGold + b!.rows[i]!.allGold) / 2, 1);
      expect(combined.wastedTokens).toBeCloseTo((a!.rows[i]!.wastedTokens + b!.rows[i]!.wastedTokens) / 2, 0);
      // precision: the mean over the datasets that preselected something
      const precisions = [a!.rows[i]!.precision, b!.rows[i]!.precision].filter((value) => value !== null);
      expect(combined.precision).toBeCloseTo(precisions.reduce((sum, value) => sum + value, 0) / precisions.length, 1);
    });
    expect(result.combined.pick).toEqual(result.recommended);
    const same = (pick: PreselectSetting) =>
      pick.minScore === result.recommended.minScore && pick.limit === result.recommended.limit;
    expect(result.stable).toBe(same(a!.pick) && same(b!.pick));
    for (const entry of result.datasets) expect(entry.regret).toBeGreaterThanOrEqual(0);
    expect(result.sensitivity.map((entry) => entry.lambda)).toEqual([0.02, 0.05, 0.1, 0.2]);
    expect(result.sensitivity[1]).toEqual({
      lambda: 0.05,
      recommended: result.recommended,
      datasets: { 'made-up': a!.pick, tiny: b!.pick },
    });
  });

  it('renders a table per dataset, the combined one with its pick in bold, and the recommendation', async () => {
    const result = await runPreselect([dataset], { thresholds: [0.5, 0.9], limits: [1, 3] });
    const text = preselectText(result);
    expect(text).toContain('### made-up (6 tools, 5 queries)');
    expect(text).toContain('### Combined (mean over 1 datasets, each weighted equally)');
    expect(text).toMatch(/\| no preselect +\| – +\| +0\.0 % \| +0\.0 % \| +0\.00 \|/);
    expect(text).toMatch(/\| \*\*0\.5\*\* +\| \*\*3\*\* +\| +60\.0 % \| +60\.0 % \| +1\.20 \|/);
    expect(text).toContain('**Recommended default: minScore 0.5, limit 3**, by the rule: the setting with the highest');
    expect(text).toContain('every one picks the same setting');
  });

  it('rejects thresholds outside [0, 1], limits that are not positive integers, repeats and no datasets', async () => {
    await expect(runPreselect([dataset], { thresholds: [1.5] })).rejects.toThrow(
      'A threshold must be in [0, 1], got 1.5.',
    );
    await expect(runPreselect([dataset], { limits: [0] })).rejects.toThrow(
      'A limit must be a positive integer, got 0.',
    );
    await expect(runPreselect([dataset], { limits: [2, 2] })).rejects.toThrow('must each be distinct');
    await expect(runPreselect([dataset], { thresholds: [] })).rejects.toThrow('at least one threshold');
    await expect(runPreselect([])).rejects.toThrow('at least one dataset');
  });
});

describe('pickSetting', () => {
  it('maximises all-gold coverage − λ × wasted tokens', () => {
    const rows = [
      row({ minScore: 0.5, limit: 1 }, { allGold: 30, wastedTokens: 50 }), // 27.5
      row({ minScore: 0.5, limit: 3 }, { allGold: 60, wastedTokens: 400 }), // 40
      row({ minScore: 0.5, limit: 5 }, { allGold: 80, wastedTokens: 900 }), // 35
    ];
    expect(pickSetting(rows)).toEqual({ minScore: 0.5, limit: 3 });
    expect(pickSetting(rows, 0.01)).toEqual({ minScore: 0.5, limit: 5 });
    expect(pickSetting(rows, 0.2)).toEqual({ minScore: 0.5, limit: 1 });
  });

  it('breaks ties by the higher minScore, then the smaller limit', () => {
    const same = { allGold: 50, wastedTokens: 100 };
    const rows = [0.5, 0.8].flatMap((minScore) => [3, 1].map((limit) => row({ minScore, limit }, same)));
    expect(pickSetting(rows)).toEqual({ minScore: 0.8, limit: 1 });
    expect(() => pickSetting([])).toThrow(RangeError);
  });
});
