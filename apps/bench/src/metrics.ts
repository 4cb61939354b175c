// Retrieval metrics exactly as /work/shared/datasets/README.md defines them: binary gains, a group of
// `alternatives` counts as one relevant slot, every figure on a 0-100 scale.

/** What one query expects: the relevant tool ids and optional groups of interchangeable ids. */
export interface Judgement {
  /** Tool ids that serve the request; each is one slot unless it belongs to an `alternatives` group. */
  relevant: readonly string[];
  /** Groups of ids any one of which fills the same slot (the same tool offered by two servers). */
  alternatives?: readonly (readonly string[])[];
}

/** The metrics of one query, or their mean over many; 0-100. */
export interface MetricValues {
  /** Share of relevant slots in the top 1. */
  r1: number;
  /** Share of relevant slots in the top 5. */
  r5: number;
  /** Share of relevant slots in the top 10. */
  r10: number;
  /** NDCG@10 with gain 1 per relevant slot (a slot counts once, at its best rank). */
  ndcg10: number;
  /** 1 / rank of the first relevant tool in the whole ranking; 0 when none is ranked. */
  mrr: number;
  /** 100 when every relevant slot is in the top 10, else 0 (a share once averaged). */
  complete10: number;
}

/** The metric names in table order, with their column headings. */
export const METRIC_COLUMNS: readonly { key: keyof MetricValues; label: string }[] = [
  { key: 'r1', label: 'R@1' },
  { key: 'r5', label: 'R@5' },
  { key: 'r10', label: 'R@10' },
  { key: 'ndcg10', label: 'NDCG@10' },
  { key: 'mrr', label: 'MRR' },
  { key: 'complete10', label: 'Complete@10' },
];

/**
 * Maps every relevant id to its slot number. Each `alternatives` group is one slot; a relevant id
 * outside every group is a slot of its own. Members of a group count even when `relevant` does not
 * list them.
 */
export function relevantSlots(judgement: Judgement): { slotOf: Map<string, number>; slots: number } {
  const slotOf = new Map<string, number>();
  let slots = 0;
  for (const group of judgement.alternatives ?? []) {
    if (group.length === 0) continue;
    const existing = group.map((id) => slotOf.get(id)).find((slot) => slot !== undefined);
    const slot = existing ?? slots++;
    for (const id of group) slotOf.set(id, slot);
  }
  for (const id of judgement.relevant) {
    if (!slotOf.has(id)) slotOf.set(id, slots++);
  }
  return { slotOf, slots };
}

/** The metrics of one ranking (best first) against one query's judgement. */
export function scoreRanking(ranking: readonly string[], judgement: Judgement): MetricValues {
  const { slotOf, slots } = relevantSlots(judgement);
  if (slots === 0) throw new Error('A judgement needs at least one relevant tool.');
  const filled = new Set<number>();
  const seen = new Set<string>();
  let rank = 0;
  let firstRelevantRank = 0;
  let inTop1 = 0;
  let inTop5 = 0;
  let inTop10 = 0;
  let dcg = 0;
  for (const id of ranking) {
    if (seen.has(id)) continue; // a tool listed twice counts at its first place only
    seen.add(id);
    rank += 1;
    const slot = slotOf.get(id);
    if (slot === undefined) continue;
    if (firstRelevantRank === 0) firstRelevantRank = rank;
    if (filled.has(slot)) continue;
    filled.add(slot);
    if (rank <= 1) inTop1 += 1;
    if (rank <= 5) inTop5 += 1;
    if (rank <= 10) {
      inTop10 += 1;
      dcg += 1 / Math.log2(rank + 1);
    }
  }
  let idcg = 0;
  for (let i = 1; i <= Math.min(slots, 10); i++) idcg += 1 / Math.log2(i + 1);
  return {
    r1: (100 * inTop1) / slots,
    r5: (100 * inTop5) / slots,
    r10: (100 * inTop10) / slots,
    ndcg10: (100 * dcg) / idcg,
    mrr: firstRelevantRank === 0 ? 0 : 100 / firstRelevantRank,
    complete10: inTop10 === slots ? 100 : 0,
  };
}

/** The mean of per-query metrics; all zeros for an empty list. */
export function meanMetrics(values: readonly MetricValues[]): MetricValues {
  const sum: MetricValues = { r1: 0, r5: 0, r10: 0, ndcg10: 0, mrr: 0, complete10: 0 };
  for (const value of values) {
    for (const { key } of METRIC_COLUMNS) sum[key] += value[key];
  }
  if (values.length === 0) return sum;
  for (const { key } of METRIC_COLUMNS) sum[key] /= values.length;
  return sum;
}

/** Scores many rankings: `rankings[i]` is the ranking for `judgements[i]`. */
export function evaluate(rankings: readonly (readonly string[])[], judgements: readonly Judgement[]): MetricValues {
  if (rankings.length !== judgements.length) {
    throw new Error(`${rankings.length} rankings for ${judgements.length} judgements.`);
  }
  return meanMetrics(rankings.map((ranking, i) => scoreRanking(ranking, judgements[i]!)));
}
