// Prefix and typo lookups over a vocabulary in sorted order: what an index answers them with until it
// first changes (then its radix tree takes over), so that a fresh process's first search does not
// insert every term into a tree first. An index loaded from its binary form has the order in it; a
// built one sorts its terms on its first lookup.
import type { TermEntry } from './keyword-index.js';

/** Code-unit order, as `<` compares strings. */
function compare(a: TermEntry, b: TermEntry): number {
  return a.term < b.term ? -1 : a.term > b.term ? 1 : 0;
}

/**
 * A vocabulary's terms sorted once: {@link SortedVocabulary.atPrefix} is a range found by binary
 * search, and {@link SortedVocabulary.fuzzyGet} walks the terms as the radix tree would (the
 * Levenshtein rows of a shared prefix computed once, every term under a prefix already too far
 * skipped at once). Both find the same terms as MiniSearch's `SearchableMap`, with the same edit
 * distances. It does not follow changes: the index drops it at its first.
 */
export class SortedVocabulary {
  readonly #terms: string[];
  readonly #entries: TermEntry[];

  /** How many units each term shares with the one before it (0 for the first), made on the first typo lookup. */
  #shared: Int32Array | undefined;
  /** The length of the longest term, found with {@link SortedVocabulary.#shared}. */
  #longest = 0;

  /** @param sorted - the entries in code-unit order of their terms (checked by the caller). */
  constructor(sorted: readonly TermEntry[]) {
    this.#entries = [...sorted];
    this.#terms = sorted.map((entry) => entry.term);
  }

  /** The entries sorted here (in a fresh process, a third of the time of the radix tree's inserts). */
  static sorting(entries: Iterable<TermEntry>): SortedVocabulary {
    return new SortedVocabulary([...entries].sort(compare));
  }

  /** How many terms it holds. */
  get size(): number {
    return this.#terms.length;
  }

  /** The terms that start with `prefix` (itself included), in code-unit order. */
  atPrefix(prefix: string): [string, TermEntry][] {
    const found: [string, TermEntry][] = [];
    const terms = this.#terms;
    for (let i = this.#lowerBound(prefix); i < terms.length && terms[i]!.startsWith(prefix); i++) {
      found.push([terms[i]!, this.#entries[i]!]);
    }
    return found;
  }

  /**
   * The terms within `maxDistance` edits (Levenshtein, in UTF-16 units) of `query`, with their
   * distance. The rows of the edit distances are computed for each term from the first unit it does
   * not share with the term before it, and only within `maxDistance` of the diagonal (the cells
   * outside stay `maxDistance + 1`: too far), as MiniSearch's tree computes them; a range of terms
   * with a prefix already too far is skipped by the counts of shared units, read in one pass.
   */
  fuzzyGet(query: string, maxDistance: number): Map<string, [TermEntry, number]> {
    const results = new Map<string, [TermEntry, number]>();
    const terms = this.#terms;
    const shared = this.#sharedUnits();
    const count = terms.length;
    const n = query.length + 1;
    // (no term longer than this is within reach, nor longer than the longest: the rows' memory
    // stays in proportion to the query's length, not to its square)
    const maxLength = Math.min(query.length + maxDistance, this.#longest);
    const rows = new Int32Array((maxLength + 1) * n).fill(maxDistance + 1);
    for (let j = 0; j < n; j++) rows[j] = j;
    for (let row = 1; row <= maxLength; row++) rows[row * n] = row;
    const units = new Int32Array(query.length);
    for (let j = 0; j < query.length; j++) units[j] = query.charCodeAt(j);
    // The rows computed so far are those of the first `valid` units of the last term read, which
    // shares `common` units with the term read now.
    let valid = 0;
    let common = 0;
    let i = 0;
    while (i < count) {
      const term = terms[i]!;
      const last = Math.min(term.length, maxLength);
      let skipFrom = 0;
      for (let row = Math.min(common, valid) + 1; row <= last; row++) {
        const unit = term.charCodeAt(row - 1);
        const at = row * n;
        const above = at - n;
        let least = rows[at]!;
        const to = Math.min(n - 1, row + maxDistance);
        for (let j = Math.max(0, row - maxDistance - 1); j < to; j++) {
          const replace = rows[above + j]! + (units[j] === unit ? 0 : 1);
          const remove = rows[above + j + 1]! + 1;
          const insert = rows[at + j]! + 1;
          let distance = replace < remove ? replace : remove;
          if (insert < distance) distance = insert;
          rows[at + j + 1] = distance;
          if (distance < least) least = distance;
        }
        // (a row's least distance never falls again further down: every term under this prefix is too far)
        if (least > maxDistance) {
          skipFrom = row;
          valid = row;
          break;
        }
      }
      if (skipFrom === 0) {
        valid = last;
        if (term.length <= maxLength) {
          const distance = rows[term.length * n + n - 1]!;
          if (distance <= maxDistance) results.set(term, [this.#entries[i]!, distance]);
          i++;
          common = i < count ? shared[i]! : 0;
          continue;
        }
        // (the terms after it that start with its first maxLength + 1 units are all too long)
        skipFrom = maxLength + 1;
      }
      // The terms after it that share its first `skipFrom` units (they come next) are skipped.
      i++;
      while (i < count && shared[i]! >= skipFrom) i++;
      common = i < count ? shared[i]! : 0;
    }
    return results;
  }

  /**
   * {@link SortedVocabulary.#shared}, counted now if not yet (not when the index loads: a load that
   * no typo lookup follows does not pay for it).
   */
  #sharedUnits(): Int32Array {
    if (this.#shared !== undefined) return this.#shared;
    const terms = this.#terms;
    const shared = new Int32Array(terms.length);
    this.#longest = terms[0]?.length ?? 0;
    for (let i = 1; i < terms.length; i++) {
      const before = terms[i - 1]!;
      const term = terms[i]!;
      const limit = Math.min(before.length, term.length);
      let units = 0;
      while (units < limit && before.charCodeAt(units) === term.charCodeAt(units)) units++;
      shared[i] = units;
      if (term.length > this.#longest) this.#longest = term.length;
    }
    this.#shared = shared;
    return shared;
  }

  /** The position of the first term not below `key`. */
  #lowerBound(key: string): number {
    const terms = this.#terms;
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (terms[middle]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
