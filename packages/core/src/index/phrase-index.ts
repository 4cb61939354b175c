// Phrase matching: two query terms found side by side, in either order, in a line of a tool's name
// or description. Rather than indexing every pair of neighbouring words (a pair vocabulary as big
// as the word vocabulary, built for every tool), each document keeps its lines as the ids of its
// keyword index entries, and a query pair is matched at search time among the documents that have
// both words.
import { describeNumber, isCount, isMeanOf } from '../values.js';
import type { Postings, TermEntry } from './keyword-index.js';
import { INDEX_FIELDS } from './tool-document.js';

const NAME_FIELD = INDEX_FIELDS.indexOf('name');
const DESCRIPTION_FIELD = INDEX_FIELDS.indexOf('description');

/** How many pairs' matches a {@link PhraseIndex} keeps at most (the cache then starts over). */
const MAX_CACHED_PAIRS = 4096;
/** How many documents the kept matches hold at most (8 bytes each; the cache then starts over). */
const MAX_CACHED_PAIR_DOCS = 250_000;

/** The documents where a pair stands side by side (ascending or not) and how often in each. */
export interface PairMatches {
  readonly docs: Int32Array;
  readonly freqs: Int32Array;
}

/** How many documents a term's phrase lines may be in (its name and description postings). */
function phraseCandidates(entry: TermEntry): number {
  return (entry.fields[NAME_FIELD]?.length ?? 0) + (entry.fields[DESCRIPTION_FIELD]?.length ?? 0);
}

/** How many postings some postings lists have. */
function postingCount(lists: readonly (Postings | undefined)[]): number {
  let count = 0;
  for (const postings of lists) count += postings?.length ?? 0;
  return count;
}

/** Throws the error of a malformed phrase section, naming what is malformed. */
function fail(what: string): never {
  throw new Error(`malformed phrase section: ${what}`);
}

/** A document's name and description lines as keyword entry ids, -1 between two lines. */
export type PhraseLines = Int32Array;

/** A {@link PhraseIndex} as plain JSON (see {@link PhraseIndex.toJSON}). */
export interface SerializedPhraseIndex {
  /** The average number of distinct pairs per document (as kept incrementally). */
  average: number;
  /** `[document number, distinct pairs, lines]`, the lines' terms as positions, -1 between lines. */
  documents: [number, number, number[]][];
}

/**
 * A set of unordered term pairs for {@link distinctPairCount}: open addressing over typed arrays,
 * emptied in constant time by a new stamp, so that counting a line's pairs is linear in its length.
 */
class PairSet {
  #firsts = new Int32Array(256);
  #seconds = new Int32Array(256);
  /** The stamp of the count that filled each slot (a slot of another stamp is empty). */
  #stamps = new Int32Array(256);
  #stamp = 0;
  #mask = 255;
  size = 0;

  /** Empties the set, with room for `capacity` pairs at most half full. */
  reset(capacity: number): void {
    this.size = 0;
    if (capacity * 2 > this.#stamps.length) {
      let slots = this.#stamps.length;
      while (slots < capacity * 2) slots *= 2;
      this.#firsts = new Int32Array(slots);
      this.#seconds = new Int32Array(slots);
      this.#stamps = new Int32Array(slots);
      this.#mask = slots - 1;
      this.#stamp = 0;
    }
    if (this.#stamp === 0x7fffffff) {
      this.#stamps.fill(0);
      this.#stamp = 0;
    }
    this.#stamp += 1;
  }

