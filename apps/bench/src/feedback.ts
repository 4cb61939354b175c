// Learning from use (issue #19 item 4), measured through core's own session: for each dataset, a
// seeded half of the queries is fed as feedback (each relevant tool recorded for its query, as if
// the model had searched it and called the tool), and the other half is scored (NDCG@10, R@1)
// against the same session without feedback; then with a share of the feedback wrong (a random
// tool that is not relevant instead), and with all of it wrong (what poisoning can do at most).
import { ToolCatalog, ToolSearchSession } from '@toolscout/core';
import type { Dataset, DatasetQuery } from './datasets.js';
import { fmt, markdownTable } from './markdown.js';
import { evaluate, type MetricValues } from './metrics.js';
import { seededRandom, shuffled } from './stats.js';

/** The seed of the split and of the wrong tools by default. */
export const DEFAULT_FEEDBACK_SEED = 19;
/** The share of wrong feedback measured beside correct feedback by default. */
export const DEFAULT_WRONG_SHARE = 0.2;
/** Hits scored per query. */
const LIMIT = 10;

/** One variant's figures on one dataset's scored half (0–100). */
export interface FeedbackVariant {
  /** What was fed: `none`, `feedback`, `feedback, 20 % wrong`, `all wrong`. */
  name: string;
  /** (query, tool) pairs fed. */
  fed: number;
  /** Of them, wrong (a tool not relevant to the query). */
  wrong: number;
  metrics: MetricValues;
}

/** One dataset's measurement. */
export interface FeedbackDatasetResult {
  dataset: string;
  tools: number;
  /** Queries fed as feedback. */
  fedQueries: number;
  /** Queries scored. */
  scoredQueries: number;
  variants: FeedbackVariant[];
  /**
   * The fed half itself searched again, without feedback and with the correct feedback: how well a
   * request asked again is remembered (not a measure of generalisation).
   */
  askedAgain: { none: MetricValues; feedback: MetricValues };
}

/** The whole measurement. */
export interface FeedbackResult {
  seed: number;
  wrongShare: number;
  datasets: FeedbackDatasetResult[];
}

/** Options of {@link runFeedback}. */
export interface FeedbackBenchOptions {
  seed?: number;
  /** The share of wrong feedback in the second variant, in [0, 1]. Default {@link DEFAULT_WRONG_SHARE}. */
  wrongShare?: number;
  onProgress?: (line: string) => void;
}

/** The (query, tool id) pairs fed for `queries`: each relevant tool, a share of them replaced by a random wrong tool. */
export function feedbackPairs(
  queries: readonly DatasetQuery[],
  toolIds: readonly string[],
  wrongShare: number,
  random: () => number,
): { query: string; toolId: string; wrong: boolean }[] {
  const pairs: { query: string; toolId: string; wrong: boolean }[] = [];
  for (const query of queries) {
    const relevant = new Set([...query.relevant, ...(query.alternatives ?? []).flat()]);
    for (const toolId of query.relevant) {
      if (random() >= wrongShare) {
        pairs.push({ query: query.query, toolId, wrong: false });
        continue;
      }
      let wrong = toolIds[Math.floor(random() * toolIds.length)]!;
      while (relevant.has(wrong) && relevant.size < toolIds.length)
        wrong = toolIds[Math.floor(random() * toolIds.length)]!;
      pairs.push({ query: query.query, toolId: wrong, wrong: true });
    }
  }
  return pairs;
}

/** Scores `queries` on a session of `dataset`'s tools fed with `pairs` (none: without the feedback option). */
async function scoreWith(
  dataset: Dataset,
  queries: readonly DatasetQuery[],
  pairs: readonly { query: string; toolId: string }[] | undefined,
): Promise<MetricValues> {
  const catalog = new ToolCatalog(dataset.tools);
  // A fixed clock: every pair as fresh as the others (no decay between them), the same on every run.
  const session = new ToolSearchSession({ catalog, feedback: pairs !== undefined && { clock: () => 0 } });
  try {
    for (const pair of pairs ?? []) await session.feedback?.record(pair.query, pair.toolId, 'ok');
    const rankings: string[][] = [];
    for (const query of queries) {
      rankings.push((await session.search(query.query, {}, LIMIT)).map((hit) => hit.tool.id));
    }
    return evaluate(rankings, queries);
  } finally {
    session.dispose();
  }
}

