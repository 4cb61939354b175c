// A term's postings in one field, packed in typed arrays (see {@link Postings}).

/**
 * The documents holding a term in one field, with the term's frequency in each: `length` document
 * numbers, ascending, at `data[docsAt]` on, and their frequencies at `data[freqsAt]` on. A built or
 * loaded index packs every list into one shared buffer (8 bytes a posting, a few dozen a list,
 * where plain arrays took 16 and over a hundred); a list that an update lengthens moves to a buffer
 * of its own with room to grow. Its room is `freqsAt - docsAt` postings (a packed list has none to
 * spare); no other list uses it.
 */
export interface Postings {
  data: Int32Array;
  docsAt: number;
  freqsAt: number;
  length: number;
}

/** An empty list with room for a few postings. */
export function emptyPostings(room = 4): Postings {
  return { data: new Int32Array(room * 2), docsAt: 0, freqsAt: room, length: 0 };
}

/** A list of its own holding `docs` (ascending) and their `freqs`. */
export function postingsOf(docs: ArrayLike<number>, freqs: ArrayLike<number>): Postings {
  const postings = emptyPostings(docs.length);
  postings.data.set(docs, 0);
  postings.data.set(freqs, docs.length);
  postings.length = docs.length;
  return postings;
}

/** Postings `i`'s document number. */
export function docAt(postings: Postings, i: number): number {
  return postings.data[postings.docsAt + i]!;
}

/** Postings `i`'s term frequency. */
export function freqAt(postings: Postings, i: number): number {
  return postings.data[postings.freqsAt + i]!;
}

/** The document numbers as a plain array (for JSON and tests). */
export function postingDocs(postings: Postings): number[] {
  return Array.from(postings.data.subarray(postings.docsAt, postings.docsAt + postings.length));
}

/** The term frequencies as a plain array (for JSON and tests). */
export function postingFreqs(postings: Postings): number[] {
  return Array.from(postings.data.subarray(postings.freqsAt, postings.freqsAt + postings.length));
}

/** Position of `doc` in the postings (binary search), or -1. */
export function findDoc(postings: Postings, doc: number): number {
  const { data, docsAt } = postings;
  let low = 0;
  let high = postings.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = data[docsAt + middle]!;
    if (value === doc) return middle;
    if (value < doc) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Appends a posting (a document above all the list's), moving the list to a bigger buffer when full. */
export function appendPosting(postings: Postings, doc: number, freq: number): void {
  const { length } = postings;
  if (length === postings.freqsAt - postings.docsAt) {
    const room = Math.max(4, length * 2);
    const data = new Int32Array(room * 2);
    data.set(postings.data.subarray(postings.docsAt, postings.docsAt + length), 0);
    data.set(postings.data.subarray(postings.freqsAt, postings.freqsAt + length), room);
    postings.data = data;
    postings.docsAt = 0;
    postings.freqsAt = room;
  }
  postings.data[postings.docsAt + length] = doc;
  postings.data[postings.freqsAt + length] = freq;
  postings.length = length + 1;
}

/** Removes posting `at` (within the list's own room: the postings after it move down one). */
export function removePosting(postings: Postings, at: number): void {
  const { data, docsAt, freqsAt, length } = postings;
  data.copyWithin(docsAt + at, docsAt + at + 1, docsAt + length);
  data.copyWithin(freqsAt + at, freqsAt + at + 1, freqsAt + length);
  postings.length = length - 1;
}
