/**
 * The edits (insert, delete, replace, and with `swaps` a swap of two neighbours) from `a` to `b`,
 * case-insensitive, or `max + 1` once it is sure to be over `max`. Costs at most
 * `a.length * b.length` steps. Without `swaps` it is the Levenshtein distance the index's typo
 * lookups use (a swap counts two edits there).
 */
export function editDistance(a: string, b: string, max: number, swaps = true): number {
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
      if (swaps && i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[t.length]!, max + 1);
}
