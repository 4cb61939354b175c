// Building a keyword index in one pass (see {@link buildKeywordIndex}): the fast path of a cold build.
import { IntList } from './int-list.js';
import { KeywordIndex, type KeywordIndexBuilder, type Postings, type TermEntry } from './keyword-index.js';

/** How many integers the build keeps per (term, field) slot: last document (+1), frequency, postings. */
const STATS = 3;

/**
 * Builds an index of many documents at once, the same as adding them one by one with
 * `KeywordIndex.add` (same document numbers, statistics, postings and vocabulary order), in
 * a fraction of the time: `fill` adds the documents with their terms as numbers, each posting is
 * first logged in flat arrays, and every term's postings are made at the end, each array in one go.
 * Each entry's `id` is its term number in the build.
 */
export function buildKeywordIndex(
  fieldCount: number,
  lookupFields: readonly number[] | undefined,
  fill: (builder: KeywordIndexBuilder) => void,
  expectedDocuments = 0,
): KeywordIndex {
  // The documents: their ids, numbers and field lengths, and each field's average length.
  const ids: string[] = [];
  const docOf = new Map<string, number>();
  const docLengths = new IntList(Math.max(64, expectedDocuments * fieldCount));
  const averages = new Array<number>(fieldCount).fill(0);
  const terms: string[] = [];
  /** The number of each term by its text, for `term` (the first `indexed` terms; `newTerm` adds none). */
  const numbers = new Map<string, number>();
  let indexed = 0;
  // Per (term, field) slot (`term × fieldCount + field`): the last document that had it (+1), its
  // frequency there, and how many documents have it.
  // Sized for the documents expected (growing an array in the middle of a build costs more than
  // its copy: code optimised for the old array is thrown away).
  const expectedTerms = Math.max(1024, expectedDocuments * 2);
  // (the three side by side, at `slot * STATS`: one cache line per slot a document touches)
  let stats = new Int32Array(expectedTerms * fieldCount * STATS);
  // The log: each document's distinct slots, field after field, then the frequencies.
  const slots = new IntList(Math.max(1024, expectedDocuments * 32));
  const frequencies = new IntList(Math.max(1024, expectedDocuments * 32));
  const docStarts = new IntList(Math.max(256, expectedDocuments + 1));
  let building = true;
  const builder: KeywordIndexBuilder = {
    term(text) {
      // (terms added by newTerm are looked up from here on)
      for (; indexed < terms.length; indexed++) numbers.set(terms[indexed]!, indexed);
      let number = numbers.get(text);
      if (number === undefined) {
        number = builder.newTerm(text);
        numbers.set(text, number);
        indexed += 1;
      }
      return number;
    },
    newTerm(text) {
      const number = terms.length;
      terms.push(text);
      const needed = terms.length * fieldCount;
      if (needed * STATS > stats.length) {
        const grow = (array: Int32Array) => {
          const bigger = new Int32Array(Math.max(needed * STATS, array.length * 2));
          bigger.set(array);
          return bigger;
        };
        stats = grow(stats);
      }
      return number;
    },
    open(id) {
      if (!building) throw new Error('buildKeywordIndex: a document added after the build');
      if (open) throw new Error('buildKeywordIndex: a document opened before the last was closed');
      if (docOf.has(id)) throw new Error(`buildKeywordIndex: document "${id}" added twice`);
      open = true;
      doc = ids.length;
      mark = doc + 1;
      docOf.set(id, doc);
      ids.push(id);
      field = 0;
      fieldStart = slots.length;
      docStarts.push(fieldStart);
    },
    pushRun(f, run, start, end) {
      if (f !== field) {
        if (!open || !(f > field && f < fieldCount)) {
          throw new Error(`buildKeywordIndex: field ${f} out of order or without an open document`);
        }
        while (field < f) endField();
      }
      const termCount = terms.length;
      for (let i = start; i < end; i++) {
        const term = run[i]!;
        if (!(term >= 0 && term < termCount)) throw new Error(`buildKeywordIndex: unknown term number ${term}`);
        const slot = term * fieldCount + f;
        const at = slot * STATS;
        if (stats[at] === mark) {
          stats[at + 1]! += 1;
        } else {
          stats[at] = mark;
          stats[at + 1] = 1;
          stats[at + 2]! += 1;
          slots.push(slot);
        }
      }
    },
    close() {
      if (!open) throw new Error('buildKeywordIndex: no open document to close');
      while (field < fieldCount) endField();
      for (let i = docStarts.values[docStarts.length - 1]!; i < slots.length; i++) {
        frequencies.push(stats[slots.values[i]! * STATS + 1]!);
      }
      open = false;
    },
    add(id, fields) {
      if (fields.length !== fieldCount) {
        throw new Error(`KeywordIndex: expected ${fieldCount} fields, got ${fields.length}`);
      }
      builder.open(id);
      for (let f = 0; f < fieldCount; f++) {
        const numbers = fields[f]!;
        if (numbers.length > 0) builder.pushRun(f, numbers, 0, numbers.length);
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
  const endField = () => {
    const length = slots.length - fieldStart;
    docLengths.push(length);
    // MiniSearch's running average (kept alike so that scores match to the last bit).
    const previous = ids.length - 1;
    averages[field] = (averages[field]! * previous + length) / (previous + 1);
    field += 1;
    fieldStart = slots.length;
  };
  fill(builder);
  if (open) throw new Error('buildKeywordIndex: the last document was not closed');
  building = false;

  // Every (term, field)'s postings, packed in one buffer (its documents, then their frequencies)
  // in slot order, and filled in document order.
  const termCount = terms.length;
  const slotCount = termCount * fieldCount;
  const data = new Int32Array(slots.length * 2);
  const filled = new Int32Array(slotCount);
  const entries = new Array<TermEntry>(termCount);
  let offset = 0;
  for (let term = 0; term < termCount; term++) {
    const fields: (Postings | undefined)[] = new Array(fieldCount).fill(undefined);
    for (let f = 0; f < fieldCount; f++) {
      const slot = term * fieldCount + f;
      const count = stats[slot * STATS + 2]!;
      if (count === 0) continue;
      fields[f] = { data, docsAt: offset, freqsAt: offset + count, length: count };
      filled[slot] = offset;
      offset += count * 2;
    }
    entries[term] = { id: term, term: terms[term]!, fields, refs: 0, lookupRefs: 0 };
  }
  docStarts.push(slots.length);
  for (let doc = 0; doc < docStarts.length - 1; doc++) {
    const end = docStarts.values[doc + 1]!;
    for (let i = docStarts.values[doc]!; i < end; i++) {
      const slot = slots.values[i]!;
      const at = filled[slot]!++;
      data[at] = doc;
      data[at + stats[slot * STATS + 2]!] = frequencies.values[i]!;
    }
  }
  // (each document's terms, for removals only, are made on the first one)
  return KeywordIndex.restore(fieldCount, lookupFields, {
    ids,
    docOf,
    lengths: docLengths.values.slice(0, docLengths.length),
    averages,
    entries,
  });
}
