import SearchableMap from 'minisearch/SearchableMap';
import {
  appendPosting,
  docAt,
  emptyPostings,
  findDoc,
  type Postings,
  postingDocs,
  postingFreqs,
  removePosting,
} from './postings.js';
import { SortedVocabulary } from './sorted-vocabulary.js';

export { findDoc, type Postings } from './postings.js';

/**
 * Prefix or typo lookup results in the order of their terms, not the radix tree's: the tree's order
 * follows the order its terms came in, which differs between an index built, updated and loaded from
 * JSON, and a document's score summed in another order can differ in the last bit. So every index
 * of the same tools ranks them alike, to the bit.
 */
export function inTermOrder<V>(found: Iterable<[string, V]>): [string, V][] {
  return [...found].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** An indexed term: its postings per field (by field number), absent where no document has it. */
export interface TermEntry {
  /**
   * The entry's number in its index, unique for the index's lifetime (a term that leaves and comes
   * back gets a new one; a loaded index numbers its terms anew).
   */
  readonly id: number;
  readonly term: string;
  fields: (Postings | undefined)[];
  /** How many (field, document) postings the term has; the term leaves the index at 0. */
  refs: number;
  /** How many of those are in looked-up fields; the term leaves the vocabulary tree at 0. */
  lookupRefs: number;
}

/**
 * The `fields` of a loaded entry whose postings are not decoded yet (see
 * {@link KeywordIndexContent.decode}): every way out of a {@link KeywordIndex} decodes them first.
 */
export const UNDECODED: (Postings | undefined)[] = Object.freeze([]) as unknown as (Postings | undefined)[];

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

/** What `buildKeywordIndex` hands to the code that fills a new index. */
export interface KeywordIndexBuilder {
  /** The number of a term in this build (numbered in order of first use). */
  term(text: string): number;
  /**
   * The number of a term that the build does not have yet (the caller knows it is new, as the tool
   * feeder does from process-wide term numbers): {@link KeywordIndexBuilder.term} without its lookup.
   */
  newTerm(text: string): number;
  /**
   * Adds a document: `fields[f]` are the numbers of its terms in field `f`, in order, repeats
   * included. Ids must be new.
   */
  add(id: string, fields: readonly (readonly number[])[]): void;
  /**
   * {@link KeywordIndexBuilder.add} run by run: `open` a document, `pushRun` its terms field after
   * field (fields in order, each in one or more runs `terms[start, end)`; a field without terms is
   * skipped), then `close` it.
   */
  open(id: string): void;
  pushRun(field: number, terms: ArrayLike<number>, start: number, end: number): void;
  close(): void;
}

/** The documents and terms of an index whose documents are numbered 0 to n-1 ({@link KeywordIndex.restore}). */
export interface KeywordIndexContent {
  /** Each document's id, by number. */
  ids: string[];
  /** Each id's document number; when absent, made from `ids` when first needed (a loaded index may never need it). */
  docOf?: Map<string, number>;
  /**
   * Each document's field lengths (distinct terms per field), one document's after another's
   * (document `d`'s field `f` at `d * fieldCount + f`).
   */
  lengths: Int32Array;
  /** Each field's average length. */
  averages: number[];
  /** Every term entry, ids 0 up in vocabulary order, with its postings (reference counts still 0). */
  entries: readonly TermEntry[];
  /** Each document's distinct terms, field after field; when absent, made on the first removal. */
  docTerms?: TermEntry[][];
  /**
   * The entries in code-unit order of their terms (a loaded binary index has it): prefix and typo
   * lookups then search them (see `SortedVocabulary`) until the index first changes.
   */
  sorted?: readonly TermEntry[];
  /**
   * Decodes the postings of an entry whose `fields` are {@link UNDECODED} (a loaded index decodes
   * each term's on first use; such entries come with their reference counts set).
   */
  decode?: (entry: TermEntry) => (Postings | undefined)[];
}

/**
 * A purpose-built inverted index for BM25 scoring: term → per-field postings in typed arrays
 * (ascending document numbers, so a document's posting is found by binary search and appended in
 * order), each document's field lengths (distinct terms per field) and the running average of each
 * field's length. The terms of the looked-up fields (not those of fields only ever matched exactly,
 * such as word pairs) are also kept in a radix tree (MiniSearch's `SearchableMap`) for prefix and
 * typo lookups, built when first needed after a change (until then, lookups search the terms in
 * sorted order: see `SortedVocabulary`). Documents are added and removed incrementally; removal
 * takes the document out of every posting at once (no lazy clean-up), so the statistics are always
 * exact.
 *
 * It keeps the statistics as MiniSearch 7 (which toolscout used before) keeps them: document numbers
 * in order of addition, field length = distinct terms, the same running averages. On a freshly
 * built index, exact-match scores computed from it are to the last bit those of a MiniSearch index
 * of the same documents; the scorer sums prefix and typo matches in term order rather than the
 * tree's (so an index built, updated or loaded from JSON ranks alike to the bit), which can differ
 * from MiniSearch's in the last bit (as can scores after removals: MiniSearch's `discard` cleans up
 * lazily).
 */
export class KeywordIndex {
  readonly #fieldCount: number;
  /** Whether a field's terms go into the vocabulary tree, by field number. */
  readonly #lookedUp: boolean[];
  readonly #vocabulary = new Map<string, TermEntry>();
  /**
   * The looked-up terms as a radix tree, built on the first prefix or typo lookup after the index
   * first changes (inserting the terms in vocabulary order), then kept in step.
   */
  #tree: SearchableMap<TermEntry> | undefined;
  /**
   * The looked-up terms in sorted order, which answer the lookups instead of the tree while the
   * index is as {@link KeywordIndex.restore} made it (from the sorted order it was given, else sorted
   * on the first lookup); dropped at its first change.
   */
  #sorted: SortedVocabulary | undefined;
  /** Whether the index is as {@link KeywordIndex.restore} made it: no document added or removed since. */
  #unchanged = false;
  /** Each id's document number (`undefined` until first needed, for an index restored without it). */
  #docOf: Map<string, number> | undefined = new Map<string, number>();
  #ids: (string | undefined)[] = [];
  /** Each document's field lengths, document after document (`doc * fieldCount + field`): no array per document. */
  #lengths: Int32Array = new Int32Array(0);
  /**
   * Each document's distinct terms, field after field (the field lengths tell where each ends), for
   * removals. A built index makes them on its first removal (see `buildKeywordIndex`).
   */
  #docTerms: (TermEntry[] | undefined)[] = [];
  #docTermsPending = false;
  /** Decodes the entries still {@link UNDECODED} (a loaded index), until every one is. */
  #decode: ((entry: TermEntry) => (Postings | undefined)[]) | undefined;
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

  /** How many distinct terms the index holds. */
  get vocabularySize(): number {
    return this.#vocabulary.size;
  }

  has(id: string): boolean {
    return this.#docMap().has(id);
  }

  /** The document number of an id (undefined when absent). */
  docOf(id: string): number | undefined {
    return this.#docMap().get(id);
  }

  /** Each id's document number, made from the ids the first time it is needed. */
  #docMap(): Map<string, number> {
    if (this.#docOf !== undefined) return this.#docOf;
    const docOf = new Map<string, number>();
    const ids = this.#ids;
    for (let doc = 0; doc < ids.length; doc++) {
      const id = ids[doc];
      if (id !== undefined) docOf.set(id, doc);
    }
    this.#docOf = docOf;
    return docOf;
  }

  /** The id of a document number (undefined when removed). */
  idOf(doc: number): string | undefined {
    return this.#ids[doc];
  }

  /** A field's length (distinct terms) in a document. */
  fieldLength(doc: number, field: number): number {
    return this.#lengths[doc * this.#fieldCount + field]!;
  }

  /** The average length of a field. */
  averageLength(field: number): number {
    return this.#averages[field]!;
  }

  /** The term's entry, if any document has it. */
  get(term: string): TermEntry | undefined {
    const entry = this.#vocabulary.get(term);
    if (entry !== undefined && entry.fields === UNDECODED) this.#decoded(entry);
    return entry;
  }

  /** The looked-up fields' terms that start with `prefix` (itself included), in no set order. */
  atPrefix(prefix: string): [string, TermEntry][] {
    const sorted = this.#sortedVocabulary();
    const found = sorted ? sorted.atPrefix(prefix) : [...this.#lookupTree().atPrefix(prefix)];
    for (let i = 0; i < found.length; i++) this.#decoded(found[i]![1]);
    return found;
  }

  /** The looked-up fields' terms within `maxDistance` edits of `term`, with their distance. */
  fuzzyGet(term: string, maxDistance: number): Map<string, [TermEntry, number]> {
    const sorted = this.#sortedVocabulary();
    const found = sorted ? sorted.fuzzyGet(term, maxDistance) : this.#lookupTree().fuzzyGet(term, maxDistance);
    for (const [entry] of found.values()) this.#decoded(entry);
    return found;
  }

  /** Decodes a loaded entry's postings if they are not yet. */
  #decoded(entry: TermEntry): void {
    if (entry.fields === UNDECODED) entry.fields = this.#decode!(entry);
  }

  /** Decodes every entry not decoded yet (before code that walks the whole vocabulary's postings). */
  #decodeAll(): void {
    if (this.#decode === undefined) return;
    for (const entry of this.#vocabulary.values()) this.#decoded(entry);
    this.#decode = undefined;
  }

  /**
   * The looked-up terms in sorted order while the index is unchanged (sorted on the first lookup when
   * it came without them: a third of the time of the tree's inserts), else undefined: the tree, kept
   * in step with each change, answers.
   */
  #sortedVocabulary(): SortedVocabulary | undefined {
    if (this.#sorted === undefined && this.#unchanged) {
      const looked: TermEntry[] = [];
      for (const entry of this.#vocabulary.values()) if (entry.lookupRefs > 0) looked.push(entry);
      this.#sorted = SortedVocabulary.sorting(looked);
    }
    return this.#sorted;
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
    if (this.#docMap().has(id)) this.remove(id);
    this.#changed();
    const doc = this.#nextDoc++;
    this.#count += 1;
    this.#docMap().set(id, doc);
    this.#ids[doc] = id;
    const fieldCount = this.#fieldCount;
    if ((doc + 1) * fieldCount > this.#lengths.length) {
      const bigger = new Int32Array(Math.max(64, (doc + 1) * fieldCount * 2));
      bigger.set(this.#lengths);
      this.#lengths = bigger;
    }
    const lengths = this.#lengths;
    const own: TermEntry[] = [];
    const previous = this.#count - 1;
    for (let f = 0; f < this.#fieldCount; f++) {
      const tokens = fields[f]!;
      const start = own.length;
      const lookedUp = this.#lookedUp[f]!;
      for (const token of tokens) {
        let entry = this.get(token);
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
          postings = emptyPostings();
          entry.fields[f] = postings;
        }
        const last = postings.length - 1;
        if (last >= 0 && docAt(postings, last) === doc) {
          postings.data[postings.freqsAt + last]! += 1;
        } else {
          appendPosting(postings, doc, 1);
          entry.refs += 1;
          if (lookedUp && entry.lookupRefs++ === 0) this.#tree?.set(token, entry);
          own.push(entry);
        }
      }
      const length = own.length - start;
      lengths[doc * fieldCount + f] = length;
      // MiniSearch's running average (kept alike so that scores match to the last bit).
      this.#averages[f] = (this.#averages[f]! * previous + length) / (previous + 1);
    }
    this.#docTerms[doc] = own;
  }

  /** Removes a document; returns whether it was there. */
  remove(id: string): boolean {
    const doc = this.#docMap().get(id);
    if (doc === undefined) return false;
    this.#changed();
    if (this.#docTermsPending) this.#makeDocTerms();
    const lengths = this.#lengths.subarray(doc * this.#fieldCount, (doc + 1) * this.#fieldCount);
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
        removePosting(postings, findDoc(postings, doc));
        if (postings.length === 0) entry.fields[f] = undefined;
        entry.refs -= 1;
        if (this.#lookedUp[f] && --entry.lookupRefs === 0) this.#tree?.delete(entry.term);
        if (entry.refs === 0) this.#vocabulary.delete(entry.term);
      }
    }
    this.#docMap().delete(id);
    this.#ids[doc] = undefined;
    lengths.fill(0);
    this.#docTerms[doc] = undefined;
    this.#count -= 1;
    return true;
  }

  /** The index changes: lookups go to the radix tree from now on (made on the next one). */
  #changed(): void {
    this.#sorted = undefined;
    this.#unchanged = false;
  }

  /** Makes the terms of every document that has none yet, from the postings. */
  #makeDocTerms(): void {
    this.#decodeAll();
    const byDoc: (TermEntry[][] | undefined)[] = [];
    for (const entry of this.#vocabulary.values()) {
      entry.fields.forEach((postings, f) => {
        if (postings === undefined) return;
        for (let i = 0; i < postings.length; i++) {
          const doc = docAt(postings, i);
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
   * The index as plain JSON; `keywordIndexFromJSON` rebuilds it to score identically. The
   * documents are numbered anew, 0 up in the same order (a loaded index numbers them so).
   */
  toJSON(): SerializedKeywordIndex {
    this.#decodeAll();
    const documents: [number, string, number[]][] = [];
    // Each document's number in the JSON, when removals left gaps (else a document keeps its own).
    const dense = this.#count === this.#nextDoc ? undefined : new Int32Array(this.#nextDoc);
    for (let doc = 0; doc < this.#nextDoc; doc++) {
      const id = this.#ids[doc];
      if (id === undefined) continue;
      if (dense !== undefined) dense[doc] = documents.length;
      const at = doc * this.#fieldCount;
      documents.push([documents.length, id, Array.from(this.#lengths.subarray(at, at + this.#fieldCount))]);
    }
    // In vocabulary order, searched or not: the scorer sums prefix and typo matches in term order,
    // so the order a loaded index's tree gets its terms in does not change its scores.
    const terms: [string, [number, number[], number[]][]][] = [];
    const add = (entry: TermEntry) => {
      const fields: [number, number[], number[]][] = [];
      entry.fields.forEach((postings, f) => {
        if (postings === undefined) return;
        const docs = postingDocs(postings);
        fields.push([f, dense === undefined ? docs : docs.map((doc) => dense[doc]!), postingFreqs(postings)]);
      });
      terms.push([entry.term, fields]);
    };
    for (const entry of this.#vocabulary.values()) add(entry);
    return { fields: this.#fieldCount, nextDoc: documents.length, averages: [...this.#averages], documents, terms };
  }

  /**
   * An index of the documents numbered 0 to n-1 as given (already checked), for the one-pass build
   * (`buildKeywordIndex`) and `keywordIndexFromJSON`: each entry's reference counts are taken
   * from its postings, and entries without postings are left out of the vocabulary.
   */
  static restore(fieldCount: number, lookupFields: readonly number[] | undefined, content: KeywordIndexContent) {
    const index = new KeywordIndex(fieldCount, lookupFields);
    const lookedUp = index.#lookedUp;
    for (const entry of content.entries) {
      for (let f = 0; f < fieldCount && entry.fields !== UNDECODED; f++) {
        const postings = entry.fields[f];
        if (postings === undefined) continue;
        entry.refs += postings.length;
        if (lookedUp[f]) entry.lookupRefs += postings.length;
      }
      if (entry.refs > 0) index.#vocabulary.set(entry.term, entry);
    }
    index.#nextTermId = content.entries.length;
    index.#docOf = content.docOf;
    index.#ids = content.ids;
    index.#lengths = content.lengths;
    index.#averages = content.averages;
    index.#count = content.ids.length;
    index.#nextDoc = content.ids.length;
    index.#decode = content.decode;
    if (content.sorted !== undefined)
      index.#sorted = new SortedVocabulary(content.sorted.filter((entry) => entry.lookupRefs > 0));
    index.#unchanged = true;
    if (content.docTerms === undefined) index.#docTermsPending = true;
    else index.#docTerms = content.docTerms;
    return index;
  }
}