/** Measures learning from use on each dataset (see the file comment). */
export async function runFeedback(
  datasets: readonly Dataset[],
  options: FeedbackBenchOptions = {},
): Promise<FeedbackResult> {
  const seed = options.seed ?? DEFAULT_FEEDBACK_SEED;
  const wrongShare = options.wrongShare ?? DEFAULT_WRONG_SHARE;
  if (!(wrongShare >= 0 && wrongShare <= 1))
    throw new RangeError(`The wrong share must be in [0, 1], got ${wrongShare}.`);
  const results: FeedbackDatasetResult[] = [];
  for (const dataset of datasets) {
    const random = seededRandom(seed);
    const order = shuffled(dataset.queries, random);
    const half = Math.floor(order.length / 2);
    const fed = order.slice(0, half);
    const scored = order.slice(half);
    const toolIds = dataset.tools.map((tool) => tool.id);
    const variants: FeedbackVariant[] = [];
    const add = async (name: string, pairs: ReturnType<typeof feedbackPairs> | undefined) => {
      options.onProgress?.(`feedback: ${dataset.name}, ${name}`);
      const metrics = await scoreWith(dataset, scored, pairs);
      const wrong = pairs?.filter((pair) => pair.wrong).length ?? 0;
      variants.push({ name, fed: pairs?.length ?? 0, wrong, metrics });
    };
    await add('none', undefined);
    const correct = feedbackPairs(fed, toolIds, 0, random);
    await add('feedback', correct);
    await add(`feedback, ${Math.round(wrongShare * 100)} % wrong`, feedbackPairs(fed, toolIds, wrongShare, random));
    await add('all wrong', feedbackPairs(fed, toolIds, 1, random));
    options.onProgress?.(`feedback: ${dataset.name}, the fed half asked again`);
    const askedAgain = {
      none: await scoreWith(dataset, fed, undefined),
      feedback: await scoreWith(dataset, fed, correct),
    };
    results.push({
      askedAgain,
      dataset: dataset.name,
      tools: dataset.tools.length,
      fedQueries: fed.length,
      scoredQueries: scored.length,
      variants,
    });
  }
  return { seed, wrongShare, datasets: results };
}

/** The markdown table: per dataset and variant, NDCG@10 and R@1 on the scored half, and the change against none. */
export function feedbackTable(result: FeedbackResult): string {
  const rows: string[][] = [];
  for (const dataset of result.datasets) {
    const base = dataset.variants[0]!.metrics;
    for (const variant of dataset.variants) {
      const delta = (key: keyof MetricValues) =>
        variant === dataset.variants[0]
          ? ''
          : ` (${variant.metrics[key] >= base[key] ? '+' : ''}${fmt(variant.metrics[key] - base[key])})`;
      rows.push([
        dataset.dataset,
        variant.name,
        `${variant.fed.toLocaleString('en-US')}${variant.wrong ? ` (${variant.wrong.toLocaleString('en-US')} wrong)` : ''}`,
        `${fmt(variant.metrics.ndcg10)}${delta('ndcg10')}`,
        `${fmt(variant.metrics.r1)}${delta('r1')}`,
        `${fmt(variant.metrics.r10)}${delta('r10')}`,
      ]);
    }
  }
  return markdownTable(['dataset', 'feedback', 'pairs fed', 'NDCG@10', 'R@1', 'R@10'], rows, [
    'l',
    'l',
    'r',
    'r',
    'r',
    'r',
  ]);
}

/** The second table: the fed half asked again, without and with its feedback. */
export function askedAgainTable(result: FeedbackResult): string {
  const rows = result.datasets.map((dataset) => {
    const { none, feedback } = dataset.askedAgain;
    const cell = (key: keyof MetricValues) =>
      `${fmt(none[key])} → ${fmt(feedback[key])} (${feedback[key] >= none[key] ? '+' : ''}${fmt(feedback[key] - none[key])})`;
    return [dataset.dataset, fmt(dataset.fedQueries, 0), cell('ndcg10'), cell('r1')];
  });
  return markdownTable(['dataset', 'queries', 'NDCG@10', 'R@1'], rows, ['l', 'r', 'r', 'r']);
}

/** The table with a line on how it was made. */
export function feedbackText(result: FeedbackResult): string {
  const sizes = result.datasets.map((d) => `${d.dataset} ${d.fedQueries} fed / ${d.scoredQueries} scored`).join(', ');
  return (
    `${feedbackTable(result)}\n\n` +
    `Seed ${result.seed}: each dataset's queries shuffled and halved (${sizes}); every relevant tool of a fed query ` +
    'recorded once for it (`session.feedback.record`, under a fixed clock: no decay between them), the scored half ' +
    'searched through `session.search` (top 10). ' +
    `"${Math.round(result.wrongShare * 100)} % wrong": that share of the pairs name a random tool the query does not need; ` +
    '"all wrong": every pair does (what poisoning can do at most with as many calls). Differences under 1 point are a ' +
    `handful of the ${result.datasets.map((d) => d.scoredQueries).join(' / ')} scored queries.\n\n` +
    'The fed queries themselves asked again (what is remembered, not what generalises), without feedback → with ' +
    `the correct feedback:\n\n${askedAgainTable(result)}\n`
  );
}
