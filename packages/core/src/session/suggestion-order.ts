// The order of "did you mean" suggestions: a close misspelling of the name the model used comes
// before the search's other hits, whatever their scores (`everything__get-summ` suggests
// `everything__get-sum` before `everything__get-env`, which the search ranks alike).
import { editDistance } from '../text/edit-distance.js';

/** Candidates the search is asked for before the best `limit` are picked. */
export const SUGGESTION_CANDIDATES = 12;

/** The most edits (a quarter of the name's length, at least 2) that still make a misspelling. */
function maxEdits(name: string): number {
  return Math.max(2, Math.floor(name.length / 4));
}

/**
 * The best `limit` of `candidates` (in the search's order) to suggest for `name`: close misspellings
 * of it first, fewest edits first, then the rest in the search's order.
 */
export function orderSuggestions<T>(
  name: string,
  candidates: readonly T[],
  toolName: (candidate: T) => string,
  limit: number,
): T[] {
  const max = maxEdits(name);
  return candidates
    .map((candidate, rank) => ({ candidate, rank, edits: editDistance(name, toolName(candidate), max) }))
    .sort((a, b) => Math.min(a.edits, max + 1) - Math.min(b.edits, max + 1) || a.rank - b.rank)
    .slice(0, limit)
    .map((entry) => entry.candidate);
}
