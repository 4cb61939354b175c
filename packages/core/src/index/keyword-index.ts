import SearchableMap from 'minisearch/SearchableMap';
import { describeNumber, isCount, isMeanOf } from '../values.js';
import { IntList } from './int-list.js';

/** The documents holding a term in one field: document numbers, ascending, and term frequencies. */
export interface Postings {
  readonly docs: number[];
  readonly freqs: number[];
}

/** An indexed term: its postings per field (by field number), absent where no document has it. */
export interface TermEntry {
  /**
   * The entry's number in its index, unique for the index's lifetime (a term that leaves and comes
   * back gets a new one; a loaded index numbers its terms anew).
   */
  readonly id: number;
  readonly term: string;
  readonly fields: (Postings | undefined)[];
  /** How many (field, document) postings the term has; the term leaves the index at 0. */
  refs: number;
  /** How many of those are in looked-up fields; the term leaves the vocabulary tree at 0. */
  lookupRefs: number;
}

/**
 * A {@link KeywordIndex} as plain JSON (see {@link KeywordIndex.toJSON}). Documents are numbered
 * 0, 1, 2... in the order they were added (numbers freed by removals are not written).
 */
export interface SerializedKeywordIndex {
  /** Number of fields. */
  fields: number;
  /** The number of documents (the next document number). */
  nextDoc: number;
  /** Average field lengths (as kept incrementally, so that a loaded index scores alike). */
  averages: number[];
  /** `[document number, id, length of each field]`, in document-number order. */
  documents: [number, string, number[]][];
  /** `[term, [field, document numbers, frequencies][]]`, in vocabulary order. */
  terms: [string, [number, number[], number[]][]][];
}

