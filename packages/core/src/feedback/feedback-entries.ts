// What learning from use keeps: per tool, the queries the model searched before calling it, each
// with a weight that grows with use, shrinks with time (a half-life) and counts a failed call less.
// The limits every store applies, and the one merge rule they share.
import { InvalidOptionError } from '../errors.js';
import { describeValue } from '../values.js';

/** How a call the model made after a search ended, as feedback weighs it. */
export type FeedbackOutcome = 'ok' | 'failed';

/** One learned query of one tool, as stored. */
export interface FeedbackEntry {
  /** The catalog tool's id. */
  toolId: string;
  /** The query text (lower case, spaces collapsed, at most `maxQueryLength` characters). */
  query: string;
  /** The evidence at `at`: the sum of its calls' outcome weights, each halved every half-life. */
  weight: number;
  /** When the entry was last reinforced (ms since the epoch). */
  at: number;
}

/** The bounds of what feedback keeps, resolved (see `FeedbackOptions`). */
export interface FeedbackLimits {
  maxQueryLength: number;
  maxQueriesPerTool: number;
  maxQueries: number;
  halfLifeMs: number;
  maxAgeMs: number;
}

/** The weight one call adds, by outcome: a call that failed counts a quarter of one that worked. */
export const OUTCOME_WEIGHTS: Readonly<Record<FeedbackOutcome, number>> = { ok: 1, failed: 0.25 };
/** The most evidence one entry holds: repeating a query for a tool stops adding past it. */
export const MAX_ENTRY_WEIGHT = 4;
/** Entries whose decayed weight falls below this are dropped. */
export const MIN_ENTRY_WEIGHT = 0.02;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The default bounds. */
export const DEFAULT_FEEDBACK_LIMITS: Readonly<FeedbackLimits> = Object.freeze({
  maxQueryLength: 256,
  maxQueriesPerTool: 32,
  maxQueries: 10_000,
  halfLifeMs: 30 * DAY_MS,
  maxAgeMs: 180 * DAY_MS,
});

/** A query as feedback keys it: lower case, whitespace collapsed, cut to `maxLength` characters. */
export function normalizeFeedbackQuery(query: string, maxLength: number): string {
  return query.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, maxLength).trim();
}

/** An entry's weight at `now`: halved every `halfLifeMs`; 0 past `maxAgeMs` since it was last reinforced. */
export function decayedWeight(entry: FeedbackEntry, now: number, limits: FeedbackLimits): number {
  const age = Math.max(0, now - entry.at);
  if (age > limits.maxAgeMs) return 0;
  return entry.weight * 0.5 ** (age / limits.halfLifeMs);
}

/**
 * One tool's entries after a call of it for `query` with `outcome`: the matching entry reinforced
 * (its decayed weight plus the outcome's, at most {@link MAX_ENTRY_WEIGHT}) or a new one; entries
 * decayed below {@link MIN_ENTRY_WEIGHT} dropped; the `maxQueriesPerTool` strongest kept.
 */
export function mergeFeedback(
  entries: readonly FeedbackEntry[],
  toolId: string,
  query: string,
  outcome: FeedbackOutcome,
  now: number,
  limits: FeedbackLimits,
): FeedbackEntry[] {
  const kept: FeedbackEntry[] = [];
  let reinforced = false;
  for (const entry of entries) {
    const weight = decayedWeight(entry, now, limits);
    if (entry.query === query) {
      kept.push({ toolId, query, weight: Math.min(MAX_ENTRY_WEIGHT, weight + OUTCOME_WEIGHTS[outcome]), at: now });
      reinforced = true;
    } else if (weight >= MIN_ENTRY_WEIGHT) {
      kept.push({ ...entry, weight, at: now });
    }
  }
  if (!reinforced) kept.push({ toolId, query, weight: OUTCOME_WEIGHTS[outcome], at: now });
  return kept.sort((a, b) => b.weight - a.weight).slice(0, limits.maxQueriesPerTool);
}

/** The most entries or tools read from a stored value, whatever it holds. */
export const MAX_STORED_ENTRIES = 100_000;

/**
 * Reads stored entries (a JSON array of `{ toolId, query, weight, at }`): anything else is dropped
 * entry by entry, so a corrupt or hostile value never reaches the ranking (whose own bounds apply
 * when the entries are indexed).
 */
export function parseFeedbackEntries(value: unknown): FeedbackEntry[] {
  if (!Array.isArray(value)) return [];
  const entries: FeedbackEntry[] = [];
  for (const item of value.slice(0, MAX_STORED_ENTRIES)) {
    if (typeof item !== 'object' || item === null) continue;
    const { toolId, query, weight, at } = item as Record<string, unknown>;
    if (typeof toolId !== 'string' || typeof query !== 'string' || query.length > 4096) continue;
    if (typeof weight !== 'number' || !(weight > 0 && weight <= MAX_ENTRY_WEIGHT)) continue;
    if (typeof at !== 'number' || !Number.isFinite(at)) continue;
    entries.push({ toolId, query, weight, at });
  }
  return entries;
}

/** Checks one numeric bound of `FeedbackOptions` (a whole number >= 1 unless `fractional`). */
export function feedbackBound(name: string, value: unknown, fallback: number, fractional = false): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === 'number' && Number.isFinite(value) && value > 0 && (fractional || Number.isSafeInteger(value));
  if (!ok) {
    const kind = fractional ? 'a finite number > 0' : 'a whole number >= 1';
    throw new InvalidOptionError(`feedback.${name}`, `feedback.${name} must be ${kind}; got ${describeValue(value)}.`);
  }
  return value as number;
}
