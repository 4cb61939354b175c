// The order of "did you mean" suggestions: a close misspelling of the name the model used comes
// before the search's other hits, whatever their scores (`everything__get-summ` suggests
// `everything__get-sum` before `everything__get-env`, which the search ranks alike).

/** Candidates the search is asked for before the best `limit` are picked. */
export const SUGGESTION_CANDIDATES = 12;

/** The most edits (a quarter of the name's length, at least 2) that still make a misspelling. */
function maxEdits(name: string): number {
  return Math.max(2, Math.floor(name.length / 4));
}

/**
 * The edits (insert, delete, replace, swap two neighbours) from `a` to `b`, case-insensitive, or
 * `max + 1` once it is sure to be over `max`. Costs at most `a.length * b.length` steps.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[t.length]!;
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
