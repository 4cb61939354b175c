// Preselect (issue #15), measured through core's own: before the first model call of a user turn, a
// session with `preselect: { minScore, limit }` searches the user's message and offers the confident
// hits directly. For each dataset and each (minScore, limit): how often step 1 already offers every
// tool the request needs (no search round trip), and what the preselected tools that were not needed
// cost in tokens. The default is picked from the table of all datasets by one stated rule.
import { countToolDefinitionTokens, ToolCatalog, ToolIndex, ToolSearchSession } from '@toolscout/core';
import type { Dataset } from './datasets.js';
import { fmt, markdownTable } from './markdown.js';
import { type Judgement, relevantSlots } from './metrics.js';
import { round } from './stats.js';

/**
 * The `minScore` thresholds measured by default: 0.2 to 0.8 as issue #15 asks, plus 0.9 and 0.95,
 * because the top five hits of a dataset query nearly all score above 0.8 (scores are absolute and
 * saturate), so below 0.8 the threshold barely changes what is offered.
 */
export const PRESELECT_THRESHOLDS: readonly number[] = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
/** The `limit`s measured by default. */
export const PRESELECT_LIMITS: readonly number[] = [1, 3, 5];
/**
 * The rule's exchange rate λ: points of all-gold coverage one wasted token costs. At 0.05, one
 * avoided search round trip (100 points on one query) is worth 2,000 tokens of definitions that were
 * not needed: a round trip re-reads the whole prompt once (system prompt, conversation and offered
 * tools, about 4,000 tokens in a small agent), while a definition offered and not needed is re-read at
 * every later model call (at least 2 in a turn that calls a tool; offered tools are append-only).
 */
export const PRESELECT_LAMBDA = 0.05;
/** The other exchange rates the pick is shown under, to say how much it depends on λ. */
export const LAMBDA_SENSITIVITY: readonly number[] = [0.02, 0.05, 0.1, 0.2];

/** The rule, in words (λ filled in). */
export function preselectRule(lambda: number = PRESELECT_LAMBDA): string {
  return (
    `the setting with the highest all-gold coverage (points) − ${lambda} × wasted tokens per query ` +
    `(an avoided search round trip is worth ${round(100 / lambda, 0).toLocaleString('en-US')} tokens of unneeded definitions), ` +
    'on the mean over the datasets, each weighted equally; ties go to the higher minScore, then the smaller limit'
  );
}

/** One preselect configuration: offer at most `limit` hits scoring at least `minScore`. */
export interface PreselectSetting {
  minScore: number;
  limit: number;
}

/** What preselecting does over a dataset's queries (shares on a 0–100 scale, means per query). */
export interface PreselectFigures {
  /** Share of queries whose relevant slots are all preselected: step 1 can call them, no search. */
  allGold: number;
  /** Share of queries with at least one relevant slot preselected. */
  anyGold: number;
  /** Mean tools preselected per query. */
  preselected: number;
  /** Mean o200k tokens of the preselected tools' definitions per query. */
  tokens: number;
  /**
   * Mean o200k tokens per query of preselected tools that were not needed: not relevant, or a second
   * member of an `alternatives` group whose slot a better-ranked tool already filled.
   */
  wastedTokens: number;
  /** Share of all preselected tools (pooled over the queries) that were needed; null when none was preselected. */
  precision: number | null;
  /** Share of queries with nothing preselected (they fall back to search, at no extra cost). */
  empty: number;
}

/** The figures of one setting, and its value under the rule. */
export interface PreselectRow extends PreselectSetting, PreselectFigures {
  /** `allGold − λ × wastedTokens`, what the rule maximises. */
  value: number;
}

/** A table: the baseline (no preselect), every setting, and the setting the rule picks from it. */
export interface PreselectTable {
  /** No preselect: nothing offered at step 1 beyond the meta-tools. */
  baseline: PreselectFigures;
  /** One row per (minScore, limit), thresholds ascending, then limits ascending. */
  rows: PreselectRow[];
  /** The setting the rule picks from these rows. */
  pick: PreselectSetting;
}

