// Reading a saved keyword section back, every number and id checked (see {@link keywordIndexFromJSON}).
import { describeNumber, isCount, isMeanOf } from '../values.js';
import { KeywordIndex, type SerializedKeywordIndex, type TermEntry } from './keyword-index.js';
import { postingsOf } from './postings.js';

/**
 * Rebuilds an index from `KeywordIndex.toJSON`, checking every number and id: documents
 * numbered 0, 1, 2... with unique ids, postings of known documents in ascending order with
 * positive integer frequencies, field lengths that are the postings' counts, averages that are
 * their means. Throws an `Error` naming what is malformed.
 */
export function keywordIndexFromJSON(
  value: unknown,
  fieldCount: number,
  lookupFields?: readonly number[],
): KeywordIndex {
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
  const count = documents.length;
  const ids: string[] = [];
  const docOf = new Map<string, number>();
  const docLengths: number[] = [];
  const vocabulary = new Set<string>();
  const entries: TermEntry[] = [];
  const totals = new Array<number>(fieldCount).fill(0);
  const docTerms: TermEntry[][][] = new Array(count);
  for (let doc = 0; doc < count; doc++) {
    const item: unknown = documents[doc];
    if (!Array.isArray(item) || item.length !== 3) return fail(`document entry ${doc}: expected [number, id, lengths]`);
    const [number, id, lengths] = item as unknown[];
    if (number !== doc) return fail(`document entry ${doc} has number ${describeNumber(number)}, expected ${doc}`);
    if (typeof id !== 'string') return fail(`document ${doc}: its id is not a string`);
    if (docOf.has(id)) return fail(`document id "${id}" twice`);
    if (!Array.isArray(lengths) || lengths.length !== fieldCount || !lengths.every(isCount)) {
      return fail(`field lengths of "${id}": expected ${fieldCount} non-negative integers`);
    }
    for (let f = 0; f < fieldCount; f++) totals[f]! += lengths[f]!;
    docOf.set(id, doc);
    ids.push(id);
    for (let f = 0; f < fieldCount; f++) docLengths.push(lengths[f]!);
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
    if (vocabulary.has(term)) return fail(`term "${term}" twice`);
    const entry: TermEntry = {
      id: entries.length,
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
      entry.fields[f] = postingsOf(postings.docs, postings.freqs);
    }
    if (fields.length === 0) return fail(`term "${term}" without postings`);
    vocabulary.add(term);
    entries.push(entry);
  }
  const flatTerms: TermEntry[][] = [];
  for (let doc = 0; doc < count; doc++) {
    const own = docTerms[doc]!;
    for (let f = 0; f < fieldCount; f++) {
      const length = docLengths[doc * fieldCount + f];
      if (own[f]!.length !== length) {
        fail(`field lengths of "${ids[doc]}": field ${f} has ${own[f]!.length} terms, not ${length}`);
      }
    }
    flatTerms.push(own.flat());
  }
  const content = {
    ids,
    docOf,
    lengths: Int32Array.from(docLengths),
    averages: [...(averages as number[])],
    entries,
    docTerms: flatTerms,
  };
  return KeywordIndex.restore(fieldCount, lookupFields, content);
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
): { field: number; docs: number[]; freqs: number[] } {
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
  return { field, docs: docs as number[], freqs: freqs as number[] };
}