  /** Adds the pair `first < second` (nothing when it is in the set already). */
  add(first: number, second: number): void {
    const stamps = this.#stamps;
    const stamp = this.#stamp;
    let slot = Math.imul(Math.imul(first, 0x9e3779b1) ^ second, 0x85ebca6b) & this.#mask;
    while (stamps[slot] === stamp) {
      if (this.#firsts[slot] === first && this.#seconds[slot] === second) return;
      slot = (slot + 1) & this.#mask;
    }
    stamps[slot] = stamp;
    this.#firsts[slot] = first;
    this.#seconds[slot] = second;
    this.size += 1;
  }
}

const seenPairs = new PairSet();

/** How many distinct pairs of different neighbouring terms the lines hold (`a b`, `b a` count once). */
export function distinctPairCount(lines: PhraseLines, start = 0, end = lines.length): number {
  seenPairs.reset(end - start);
  for (let i = start; i + 1 < end; i++) {
    const a = lines[i]!;
    const b = lines[i + 1]!;
    if (a < 0 || b < 0 || a === b) continue;
    seenPairs.add(Math.min(a, b), Math.max(a, b));
  }
  return seenPairs.size;
}

/**
 * Each document's lines and the statistics BM25 needs to score a pair as a field of its own: the
 * document's length (its distinct pairs) and their running average, kept exactly as the keyword
 * index keeps its fields' (so that scores are those of a field of pair terms, to the last bit).
 */
export class PhraseIndex {
  /**
   * The lines of the documents 0 to `#bulkCount - 1` of a built or loaded index, one after another
   * in one buffer (document `d`'s from `#starts[d]` to `#starts[d + 1]`), and whether each is still
   * in the index: no array per document (100,000 of them held 10 MB).
   */
  #bulk: Int32Array = new Int32Array(0);
  #starts: Int32Array = new Int32Array(1);
  #alive: Uint8Array = new Uint8Array(0);
  #bulkCount = 0;
  /** The lines of each document added one by one since (by {@link PhraseIndex.add}). */
  readonly #lines: (PhraseLines | undefined)[] = [];
  #lengths: number[] = [];
  #average = 0;
  #count = 0;
  /** The pairs of the documents loaded so far (only while loading). */
  #total = 0;

  /** How many documents the index holds. */
  get size(): number {
    return this.#count;
  }

