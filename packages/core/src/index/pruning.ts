// Dynamic pruning of a search: which of the tools a query touched can still be among the `wanted`
// best, decided from per-tool accumulators kept by document number, so that only those become
// candidates (a slot, an id, per-clause sums, their exact evidence). The argument:
//
// A tool's evidence (see the Scorer) is `E = mix + src + P`, where `S = Σ s(t)` over the query terms
// it matched (`m` of them, each `s(t) ≥ 0`), `whole = S × m^γ`, `mix = whole` for a one-clause query
// and `(1 − w) × whole + w × best` otherwise, `best = max over clauses c of S_c × m_c^γ`;
// `src = F × max(0, T − S)` (its source's factor and total), `P` its phrase evidence. Everything but
// `best` is known exactly from the per-tool accumulators (`S`, `m`, `P`; `T` and `F` per source).
// For `best`:
// - upper bound: each clause's `S_c` sums a subset of the same non-negative scores as `S` in the same
//   order and `m_c ≤ m`, so `S_c × m_c^γ ≤ whole` (rounding is monotone: the float sums keep the
//   order) and `best ≤ whole`;
// - lower bound: the clause holding the tool's single best term score `x` has `S_c ≥ x` and
//   `m_c^γ ≥ 1`, so `best ≥ x`.
// Both bounds are monotone in every piece of evidence (so a per-term weight multiplier, which only
// scales `s(t)`, keeps them safe). They are widened by 1e-9 of the parts' sizes against the last bit. Then
// with `θ` the `wanted`-th largest lower bound, a tool whose upper bound is below `θ` has `wanted`
// tools with strictly more evidence and cannot place (nor tie): only tools with an upper bound of
// at least `θ` are kept and scored exactly. For a one-clause query the bounds are the evidence
// itself, so the kept tools are the `wanted` best (and any tied with the last).

/** The relative widening of the bounds, far above the rounding error of the evidence's few steps. */
const SLACK = 1e-9;

/** Bounds are made in document order when the query touched more than one in this many documents. */
const SEQUENTIAL_SHARE = 8;

/**
 * Per document number, one search's accumulators: the sum of its term scores, how many query
 * terms it matched, its best single term score and its phrase evidence; plus, for a query of
 * several clauses, the log of every (document, term score) in term order, so that the clause sums
 * of the documents kept can be made afterwards. A stamp marks the documents of the running search,
 * so nothing is cleared between searches.
 */
export class QueryDocs {
  sum = new Float64Array(0);
  matched = new Uint16Array(0);
  top = new Float64Array(0);
  /** (0 but for the documents in `phrased`, so that a document first touched need not clear it) */
  phrase = new Float64Array(0);
  /** The documents given phrase evidence in this search (see {@link QueryDocs.addPhrase}). */
  readonly phrased: number[] = [];
  /** (2 bytes a document, to stay in a core's cache: cleared once every 65,535 searches) */
  mark = new Uint16Array(0);
  stamp = 0;
  /** The documents of the running search are numbered below this. */
  size = 0;
  /** The documents touched in this search, in the order first touched (`count` of them). */
  list = new Int32Array(0);
  count = 0;
  /** Scratch space of {@link keptDocs}: each touched document's upper bound, and the kept ones. */
  upper = new Float64Array(0);
  kept = new Int32Array(0);
  /** The log: `logDocs[i]`, `logScores[i]` (`logged` entries), each term's from `segments[t]`. */
  logDocs = new Int32Array(0);
  logScores = new Float64Array(0);
  logged = 0;
  readonly segments: number[] = [];

  /** Starts a search over documents numbered below `size`. */
  begin(size: number): void {
    for (const doc of this.phrased) this.phrase[doc] = 0;
    this.phrased.length = 0;
    if (this.sum.length < size) {
      const length = Math.max(size, 2 * this.sum.length, 256);
      this.sum = new Float64Array(length);
      this.matched = new Uint16Array(length);
      this.top = new Float64Array(length);
      this.phrase = new Float64Array(length);
      this.mark = new Uint16Array(length);
      this.list = new Int32Array(length);
      this.upper = new Float64Array(length);
      this.kept = new Int32Array(length);
      this.stamp = 0;
    }
    if (this.stamp === 0xffff) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    this.stamp += 1;
    this.size = size;
    this.count = 0;
    this.logged = 0;
    this.segments.length = 0;
  }

  /** Adds to a document's phrase evidence. */
  addPhrase(doc: number, evidence: number): void {
    if (this.phrase[doc] === 0) this.phrased.push(doc);
    this.phrase[doc]! += evidence;
  }

  /** Whether a document was touched in this search. */
  touched(doc: number): boolean {
    return this.mark[doc] === this.stamp;
  }

  /** Bits by document number: the documents {@link QueryDocs.replay} is given (all 0 between its calls). */
  #keptBits = new Uint32Array(0);

