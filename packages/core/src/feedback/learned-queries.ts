// The learned-query index: per tool, the terms of the queries the model searched before calling it
// that the tool's own indexed text lacks (the words users say that its text does not: "rain" for a
// weather forecast), each weighted by its entries' decayed evidence. A learned term the tool has
// already is left out: the keyword ranking rewards it, and counting it again would lift every
// sibling that shares it (a "list" tool's learned queries name the service its "get" sibling serves
// too). Scored apart from the keyword index (after its search), and fused with its score by
// `fuseFeedback`, so a tool the keyword ranking misses can still be found through what was learned.
import { tokenizeQuery } from '../text/tokenize.js';
import { decayedWeight, type FeedbackEntry, type FeedbackLimits } from './feedback-entries.js';

/** The most distinct terms taken from one query (learned or searched). */
export const MAX_FEEDBACK_TERMS = 32;
/**
 * Evidence at which a term's support for a tool is half its most: one call that worked gives 1/3,
 * so rare evidence counts little and it takes several threads agreeing to move a ranking far.
 */
const SATURATION = 2;
/** Learned scores below this are not candidates. */
const MIN_LEARNED_SCORE = 0.05;

/** A query's distinct terms, at most {@link MAX_FEEDBACK_TERMS}. */
function termsOf(query: string): string[] {
  return [...new Set(tokenizeQuery(query))].slice(0, MAX_FEEDBACK_TERMS);
}

/** Learned queries as an inverted index: term -> the tools whose learned queries hold it, with their evidence. */
export class LearnedQueries {
  /** Per tool, its learned terms and their evidence. */
  readonly #byTool = new Map<string, Map<string, number>>();
  readonly #postings = new Map<string, Map<string, number>>();
  readonly #limits: FeedbackLimits;
  readonly #ownTerms: (toolId: string) => ReadonlySet<string> | undefined;
  readonly #termCache: Map<string, readonly string[]>;

  /**
   * Indexes `entries` as they weigh at `now`, the strongest first within the limits, each without
   * the terms its tool's own text has (`ownTerms`; undefined: a tool no longer in the catalog, left
   * out); `termCache` keeps each query's terms for the next build.
   */
  constructor(
    entries: readonly FeedbackEntry[],
    now: number,
    limits: FeedbackLimits,
    ownTerms: (toolId: string) => ReadonlySet<string> | undefined,
    termCache: Map<string, readonly string[]> = new Map(),
  ) {
    this.#limits = limits;
    this.#ownTerms = ownTerms;
    this.#termCache = termCache;
    const kept = entries
      .map((entry) => ({ entry, weight: decayedWeight(entry, now, limits) }))
      .filter((item) => item.weight > 0)
      .sort((a, b) => b.weight - a.weight)
      .slice(0, limits.maxQueries);
    const byTool = new Map<string, { entry: FeedbackEntry; weight: number }[]>();
    for (const item of kept) byTool.set(item.entry.toolId, [...(byTool.get(item.entry.toolId) ?? []), item]);
    for (const [toolId, items] of byTool) this.#add(toolId, items);
  }

  /** Replaces what is indexed for one tool by `entries` as they weigh at `now` (a record or a clear of this process). */
  replaceTool(toolId: string, entries: readonly FeedbackEntry[], now: number): void {
    for (const term of this.#byTool.get(toolId)?.keys() ?? []) {
      const tools = this.#postings.get(term);
      tools?.delete(toolId);
      if (tools?.size === 0) this.#postings.delete(term);
    }
    this.#byTool.delete(toolId);
    const items = entries.map((entry) => ({ entry, weight: decayedWeight(entry, now, this.#limits) }));
    this.#add(
      toolId,
      items.filter((item) => item.weight > 0),
    );
  }

  #add(toolId: string, items: readonly { entry: FeedbackEntry; weight: number }[]): void {
    const own = this.#ownTerms(toolId);
    if (own === undefined) return;
    const terms = new Map<string, number>();
    for (const { entry, weight } of items) {
      const query = entry.query.slice(0, this.#limits.maxQueryLength);
      const queryTerms = this.#termCache.get(query) ?? termsOf(query);
      this.#termCache.set(query, queryTerms);
      for (const term of queryTerms) if (!own.has(term)) terms.set(term, (terms.get(term) ?? 0) + weight);
    }
    if (terms.size === 0) return;
    this.#byTool.set(toolId, terms);
    for (const [term, evidence] of terms) {
      const tools = this.#postings.get(term) ?? new Map<string, number>();
      this.#postings.set(term, tools);
      tools.set(toolId, evidence);
    }
  }

  /** How many tools have learned queries. */
  get tools(): number {
    return this.#byTool.size;
  }

  /**
   * The tools whose learned queries match `query`, best first, at most `limit`: each scored in
   * [0, 1] as the share of the query's term weight (IDF among the tools with learned queries) its
   * learned terms cover, each term counted by its saturated evidence `e / (e + 2)`.
   */
  score(query: string, limit: number): Map<string, number> {
    const terms = termsOf(query);
    if (terms.length === 0 || this.#byTool.size === 0) return new Map();
    const n = this.#byTool.size;
    const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    let total = 0;
    const sums = new Map<string, number>();
    for (const term of terms) {
      const tools = this.#postings.get(term);
      const weight = idf(tools?.size ?? 0);
      total += weight;
      for (const [toolId, evidence] of tools ?? []) {
        sums.set(toolId, (sums.get(toolId) ?? 0) + (weight * evidence) / (evidence + SATURATION));
      }
    }
    const scored = [...sums]
      .map(([toolId, sum]) => [toolId, sum / total] as const)
      .filter(([, score]) => score >= MIN_LEARNED_SCORE)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new Map(scored.slice(0, limit));
  }
}

/**
 * A keyword score with learned evidence added: `1 − (1 − keyword) × e^(−weight × learned)`, an
 * absolute score still (a tool with no learned evidence keeps its own; with full evidence its
 * distance to 1 shrinks by `e^−weight` at most, which bounds what any feedback can do).
 */
export function fuseFeedback(keyword: number, learned: number, weight: number): number {
  return 1 - (1 - keyword) * Math.exp(-weight * learned);
}