/** One dataset's table. */
export interface PreselectDatasetResult extends PreselectTable {
  /** The dataset folder's name. */
  dataset: string;
  /** Tools in its catalog. */
  tools: number;
  /** Judged queries. */
  queries: number;
  /** Rule value this dataset loses under the recommended setting instead of its own pick (0 when the same). */
  regret: number;
}

/** Which setting the rule picks under one exchange rate. */
export interface PreselectSensitivity {
  lambda: number;
  /** The pick from the combined table. */
  recommended: PreselectSetting;
  /** The pick of each dataset alone, by dataset name. */
  datasets: Record<string, PreselectSetting>;
}

/** The whole measurement. */
export interface PreselectResult {
  /** The `minScore` thresholds measured, ascending. */
  thresholds: number[];
  /** The `limit`s measured, ascending. */
  limits: number[];
  /** The rule's exchange rate. */
  lambda: number;
  /** The rule that picks a setting, in words. */
  rule: string;
  /** Per dataset, each with the setting the rule picks on it alone. */
  datasets: PreselectDatasetResult[];
  /** Each figure the mean over the datasets (each weighted equally); its pick is the recommendation. */
  combined: PreselectTable;
  /** The recommended default: the rule applied to the combined table. */
  recommended: PreselectSetting;
  /** Whether every dataset alone picks the recommended setting. */
  stable: boolean;
  /** The picks under the exchange rates of {@link LAMBDA_SENSITIVITY}. */
  sensitivity: PreselectSensitivity[];
}

/** Options of {@link runPreselect}. */
export interface PreselectOptions {
  /** `minScore` thresholds (each in [0, 1], distinct). Default {@link PRESELECT_THRESHOLDS}. */
  thresholds?: readonly number[];
  /** Limits (positive integers, distinct). Default {@link PRESELECT_LIMITS}. */
  limits?: readonly number[];
  /** Receives progress lines. */
  onProgress?: (line: string) => void;
}

/** What preselecting offers for one query, and which of it was needed. */
export interface PreselectOutcome {
  /** The preselected tool ids, best first. */
  offered: string[];
  /** Those that filled a relevant slot no better-ranked preselected tool had filled. */
  needed: string[];
  /** The rest. */
  wasted: string[];
  /** Every relevant slot filled. */
  allGold: boolean;
  /** At least one relevant slot filled. */
  anyGold: boolean;
}

/**
 * Judges what was preselected for one query (tool ids, best first): which tools filled a relevant
 * slot, which were not needed.
 */
export function judgePreselected(offered: readonly string[], judgement: Judgement): PreselectOutcome {
  const { slotOf, slots } = relevantSlots(judgement);
  const filled = new Set<number>();
  const needed: string[] = [];
  const wasted: string[] = [];
  for (const id of offered) {
    const slot = slotOf.get(id);
    if (slot !== undefined && !filled.has(slot)) {
      filled.add(slot);
      needed.push(id);
    } else {
      wasted.push(id);
    }
  }
  return { offered: [...offered], needed, wasted, allGold: filled.size === slots, anyGold: filled.size > 0 };
}

/** No preselect: nothing offered, nothing covered, every query falls back to search. */
export const NO_PRESELECT: PreselectFigures = {
  allGold: 0,
  anyGold: 0,
  preselected: 0,
  tokens: 0,
  wastedTokens: 0,
  precision: null,
  empty: 100,
};

/** Counts over a dataset's queries for one setting. */
class Tally {
  queries = 0;
  allGold = 0;
  anyGold = 0;
  preselected = 0;
  needed = 0;
  tokens = 0;
  wastedTokens = 0;
  empty = 0;

