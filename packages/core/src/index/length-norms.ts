// A field's BM25 length norms by document number, kept small enough to stay in a core's cache: a
// search reads one per posting, at the posting's document, so a table of 8 bytes per document (800 KB
// at 100,000 tools) missed the caches where a class of 2 bytes per document and a table per class do not.

/**
 * One field's length norm `k1 × (1 − b + b × length / average)` of every document: `norm[classOf[doc]]`
 * (the documents of one length share a class; class 0, norm 0: no document).
 */
export interface LengthNorms {
  /** Each document's class, by document number. */
  readonly classOf: Uint16Array | Uint32Array;
  /** Each class's norm, computed as the formula computes it, so that scores are the same to the bit. */
  readonly norm: Float64Array;
}

/** Lengths below this find their class in a table (above, in a map). */
const SMALL_LENGTHS = 4096;

/**
 * The length norms of documents numbered below `size`, `lengthOf(doc)` a document's length in the
 * field (undefined: no such document); `k1`, `b` and `average` as BM25 takes them.
 */
export function lengthNorms(
  size: number,
  lengthOf: (doc: number) => number | undefined,
  k1: number,
  b: number,
  average: number,
): LengthNorms {
  // (each length's class in a table while lengths are small, as they nearly all are; a map beyond)
  const classOfSmall = new Uint32Array(SMALL_LENGTHS);
  const classOfLength = new Map<number, number>();
  const norms: number[] = [0];
  const classes = new Uint32Array(size);
  for (let doc = 0; doc < size; doc++) {
    const length = lengthOf(doc);
    if (length === undefined) continue;
    const small = length < SMALL_LENGTHS;
    let found = small ? classOfSmall[length]! : (classOfLength.get(length) ?? 0);
    if (found === 0) {
      found = norms.length;
      if (small) classOfSmall[length] = found;
      else classOfLength.set(length, found);
      norms.push(k1 * (1 - b + (b * length) / average));
    }
    classes[doc] = found;
  }
  // (more than 65,536 distinct lengths in one field: never in a real catalog, but kept exact)
  const classOf = norms.length <= 0x10000 ? Uint16Array.from(classes) : classes;
  return { classOf, norm: Float64Array.from(norms) };
}