  /** Whether a document number is in the index. */
  has(doc: number): boolean {
    return (doc < this.#bulkCount && this.#alive[doc] === 1) || this.#lines[doc] !== undefined;
  }

  /** The average number of distinct pairs per document. */
  get average(): number {
    return this.#average;
  }

  /** A document's number of distinct pairs. */
  length(doc: number): number {
    return this.#lengths[doc] ?? 0;
  }

  /** Adds a document's lines under its (new) document number; `length` is {@link distinctPairCount}'s. */
  add(doc: number, lines: PhraseLines, length = distinctPairCount(lines)): void {
    if (this.has(doc)) throw new Error(`PhraseIndex: document ${doc} added twice`);
    this.#forgetPairs();
    this.#lines[doc] = lines;
    this.#lengths[doc] = length;
    this.#count += 1;
    const previous = this.#count - 1;
    this.#average = (this.#average * previous + length) / (previous + 1);
  }

  /** Removes a document (nothing when absent). */
  remove(doc: number): void {
    if (!this.has(doc)) return;
    this.#forgetPairs();
    const count = this.#count;
    this.#average = count === 1 ? 0 : (this.#average * count - this.#lengths[doc]!) / (count - 1);
    if (this.#lines[doc] !== undefined) this.#lines[doc] = undefined;
    else this.#alive[doc] = 0;
    this.#count -= 1;
  }

  /** The matches of recent pairs, by their entries' ids (`low,high`), until a document comes or goes. */
  readonly #pairs = new Map<string, PairMatches>();
  #pairDocs = 0;

  #forgetPairs(): void {
    this.#pairs.clear();
    this.#pairDocs = 0;
  }

  /**
   * The documents where the terms of the entries `first` and `second` stand side by side, and how
   * often ({@link PhraseIndex.matches} among the rarer one's documents, `seen` and `stamp` as there),
   * kept for the next query with the pair until a document comes or goes.
   */
  pairMatches(first: TermEntry, second: TermEntry, seen: Int32Array | Uint16Array, stamp: number): PairMatches {
    const key = first.id < second.id ? `${first.id},${second.id}` : `${second.id},${first.id}`;
    const cached = this.#pairs.get(key);
    if (cached !== undefined) return cached;
    const rarer = phraseCandidates(first) <= phraseCandidates(second) ? first : second;
    const other = rarer === first ? second : first;
    const docs: number[] = [];
    const freqs: number[] = [];
    const candidates = [rarer.fields[NAME_FIELD], rarer.fields[DESCRIPTION_FIELD]];
    this.matches(
      first.id,
      second.id,
      candidates,
      [other.fields[NAME_FIELD], other.fields[DESCRIPTION_FIELD]],
      seen,
      stamp,
      docs,
      freqs,
    );
    const found = { docs: Int32Array.from(docs), freqs: Int32Array.from(freqs) };
    if (this.#pairs.size >= MAX_CACHED_PAIRS || this.#pairDocs + docs.length > MAX_CACHED_PAIR_DOCS)
      this.#forgetPairs();
    if (docs.length <= MAX_CACHED_PAIR_DOCS / 8) {
      this.#pairs.set(key, found);
      this.#pairDocs += docs.length;
    }
    return found;
  }

  /**
   * The documents where the entries `a` and `b` (ids) stand side by side, in either order, and how
   * often, in `docs` and `freqs`. `candidates` are postings of one of the two terms that cover every
   * line it is in (its name and description postings), `others` those of the other term: a line
   * can have the pair only in a document of both. `seen` marks documents: `stamp - 1` those of
   * `others` (when it pays to mark them), `stamp` those looked at.
   */
  matches(
    a: number,
    b: number,
    candidates: readonly (Postings | undefined)[],
    others: readonly (Postings | undefined)[],
    seen: Int32Array | Uint16Array,
    stamp: number,
    docs: number[],
    freqs: number[],
  ): void {
    // Marking the other term's documents costs one write each, and spares scanning the lines of
    // every candidate without it: worth it unless the other term is far more common.
    const inOthers = stamp - 1;
    const filter = postingCount(others) < postingCount(candidates) * (this.#average + 1);
    if (filter) {
      for (const postings of others) {
        if (postings === undefined) continue;
        const { data, docsAt, length } = postings;
        for (let i = docsAt; i < docsAt + length; i++) seen[data[i]!] = inOthers;
      }
    }
    for (const postings of candidates) {
      if (postings === undefined) continue;
      const { data, docsAt, length } = postings;
      for (let p = docsAt; p < docsAt + length; p++) {
        const doc = data[p]!;
        const mark = seen[doc];
        if (mark === stamp || (filter && mark !== inOthers)) continue;
        seen[doc] = stamp;
        let lines = this.#bulk;
        let start = 0;
        let end = 0;
        if (doc < this.#bulkCount && this.#alive[doc] === 1) {
          start = this.#starts[doc]!;
          end = this.#starts[doc + 1]!;
        } else {
          const own = this.#lines[doc];
          if (own === undefined) continue;
          lines = own;
          end = own.length;
        }
        let freq = 0;
        for (let i = start; i + 1 < end; i++) {
          const x = lines[i];
          if (x !== a && x !== b) continue;
          const y = lines[i + 1];
          if ((x === a && y === b) || (x === b && y === a)) freq += 1;
        }
        if (freq > 0) {
          docs.push(doc);
          freqs.push(freq);
        }
      }
    }
  }

  /**
   * The index as plain JSON, each entry id written as `positionOf(id)` and each document number as
   * `numberOf(doc)` (which must keep their order).
   */
  toJSON(positionOf: (id: number) => number, numberOf: (doc: number) => number = (doc) => doc): SerializedPhraseIndex {
    const documents: [number, number, number[]][] = [];
    const each = (doc: number) => {
      const lines =
        this.#lines[doc] ??
        (doc < this.#bulkCount && this.#alive[doc] === 1
          ? this.#bulk.subarray(this.#starts[doc]!, this.#starts[doc + 1]!)
          : undefined);
      if (lines !== undefined) {
        const positions = Array.from(lines, (id) => (id < 0 ? -1 : positionOf(id)));
        documents.push([numberOf(doc), this.#lengths[doc]!, positions]);
      }
    };
    for (let doc = 0; doc < this.#bulkCount; doc++) each(doc);
    this.#lines.forEach((_, doc) => {
      if (doc >= this.#bulkCount) each(doc);
    });
    return { average: this.#average, documents };
  }

  /**
   * Rebuilds an index from {@link PhraseIndex.toJSON}, the entry id of each written position from
   * `idAt` (undefined: no such term), checking every number: document numbers below
   * `documentCount` in ascending order, lengths that are the lines' {@link distinctPairCount}, an
   * average that is their mean. Throws an `Error` naming what is malformed.
   */
  static fromJSON(
    value: unknown,
    idAt: (position: number) => number | undefined,
    documentCount = Number.MAX_SAFE_INTEGER,
  ): PhraseIndex {
    if (typeof value !== 'object' || value === null) return fail('not an object');
    const json = value as Partial<SerializedPhraseIndex>;
    if (typeof json.average !== 'number' || !Number.isFinite(json.average)) fail('average is not a number');
    if (!Array.isArray(json.documents)) return fail('documents missing');
    const index = new PhraseIndex();
    let previous = -1;
    for (const item of json.documents as unknown[]) {
      if (!Array.isArray(item) || item.length !== 3) return fail('document entry: expected [number, pairs, lines]');
      const [doc, length, positions] = item as unknown[];
      if (!isCount(doc) || doc <= previous || doc >= documentCount) {
        return fail(`document number ${describeNumber(doc)} is not a document number above the one before`);
      }
      previous = doc;
      if (!Array.isArray(positions)) return fail(`lines of document ${doc} are not an array`);
      const lines = new Int32Array(positions.length);
      for (let i = 0; i < positions.length; i++) {
        const position: unknown = positions[i];
        const id = position === -1 ? -1 : isCount(position) ? idAt(position) : undefined;
        if (id === undefined) return fail(`term ${describeNumber(position)} of document ${doc} is not a term position`);
        lines[i] = id;
      }
      index.#put(doc, lines, length);
    }
    index.#checkAverage(json.average!);
    return index;
  }

  /**
   * An index of the documents 0 to `starts.length - 2`, document `d`'s lines (entry ids, -1 between
   * lines) being `buffer[starts[d]]` to `buffer[starts[d + 1] - 1]` (kept, not copied), as if each
   * were {@link PhraseIndex.add}ed in turn; throws an `Error` naming what is malformed.
   */
  static fromBuffer(buffer: Int32Array, starts: Int32Array): PhraseIndex {
    const count = starts.length - 1;
    const lengths = new Array<number>(count);
    let average = 0;
    for (let doc = 0; doc < count; doc++) {
      const from = starts[doc]!;
      const to = starts[doc + 1]!;
      if (!(from <= to && to <= buffer.length)) fail(`the lines of document ${doc} are out of range`);
      const pairs = distinctPairCount(buffer, from, to);
      lengths[doc] = pairs;
      // (the running average, as `add` keeps it: a built index's must be that of one built by adds)
      average = (average * doc + pairs) / (doc + 1);
    }
    const index = PhraseIndex.#ofBuffer(buffer, starts, lengths);
    index.#average = average;
    return index;
  }

  /**
   * A loaded index of lines as {@link PhraseIndex.fromBuffer} takes them, with each document's
   * written number of pairs (`lengths`, which the caller checked to be one its lines can hold, and
   * their `total`), and the written `average`, checked here to be their mean (else an `Error`).
   * (The pairs are taken as written: a count off, past the integrity check, can only change how a
   * document's phrases score, and counting every document's was a fifth of a load.)
   */
  static loaded(
    buffer: Int32Array,
    starts: Int32Array,
    lengths: number[],
    total: number,
    average: number,
  ): PhraseIndex {
    const index = PhraseIndex.#ofBuffer(buffer, starts, lengths);
    index.#total = total;
    index.#checkAverage(average);
    return index;
  }

  /** An index of the lines of `buffer` (see {@link PhraseIndex.fromBuffer}), their documents' pairs `lengths`. */
  static #ofBuffer(buffer: Int32Array, starts: Int32Array, lengths: number[]): PhraseIndex {
    const count = starts.length - 1;
    const index = new PhraseIndex();
    index.#bulk = buffer;
    index.#starts = starts;
    index.#alive = new Uint8Array(count).fill(1);
    index.#bulkCount = count;
    index.#lengths = lengths;
    index.#count = count;
    return index;
  }

  /** Puts a loaded document's lines, whose written number of pairs must be theirs. */
  #put(doc: number, lines: PhraseLines, length: unknown): void {
    const pairs = distinctPairCount(lines);
    if (length !== pairs) fail(`document ${doc} has ${describeNumber(length)} pairs written, its lines have ${pairs}`);
    this.#total += pairs;
    this.#lines[doc] = lines;
    this.#lengths[doc] = pairs;
    this.#count += 1;
  }

  /** Sets a loaded index's average, which must be the mean of its documents' pairs. */
  #checkAverage(average: number): void {
    if (!isMeanOf(average, this.#total, this.#count))
      fail(`average ${average} is not the mean of the documents' pairs`);
    this.#average = average;
  }
}