  add(outcome: PreselectOutcome, tokensOf: (id: string) => number): void {
    this.queries += 1;
    this.allGold += outcome.allGold ? 1 : 0;
    this.anyGold += outcome.anyGold ? 1 : 0;
    this.preselected += outcome.offered.length;
    this.needed += outcome.needed.length;
    this.empty += outcome.offered.length === 0 ? 1 : 0;
    for (const id of outcome.offered) this.tokens += tokensOf(id);
    for (const id of outcome.wasted) this.wastedTokens += tokensOf(id);
  }

  figures(): PreselectFigures {
    const per = (count: number) => (this.queries === 0 ? 0 : count / this.queries);
    return {
      allGold: 100 * per(this.allGold),
      anyGold: 100 * per(this.anyGold),
      preselected: per(this.preselected),
      tokens: per(this.tokens),
      wastedTokens: per(this.wastedTokens),
      precision: this.preselected === 0 ? null : (100 * this.needed) / this.preselected,
      empty: 100 * per(this.empty),
    };
  }
}

/** The rule's value of a setting's figures. */
export function ruleValue(figures: PreselectFigures, lambda: number = PRESELECT_LAMBDA): number {
  return figures.allGold - lambda * figures.wastedTokens;
}

/**
 * The rule ({@link preselectRule}): the setting with the highest `allGold − λ × wastedTokens`; ties go
 * to the higher minScore, then the smaller limit.
 */
export function pickSetting(
  rows: readonly (PreselectSetting & PreselectFigures)[],
  lambda: number = PRESELECT_LAMBDA,
): PreselectSetting {
  const [pick] = [...rows].sort(
    (a, b) => ruleValue(b, lambda) - ruleValue(a, lambda) || b.minScore - a.minScore || a.limit - b.limit,
  );
  if (pick === undefined) throw new RangeError('pickSetting needs at least one row.');
  return { minScore: pick.minScore, limit: pick.limit };
}

const sameSetting = (a: PreselectSetting, b: PreselectSetting) => a.minScore === b.minScore && a.limit === b.limit;

/** Checks the thresholds and limits; returns every (threshold, limit) pair, both ascending. */
export function preselectSettings(thresholds: readonly number[], limits: readonly number[]): PreselectSetting[] {
  if (thresholds.length === 0 || limits.length === 0) {
    throw new RangeError('Preselect needs at least one threshold and one limit.');
  }
  for (const threshold of thresholds) {
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`A threshold must be in [0, 1], got ${threshold}.`);
  }
  for (const limit of limits) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`A limit must be a positive integer, got ${limit}.`);
  }
  if (new Set(thresholds).size !== thresholds.length || new Set(limits).size !== limits.length) {
    throw new RangeError('Thresholds and limits must each be distinct.');
  }
  const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b);
  return ascending(thresholds).flatMap((minScore) => ascending(limits).map((limit) => ({ minScore, limit })));
}

/** The o200k tokens of each tool's definition as a session offers it (name, description, schema). */
async function definitionTokens(catalog: ToolCatalog): Promise<Map<string, number>> {
  const tokens = new Map<string, number>();
  for (const tool of catalog.list()) {
    const definition = { name: tool.toolName, description: tool.description ?? '', inputSchema: tool.jsonSchema };
    tokens.set(tool.id, (await countToolDefinitionTokens([definition])).tokens);
  }
  return tokens;
}

/**
 * What core's preselect offers at the first step of a user turn whose message is `message`: the
 * ids of the offered tools marked `preselected`, best first.
 */
export async function preselectedAtFirstStep(session: ToolSearchSession, message: string): Promise<string[]> {
  const step = await session.prepareStep({ conversation: [{ type: 'user-message', text: message }] });
  return step.tools.flatMap((tool) => (tool.preselected && tool.tool ? [tool.tool.id] : []));
}

/**
 * The exact (unrounded) figures of every setting on one dataset: its index built once with core's
 * defaults, and per setting a session with `preselect` set to it, whose first step of each query
 * (a request with the query as its only user message) is judged.
 */