  /**
   * Calls `record` with each logged (document, term number, score) of the documents `kept`, in the
   * order logged (a bit per document, read per entry, where a lookup by document missed the caches).
   */
  replay(kept: Int32Array, record: (doc: number, term: number, score: number) => void): void {
    if (this.#keptBits.length * 32 < this.size) this.#keptBits = new Uint32Array(Math.ceil(this.size / 32) + 1);
    const bits = this.#keptBits;
    for (const doc of kept) bits[doc >>> 5]! |= 1 << (doc & 31);
    try {
      const { logDocs, logScores, segments } = this;
      for (let t = 0; t < segments.length; t++) {
        const end = t + 1 < segments.length ? segments[t + 1]! : this.logged;
        for (let i = segments[t]!; i < end; i++) {
          const doc = logDocs[i]!;
          if ((bits[doc >>> 5]! & (1 << (doc & 31))) !== 0) record(doc, t, logScores[i]!);
        }
      }
    } finally {
      for (const doc of kept) bits[doc >>> 5] = 0;
    }
  }

  /** Opens the next query term's part of the log, with room for `room` more entries. */
  nextTerm(room: number): void {
    this.segments.push(this.logged);
    if (this.logged + room <= this.logDocs.length) return;
    const length = Math.max(1024, 2 * (this.logged + room));
    const docs = new Int32Array(length);
    const scores = new Float64Array(length);
    docs.set(this.logDocs.subarray(0, this.logged));
    scores.set(this.logScores.subarray(0, this.logged));
    this.logDocs = docs;
    this.logScores = scores;
  }
}

/** What a search needs of a source: its factor and total (see the Scorer), by source number. */
export interface SourceEvidence {
  ofDoc: ArrayLike<number> | undefined;
  factor: Float64Array;
  total: Float64Array;
}

/** A factor of the whole evidence of the documents marked 1 in `asks` (the request's action, see `Scorer`). */
export interface ActionBoost {
  asks: Uint8Array;
  factor: number;
}

const NO_BOOST: ActionBoost = { asks: new Uint8Array(0), factor: 1 };

/**
 * The touched documents that can be among the `wanted` best (see the module comment), and `include`
 * if touched: all of them when `wanted` is at least their number.
 */
export function keptDocs(
  docs: QueryDocs,
  wanted: number,
  include: number,
  powers: Float64Array,
  clauseWeight: number,
  clauses: boolean,
  source: SourceEvidence,
  boost: ActionBoost = NO_BOOST,
): Int32Array {
  const count = docs.count;
  const all = docs.list.subarray(0, count);
  if (!(wanted < count)) return all;
  const upper = docs.upper;
  const heap = new KthLargest(Math.max(1, Math.floor(wanted)));
  const { sum, matched, top, phrase, mark, stamp, size } = docs;
  const { ofDoc, factor, total } = source;
  // In document order when the query touched many (the arrays are then read front to back, not at
  // random), else in the order touched; the tools whose upper bound reaches the threshold so far
  // (it only rises) are noted, to be checked against the final one.
  const inOrder = count * SEQUENTIAL_SHARE > size;
  const noted = docs.kept;
  let notedCount = 0;
  for (let i = 0, doc = -1; i < count; i++) {
    if (inOrder) {
      doc += 1;
      while (doc < size && mark[doc] !== stamp) doc += 1;
      if (doc >= size) break; // (never: `count` documents have the stamp)
    } else {
      doc = all[i]!;
    }
    const own = sum[doc]!;
    const whole = own * powers[matched[doc]!]!;
    const s = ofDoc === undefined ? -1 : ofDoc[doc]!;
    const rest = (s >= 0 ? factor[s]! * Math.max(0, total[s]! - own) : 0) + phrase[doc]!;
    // (the action boost multiplies the whole evidence, and both bounds with it: monotone)
    const f = boost.asks[doc] === 1 ? boost.factor : 1;
    let high: number;
    if (clauses) {
      // (a clause weight above 1 makes the first part negative: the margin is of the parts' sizes)
      const margin = SLACK * (Math.abs((1 - clauseWeight) * whole) + clauseWeight * whole + rest);
      high = f * ((1 - clauseWeight) * whole + clauseWeight * whole + rest + margin);
      heap.push(f * ((1 - clauseWeight) * whole + clauseWeight * top[doc]! + rest - margin));
    } else {
      const margin = SLACK * (whole + rest);
      high = f * (whole + rest + margin);
      heap.push(f * (whole + rest - margin));
    }
    if (high >= heap.value || doc === include) {
      upper[notedCount] = high;
      noted[notedCount++] = doc;
    }
  }
  const threshold = heap.value;
  let kept = 0;
  for (let i = 0; i < notedCount; i++) {
    if (upper[i]! >= threshold || noted[i] === include) noted[kept++] = noted[i]!;
  }
  return noted.subarray(0, kept);
}

/** The `k`-th largest of the numbers pushed (-Infinity while fewer than `k`): a min-heap of the `k` largest. */
export class KthLargest {
  readonly #heap: Float64Array;
  #size = 0;

  constructor(readonly k: number) {
    this.#heap = new Float64Array(k);
  }

  get value(): number {
    return this.#size < this.k ? Number.NEGATIVE_INFINITY : this.#heap[0]!;
  }

  push(value: number): void {
    const heap = this.#heap;
    if (this.#size < this.k) {
      let i = this.#size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= value) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = value;
      return;
    }
    if (value <= heap[0]!) return;
    let i = 0;
    const size = this.#size;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && heap[child + 1]! < heap[child]!) child += 1;
      if (heap[child]! >= value) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = value;
  }
}