/** Position of `doc` in ascending `docs`, or -1. */
export function findDoc(docs: readonly number[], doc: number): number {
  let low = 0;
  let high = docs.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = docs[middle]!;
    if (value === doc) return middle;
    if (value < doc) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** What {@link KeywordIndex.build} hands to the code that fills a new index. */
export interface KeywordIndexBuilder {
  /** The number of a term in this build (numbered in order of first use). */
  term(text: string): number;
  /**
   * Adds a document: `fields[f]` are the numbers of its terms in field `f`, in order, repeats
   * included. Ids must be new.
   */
  add(id: string, fields: readonly (readonly number[])[]): void;
  /**
   * {@link KeywordIndexBuilder.add} term by term: `open` a document, `push` its terms field after
   * field (fields in order; a field without terms is skipped), then `close` it.
   */
  open(id: string): void;
  push(field: number, term: number): void;
  close(): void;
}

/**
 * A purpose-built inverted index for BM25 scoring: term → per-field postings in plain arrays
 * (ascending document numbers, so a document's posting is found by binary search and appended in
 * order), each document's field lengths (distinct terms per field) and the running average of each
 * field's length. The terms of the looked-up fields (not those of fields only ever matched exactly,
 * such as word pairs) are also kept in a radix tree (MiniSearch's `SearchableMap`) for prefix and
 * typo lookups, built when first needed. Documents are added and removed incrementally; removal
 * takes the document out of every posting at once (no lazy clean-up), so the statistics are always
 * exact.
 *
 * It keeps the statistics as MiniSearch 7 (which toolscout used before) keeps them: document numbers
 * in order of addition, field length = distinct terms, the same running averages, prefix-tree terms
 * inserted in the order they were first seen. On a freshly built index, scores computed from it are
 * to the last bit those of a MiniSearch index of the same documents (after removals they can differ
 * in the last bits: MiniSearch's `discard` cleans up lazily).
 */
export class KeywordIndex {
  readonly #fieldCount: number;
  /** Whether a field's terms go into the vocabulary tree, by field number. */
  readonly #lookedUp: boolean[];
  readonly #vocabulary = new Map<string, TermEntry>();
  /**
   * The looked-up terms as a radix tree, built on the first prefix or typo lookup (inserting the
   * terms in vocabulary order), then kept in step.
   */
  #tree: SearchableMap<TermEntry> | undefined;
  readonly #docOf = new Map<string, number>();
  readonly #ids: (string | undefined)[] = [];
  readonly #lengths: (number[] | undefined)[] = [];
  /**
   * Each document's distinct terms, field after field (the field lengths tell where each ends), for
   * removals. A built index makes them on its first removal (see {@link KeywordIndex.build}).
   */
  readonly #docTerms: (TermEntry[] | undefined)[] = [];
  #docTermsPending = false;
  #averages: number[];
  #count = 0;
  #nextDoc = 0;
  /** The id of the next new term entry. */
  #nextTermId = 0;

  /**
   * @param fieldCount - the number of fields of every document.
   * @param lookupFields - the fields whose terms {@link KeywordIndex.atPrefix} and
   *   {@link KeywordIndex.fuzzyGet} find (all of them unless given).
   */
  constructor(fieldCount: number, lookupFields?: readonly number[]) {
    this.#fieldCount = fieldCount;
    this.#lookedUp = Array.from({ length: fieldCount }, (_, f) => lookupFields?.includes(f) ?? true);
    this.#averages = new Array<number>(fieldCount).fill(0);
  }

  /** How many documents are indexed. */
  get size(): number {
    return this.#count;
  }

  /** One more than the highest document number ever assigned (for arrays by document number). */
  get nextDoc(): number {
    return this.#nextDoc;
  }

  has(id: string): boolean {
    return this.#docOf.has(id);
  }

  /** The document number of an id (undefined when absent). */
  docOf(id: string): number | undefined {
    return this.#docOf.get(id);
  }

  /** The id of a document number (undefined when removed). */
  idOf(doc: number): string | undefined {
    return this.#ids[doc];
  }

  /** A field's length (distinct terms) in a document. */
  fieldLength(doc: number, field: number): number {
    return this.#lengths[doc]![field]!;
  }

  /** The average length of a field. */
  averageLength(field: number): number {
    return this.#averages[field]!;
  }

  /** The term's entry, if any document has it. */
  get(term: string): TermEntry | undefined {
    return this.#vocabulary.get(term);
  }

  /** The looked-up fields' terms that start with `prefix` (itself included), in vocabulary-tree order. */
  atPrefix(prefix: string): Iterable<[string, TermEntry]> {
    return this.#lookupTree().atPrefix(prefix);
  }

  /** The looked-up fields' terms within `maxDistance` edits of `term`, with their distance. */
  fuzzyGet(term: string, maxDistance: number): Map<string, [TermEntry, number]> {
    return this.#lookupTree().fuzzyGet(term, maxDistance);
  }

  #lookupTree(): SearchableMap<TermEntry> {
    if (this.#tree === undefined) {
      const tree = new SearchableMap<TermEntry>();
      for (const entry of this.#vocabulary.values()) if (entry.lookupRefs > 0) tree.set(entry.term, entry);
      this.#tree = tree;
    }
    return this.#tree;
  }

  /**
   * Adds a document: `fields[f]` are its terms in field `f`, in order, repeats included. An id
   * already present is replaced (removed, then added under a new number).
   */
  add(id: string, fields: readonly (readonly string[])[]): void {
    if (fields.length !== this.#fieldCount) {
      throw new Error(`KeywordIndex: expected ${this.#fieldCount} fields, got ${fields.length}`);
    }
    if (this.#docOf.has(id)) this.remove(id);
    const doc = this.#nextDoc++;
    this.#count += 1;
    this.#docOf.set(id, doc);
    this.#ids[doc] = id;
    const lengths: number[] = [];
    const own: TermEntry[] = [];
    const previous = this.#count - 1;
    for (let f = 0; f < this.#fieldCount; f++) {
      const tokens = fields[f]!;
      const start = own.length;
      const lookedUp = this.#lookedUp[f]!;
      for (const token of tokens) {
        let entry = this.#vocabulary.get(token);
        if (entry === undefined) {
          entry = {
            id: this.#nextTermId++,
            term: token,
            fields: new Array(this.#fieldCount).fill(undefined),
            refs: 0,
            lookupRefs: 0,
          };
          this.#vocabulary.set(token, entry);
        }
        let postings = entry.fields[f];
        if (postings === undefined) {
          postings = { docs: [], freqs: [] };
          entry.fields[f] = postings;
        }
        const last = postings.docs.length - 1;
        if (last >= 0 && postings.docs[last] === doc) {
          postings.freqs[last]! += 1;
        } else {
          postings.docs.push(doc);
          postings.freqs.push(1);
          entry.refs += 1;
          if (lookedUp && entry.lookupRefs++ === 0) this.#tree?.set(token, entry);
          own.push(entry);
        }
      }
      const length = own.length - start;
      lengths.push(length);
      // MiniSearch's running average (kept alike so that scores match to the last bit).
      this.#averages[f] = (this.#averages[f]! * previous + length) / (previous + 1);
    }
    this.#lengths[doc] = lengths;
    this.#docTerms[doc] = own;
  }

  /** Removes a document; returns whether it was there. */
  remove(id: string): boolean {
    const doc = this.#docOf.get(id);
    if (doc === undefined) return false;
    if (this.#docTermsPending) this.#makeDocTerms();
    const lengths = this.#lengths[doc]!;
    const docTerms = this.#docTerms[doc]!;
    const count = this.#count;
    let next = 0;
    for (let f = 0; f < this.#fieldCount; f++) {
      if (count === 1) this.#averages[f] = 0;
      else this.#averages[f] = (this.#averages[f]! * count - lengths[f]!) / (count - 1);
      const end = next + lengths[f]!;
      for (; next < end; next++) {
        const entry = docTerms[next]!;
        const postings = entry.fields[f]!;
        const at = findDoc(postings.docs, doc);
        postings.docs.splice(at, 1);
        postings.freqs.splice(at, 1);
        if (postings.docs.length === 0) entry.fields[f] = undefined;
        entry.refs -= 1;
        if (this.#lookedUp[f] && --entry.lookupRefs === 0) this.#tree?.delete(entry.term);
        if (entry.refs === 0) this.#vocabulary.delete(entry.term);
      }
    }
    this.#docOf.delete(id);
    this.#ids[doc] = undefined;
    this.#lengths[doc] = undefined;
    this.#docTerms[doc] = undefined;
    this.#count -= 1;
    return true;
  }

  /** Makes the terms of every document that has none yet, from the postings. */
  #makeDocTerms(): void {
    const byDoc: (TermEntry[][] | undefined)[] = [];
    for (const entry of this.#vocabulary.values()) {
      entry.fields.forEach((postings, f) => {
        if (postings === undefined) return;
        for (const doc of postings.docs) {
          if (this.#docTerms[doc] !== undefined) continue;
          let fields = byDoc[doc];
          if (fields === undefined) {
            fields = Array.from({ length: this.#fieldCount }, () => []);
            byDoc[doc] = fields;
          }
          fields[f]!.push(entry);
        }
      });
    }
    byDoc.forEach((fields, doc) => {
      if (fields !== undefined) this.#docTerms[doc] = fields.flat();
    });
    // (a document without any term has none to remove)
    for (let doc = 0; doc < this.#nextDoc; doc++) {
      if (this.#ids[doc] !== undefined && this.#docTerms[doc] === undefined) this.#docTerms[doc] = [];
    }
    this.#docTermsPending = false;
  }

  /**
   * The index as plain JSON; {@link KeywordIndex.fromJSON} rebuilds it to score identically. The
   * documents are numbered anew, 0 up in the same order (a loaded index numbers them so).
   */
  toJSON(): SerializedKeywordIndex {
    const documents: [number, string, number[]][] = [];
    // Each document's number in the JSON, when removals left gaps (else a document keeps its own).
    const dense = this.#count === this.#nextDoc ? undefined : new Int32Array(this.#nextDoc);
    for (let doc = 0; doc < this.#nextDoc; doc++) {
      const id = this.#ids[doc];
      if (id === undefined) continue;
      if (dense !== undefined) dense[doc] = documents.length;
      documents.push([documents.length, id, this.#lengths[doc]!]);
    }
    // In vocabulary order; once the tree is built, its terms in its order (inserted in that order,
    // they give the same tree) and then the rest.
    const terms: [string, [number, number[], number[]][]][] = [];
    const add = (entry: TermEntry) => {
      const fields: [number, number[], number[]][] = [];
      entry.fields.forEach((postings, f) => {
        if (postings === undefined) return;
        fields.push([f, dense === undefined ? postings.docs : postings.docs.map((doc) => dense[doc]!), postings.freqs]);
      });
      terms.push([entry.term, fields]);
    };
    if (this.#tree === undefined) {
      for (const entry of this.#vocabulary.values()) add(entry);
    } else {
      for (const [, entry] of this.#tree) add(entry);
      for (const entry of this.#vocabulary.values()) if (entry.lookupRefs === 0) add(entry);
    }
    return { fields: this.#fieldCount, nextDoc: documents.length, averages: [...this.#averages], documents, terms };
  }

  /**
   * Builds an index of many documents at once, the same as adding them one by one with
   * {@link KeywordIndex.add} (same document numbers, statistics, postings and vocabulary order), in
   * a fraction of the time: `fill` adds the documents with their terms as numbers, each posting is
   * first logged in flat arrays, and every term's postings are made at the end, each array in one go.
   * Each entry's `id` is its term number in the build.
   */
  static build(
    fieldCount: number,
    lookupFields: readonly number[] | undefined,
    fill: (builder: KeywordIndexBuilder) => void,
    expectedDocuments = 0,
  ): KeywordIndex {
    const index = new KeywordIndex(fieldCount, lookupFields);
    const terms: string[] = [];
    const numbers = new Map<string, number>();
    // Per (term, field) slot (`term × fieldCount + field`): the last document that had it (+1), its
    // frequency there, and how many documents have it.
    // Sized for the documents expected (growing an array in the middle of a build costs more than
    // its copy: code optimised for the old array is thrown away).
    const expectedTerms = Math.max(1024, expectedDocuments * 2);
    let lastDoc = new Int32Array(expectedTerms * fieldCount);
    let frequency = new Int32Array(expectedTerms * fieldCount);
    let postingCount = new Int32Array(expectedTerms * fieldCount);
    // The log: each document's distinct slots, field after field, then the frequencies.
    const slots = new IntList(Math.max(1024, expectedDocuments * 32));
    const frequencies = new IntList(Math.max(1024, expectedDocuments * 32));
    const docStarts = new IntList(Math.max(256, expectedDocuments + 1));
    const averages = index.#averages;
    let building = true;
    const builder: KeywordIndexBuilder = {
      term(text) {
        let number = numbers.get(text);
        if (number === undefined) {
          number = terms.length;
          terms.push(text);
          numbers.set(text, number);
          const needed = terms.length * fieldCount;
          if (needed > lastDoc.length) {
            const grow = (array: Int32Array) => {
              const bigger = new Int32Array(Math.max(needed, array.length * 2));
              bigger.set(array);
              return bigger;
            };
            lastDoc = grow(lastDoc);
            frequency = grow(frequency);
            postingCount = grow(postingCount);
          }
        }
        return number;
      },
      open(id) {
        if (!building) throw new Error('KeywordIndex.build: a document added after the build');
        if (open) throw new Error('KeywordIndex.build: a document opened before the last was closed');
        if (index.#docOf.has(id)) throw new Error(`KeywordIndex.build: document "${id}" added twice`);
        open = true;
        doc = index.#nextDoc++;
        mark = doc + 1;
        index.#count += 1;
        index.#docOf.set(id, doc);
        index.#ids[doc] = id;
        field = 0;
        fieldStart = slots.length;
        docStarts.push(fieldStart);
        lengths = [];
      },
      push(f, term) {
        if (f !== field) {
          if (!open || !(f > field && f < fieldCount)) {
            throw new Error(`KeywordIndex.build: field ${f} out of order or without an open document`);
          }
          while (field < f) endField();
        }
        if (!(term >= 0 && term < terms.length)) throw new Error(`KeywordIndex.build: unknown term number ${term}`);
        const slot = term * fieldCount + f;
        if (lastDoc[slot] === mark) {
          frequency[slot]! += 1;
        } else {
          lastDoc[slot] = mark;
          frequency[slot] = 1;
          postingCount[slot]! += 1;
          slots.push(slot);
        }
      },
      close() {
        if (!open) throw new Error('KeywordIndex.build: no open document to close');
        while (field < fieldCount) endField();
        for (let i = docStarts.values[docStarts.length - 1]!; i < slots.length; i++) {
          frequencies.push(frequency[slots.values[i]!]!);
        }
        index.#lengths[doc] = lengths;
        open = false;
      },
      add(id, fields) {
        if (fields.length !== fieldCount) {
          throw new Error(`KeywordIndex: expected ${fieldCount} fields, got ${fields.length}`);
        }
        builder.open(id);
        for (let f = 0; f < fieldCount; f++) {
          const numbers = fields[f]!;
          for (let i = 0; i < numbers.length; i++) builder.push(f, numbers[i]!);
        }
        builder.close();
      },
    };
    // The open document: its number (and mark, +1), the field being filled and where it started.
    let open = false;
    let doc = -1;
    let mark = 0;
    let field = 0;
    let fieldStart = 0;
    let lengths: number[] = [];
    const endField = () => {
      const length = slots.length - fieldStart;
      lengths.push(length);
      // MiniSearch's running average (kept alike so that scores match to the last bit).
      const previous = index.#count - 1;
      averages[field] = (averages[field]! * previous + length) / (previous + 1);
      field += 1;
      fieldStart = slots.length;
    };
    fill(builder);
    if (open) throw new Error('KeywordIndex.build: the last document was not closed');
    building = false;

    // Every (term, field)'s postings, each array made at its final size (a pushed array would keep
    // spare room) and filled in document order.
    const slotCount = terms.length * fieldCount;
    const postings: (Postings | undefined)[] = new Array(slotCount);
    for (let slot = 0; slot < slotCount; slot++) {
      const count = postingCount[slot]!;
      if (count > 0) postings[slot] = { docs: new Array<number>(count), freqs: new Array<number>(count) };
    }
    const filled = new Int32Array(slotCount);
    const entries: TermEntry[] = terms.map((term, id) => ({
      id,
      term,
      fields: new Array(fieldCount).fill(undefined),
      refs: 0,
      lookupRefs: 0,
    }));
    docStarts.push(slots.length);
    for (let doc = 0; doc < docStarts.length - 1; doc++) {
      const end = docStarts.values[doc + 1]!;
      for (let i = docStarts.values[doc]!; i < end; i++) {
        const slot = slots.values[i]!;
        const target = postings[slot]!;
        const at = filled[slot]!++;
        target.docs[at] = doc;
        target.freqs[at] = frequencies.values[i]!;
      }
    }
    // Each document's terms, for removals only, are made on the first one.
    index.#docTermsPending = true;
    for (let term = 0; term < terms.length; term++) {
      const entry = entries[term]!;
      for (let f = 0; f < fieldCount; f++) {
        const fieldPostings = postings[term * fieldCount + f];
        if (fieldPostings === undefined) continue;
        entry.fields[f] = fieldPostings;
        entry.refs += fieldPostings.docs.length;
        if (index.#lookedUp[f]) entry.lookupRefs += fieldPostings.docs.length;
      }
      if (entry.refs > 0) index.#vocabulary.set(entry.term, entry);
    }
    index.#nextTermId = terms.length;
    return index;
  }

  /**
   * Rebuilds an index from {@link KeywordIndex.toJSON}, checking every number and id: documents
   * numbered 0, 1, 2... with unique ids, postings of known documents in ascending order with
   * positive integer frequencies, field lengths that are the postings' counts, averages that are
   * their means. Throws an `Error` naming what is malformed.
   */
  static fromJSON(value: unknown, fieldCount: number, lookupFields?: readonly number[]): KeywordIndex {
    const fail = (what: string): never => {
      throw new Error(`malformed keyword section: ${what}`);
    };
    if (typeof value !== 'object' || value === null) return fail('not an object');
    const json = value as Partial<SerializedKeywordIndex>;
    if (json.fields !== fieldCount) fail(`"fields" is ${describeNumber(json.fields)}, expected ${fieldCount}`);
    const { documents, terms, averages } = json;
    if (!Array.isArray(documents) || !Array.isArray(terms)) return fail('documents or terms missing');
    if (json.nextDoc !== documents.length) {
      fail(`"nextDoc" is ${describeNumber(json.nextDoc)}, not the number of documents (${documents.length})`);
    }
    if (!Array.isArray(averages) || averages.length !== fieldCount) {
      return fail(`averages: expected an array of ${fieldCount} numbers`);
    }
    const index = new KeywordIndex(fieldCount, lookupFields);
    const count = documents.length;
    const totals = new Array<number>(fieldCount).fill(0);
    const docTerms: TermEntry[][][] = new Array(count);
    for (let doc = 0; doc < count; doc++) {
      const item: unknown = documents[doc];
      if (!Array.isArray(item) || item.length !== 3)
        return fail(`document entry ${doc}: expected [number, id, lengths]`);
      const [number, id, lengths] = item as unknown[];
      if (number !== doc) return fail(`document entry ${doc} has number ${describeNumber(number)}, expected ${doc}`);
      if (typeof id !== 'string') return fail(`document ${doc}: its id is not a string`);
      if (index.#docOf.has(id)) return fail(`document id "${id}" twice`);
      if (!Array.isArray(lengths) || lengths.length !== fieldCount || !lengths.every(isCount)) {
        return fail(`field lengths of "${id}": expected ${fieldCount} non-negative integers`);
      }
      for (let f = 0; f < fieldCount; f++) totals[f]! += lengths[f]!;
      index.#docOf.set(id, doc);
      index.#ids[doc] = id;
      index.#lengths[doc] = [...lengths];
      docTerms[doc] = Array.from({ length: fieldCount }, () => []);
    }
    for (let f = 0; f < fieldCount; f++) {
      if (!isMeanOf(averages[f], totals[f]!, count)) {
        fail(`average length of field ${f} is ${describeNumber(averages[f])}, not the mean of the documents' lengths`);
      }
    }
    for (let t = 0; t < terms.length; t++) {
      const item: unknown = terms[t];
      if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !Array.isArray(item[1])) {
        return fail(`term entry ${t}: expected [term, postings]`);
      }
      const [term, fields] = item as [string, unknown[]];
      if (index.#vocabulary.has(term)) return fail(`term "${term}" twice`);
      const entry: TermEntry = {
        id: index.#nextTermId++,
        term,
        fields: new Array(fieldCount).fill(undefined),
        refs: 0,
        lookupRefs: 0,
      };
      for (const field of fields) {
        const postings = readPostings(field, fieldCount, count, (problem) => fail(`postings of "${term}": ${problem}`));
        const f = postings.field;
        if (entry.fields[f] !== undefined) return fail(`postings of "${term}": field ${f} twice`);
        for (let i = 0; i < postings.docs.length; i++) docTerms[postings.docs[i]!]![f]!.push(entry);
        entry.fields[f] = { docs: postings.docs, freqs: postings.freqs };
        entry.refs += postings.docs.length;
        if (index.#lookedUp[f]) entry.lookupRefs += postings.docs.length;
      }
      if (entry.refs === 0) return fail(`term "${term}" without postings`);
      index.#vocabulary.set(term, entry);
    }
    for (let doc = 0; doc < count; doc++) {
      const own = docTerms[doc]!;
      for (let f = 0; f < fieldCount; f++) {
        if (own[f]!.length !== index.#lengths[doc]![f]) {
          fail(
            `field lengths of "${index.#ids[doc]}": field ${f} has ${own[f]!.length} terms, not ${index.#lengths[doc]![f]}`,
          );
        }
      }
      index.#docTerms[doc] = own.flat();
    }
    index.#averages = [...(averages as number[])];
    index.#count = count;
    index.#nextDoc = count;
    return index;
  }
}

/**
 * One saved `[field, document numbers, frequencies]` of a term, checked: a field below
 * `fieldCount`, documents below `documentCount` in ascending order, positive integer frequencies.
 */
function readPostings(
  value: unknown,
  fieldCount: number,
  documentCount: number,
  fail: (problem: string) => never,
): Postings & { field: number } {
  if (!Array.isArray(value) || value.length !== 3) return fail('expected [field, documents, frequencies]');
  const [field, docs, freqs] = value as unknown[];
  if (!isCount(field) || field >= fieldCount) return fail(`field ${describeNumber(field)} is not a field number`);
  if (!Array.isArray(docs) || !Array.isArray(freqs) || docs.length !== freqs.length || docs.length === 0) {
    return fail(`field ${field}: expected as many frequencies as documents, at least one`);
  }
  let previous = -1;
  for (let i = 0; i < docs.length; i++) {
    const doc: unknown = docs[i];
    if (!isCount(doc) || doc <= previous || doc >= documentCount) {
      return fail(`field ${field}: document ${describeNumber(doc)} is not a document number above the one before`);
    }
    previous = doc;
    const freq: unknown = freqs[i];
    if (!isCount(freq) || freq === 0) {
      return fail(`field ${field}: frequency ${describeNumber(freq)} in document ${doc} is not a positive integer`);
    }
  }
  return { field, docs: [...(docs as number[])], freqs: [...(freqs as number[])] };
}