export async function measureDataset(
  dataset: Dataset,
  settings: readonly PreselectSetting[],
): Promise<(PreselectSetting & PreselectFigures)[]> {
  const catalog = new ToolCatalog(dataset.tools);
  const index = new ToolIndex(catalog);
  const tokens = await definitionTokens(catalog);
  const tokensOf = (id: string) => tokens.get(id)!;
  try {
    const rows: (PreselectSetting & PreselectFigures)[] = [];
    for (const setting of settings) {
      const tally = new Tally();
      const session = new ToolSearchSession({ catalog, index, state: 'conversation', preselect: setting });
      for (const query of dataset.queries) {
        tally.add(judgePreselected(await preselectedAtFirstStep(session, query.query), query), tokensOf);
      }
      session.dispose();
      rows.push({ ...setting, ...tally.figures() });
    }
    return rows;
  } finally {
    index.dispose();
  }
}

/** The mean of each figure over datasets; precision over the datasets that have one. */
function meanFigures(figures: readonly PreselectFigures[]): PreselectFigures {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const of = (key: Exclude<keyof PreselectFigures, 'precision'>) => mean(figures.map((figure) => figure[key]));
  const precisions = figures.flatMap((figure) => (figure.precision === null ? [] : [figure.precision]));
  return {
    allGold: of('allGold'),
    anyGold: of('anyGold'),
    preselected: of('preselected'),
    tokens: of('tokens'),
    wastedTokens: of('wastedTokens'),
    precision: precisions.length === 0 ? null : mean(precisions),
    empty: of('empty'),
  };
}

/** Figures as published: shares and means to 2 decimals, tokens to 1. */
function rounded<T extends PreselectFigures>(figures: T): T {
  return {
    ...figures,
    allGold: round(figures.allGold),
    anyGold: round(figures.anyGold),
    preselected: round(figures.preselected),
    tokens: round(figures.tokens, 1),
    wastedTokens: round(figures.wastedTokens, 1),
    precision: figures.precision === null ? null : round(figures.precision),
    empty: round(figures.empty),
  };
}

/** A published table: rows with their rule value, all rounded. */
function tableOf(rows: readonly (PreselectSetting & PreselectFigures)[], pick: PreselectSetting): PreselectTable {
  return {
    baseline: NO_PRESELECT,
    rows: rows.map((row) => ({ ...rounded(row), value: round(ruleValue(row)) })),
    pick,
  };
}

/**
 * Measures preselect on every dataset and picks the default from the combined table (each dataset
 * weighted equally) by {@link preselectRule}. Picks are made on the exact figures; the result's
 * figures are rounded.
 */
export async function runPreselect(
  datasets: readonly Dataset[],
  options: PreselectOptions = {},
): Promise<PreselectResult> {
  const { thresholds = PRESELECT_THRESHOLDS, limits = PRESELECT_LIMITS, onProgress = () => {} } = options;
  const settings = preselectSettings(thresholds, limits);
  if (datasets.length === 0) throw new RangeError('Preselect needs at least one dataset.');
  const measured: (PreselectSetting & PreselectFigures)[][] = [];
  for (const dataset of datasets) {
    onProgress(`preselect: ${dataset.name}: ${dataset.queries.length} queries over ${dataset.tools.length} tools...`);
    measured.push(await measureDataset(dataset, settings));
  }
  const combined = settings.map((setting, i) => ({ ...setting, ...meanFigures(measured.map((rows) => rows[i]!)) }));
  const recommended = pickSetting(combined);
  const results = datasets.map((dataset, d): PreselectDatasetResult => {
    const rows = measured[d]!;
    const pick = pickSetting(rows);
    const valueAt = (setting: PreselectSetting) => ruleValue(rows.find((row) => sameSetting(row, setting))!);
    return {
      dataset: dataset.name,
      tools: dataset.tools.length,
      queries: dataset.queries.length,
      ...tableOf(rows, pick),
      regret: round(valueAt(pick) - valueAt(recommended)),
    };
  });
  const sensitivity = LAMBDA_SENSITIVITY.map((lambda) => ({
    lambda,
    recommended: pickSetting(combined, lambda),
    datasets: Object.fromEntries(datasets.map((dataset, d) => [dataset.name, pickSetting(measured[d]!, lambda)])),
  }));
  return {
    thresholds: [...new Set(settings.map((setting) => setting.minScore))],
    limits: [...limits].sort((a, b) => a - b),
    lambda: PRESELECT_LAMBDA,
    rule: preselectRule(),
    datasets: results,
    combined: tableOf(combined, recommended),
    recommended,
    stable: results.every((result) => sameSetting(result.pick, recommended)),
    sensitivity,
  };
}

// ---- Markdown ----

/** The first `textColumns` columns left-aligned, the rest right-aligned. */
function columnsAlign(headers: readonly string[], textColumns: number): ('l' | 'r')[] {
  return headers.map((_, i) => (i < textColumns ? 'l' : 'r'));
}

const settingText = (setting: PreselectSetting) => `minScore ${setting.minScore}, limit ${setting.limit}`;

function figureCells(figures: PreselectFigures): string[] {
  return [
    `${fmt(figures.allGold)} %`,
    `${fmt(figures.anyGold)} %`,
    fmt(figures.preselected, 2),
    fmt(figures.tokens, 0),
    fmt(figures.wastedTokens, 0),
    figures.precision === null ? '–' : `${fmt(figures.precision)} %`,
    `${fmt(figures.empty)} %`,
  ];
}

/** One table: the baseline, then every setting; the pick in bold. */
function settingsTable(table: PreselectTable, lambda: number): string {
  const headers = [
    'minScore',
    'limit',
    'all gold',
    'any gold',
    'tools / query',
    'tokens / query',
    'wasted tokens / query',
    'precision',
    'nothing preselected',
    `all gold − ${lambda} × wasted`,
  ];
  const baseline = ['no preselect', '–', ...figureCells(table.baseline), fmt(ruleValue(table.baseline, lambda))];
  const rows = table.rows.map((row) => {
    const bold = (text: string) => (sameSetting(row, table.pick) ? `**${text}**` : text);
    return [bold(String(row.minScore)), bold(String(row.limit)), ...figureCells(row), bold(fmt(row.value))];
  });
  return markdownTable(headers, [baseline, ...rows], columnsAlign(headers, 2));
}

/** The measurement as markdown: one table per dataset, the combined one, the pick and how stable it is. */
export function preselectText(result: PreselectResult): string {
  const perDataset = result.datasets.map(
    (dataset) =>
      `### ${dataset.dataset} (${dataset.tools.toLocaleString('en-US')} tools, ${dataset.queries.toLocaleString('en-US')} queries)\n\n` +
      `${settingsTable(dataset, result.lambda)}\n`,
  );
  const names = result.datasets.map((dataset) => dataset.dataset);
  const stabilityHeaders = ['dataset', 'its own pick', 'rule value lost at the recommended setting'];
  const stability = markdownTable(
    stabilityHeaders,
    result.datasets.map((dataset) => [dataset.dataset, settingText(dataset.pick), fmt(dataset.regret)]),
    columnsAlign(stabilityHeaders, 2),
  );
  const sensitivityHeaders = ['λ', 'combined', ...names];
  const sensitivity = markdownTable(
    sensitivityHeaders,
    result.sensitivity.map((entry) => [
      String(entry.lambda),
      settingText(entry.recommended),
      ...names.map((name) => settingText(entry.datasets[name]!)),
    ]),
    columnsAlign(sensitivityHeaders, names.length + 2),
  );
  return [
    ...perDataset,
    `### Combined (mean over ${result.datasets.length} datasets, each weighted equally)\n\n${settingsTable(result.combined, result.lambda)}\n`,
    `**Recommended default: ${settingText(result.recommended)}**, by the rule: ${result.rule}.\n`,
    `Each dataset alone (${result.stable ? 'every one picks the same setting' : 'they do not all pick the same setting'}):\n\n${stability}\n`,
    `The pick under other exchange rates λ:\n\n${sensitivity}\n`,
  ].join('\n');
}
