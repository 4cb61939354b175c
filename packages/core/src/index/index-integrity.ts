// The integrity check of a saved tool index: a hash of its content, written by `ToolIndex.toJSON`
// and compared by `ToolIndex.fromJSON` once the content's structure has been checked.
import type { SerializedKeywordIndex } from './keyword-index.js';
import type { SerializedPhraseIndex } from './phrase-index.js';

/** The sections of a saved tool index that the integrity check covers. */
export interface IndexContent {
  tools: Readonly<Record<string, string>>;
  keyword: SerializedKeywordIndex;
  phrases: SerializedPhraseIndex;
  /** The vector section (`VectorIndex.toJSON`), when there is one: read as any JSON (checked later). */
  vector?: unknown;
}

const FIRST_BASIS = 0x811c9dc5 | 0;
const SECOND_BASIS = 0xcbf29ce4 | 0;
const FIRST_PRIME = 0x01000193;
const SECOND_PRIME = 0x5bd1e995;

/** A 32-bit lane of a hash as 8 hexadecimal digits. */
function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

const FLOAT = new Float64Array(1);
const FLOAT_WORDS = new Int32Array(FLOAT.buffer);

/**
 * A 64-bit hash in two 32-bit FNV-1a lanes (different primes, the second also fed the first), fed
 * 32-bit words: integers as they are, other numbers as their two words, strings as their length and
 * characters. Fast (no strings made, no BigInt), and not cryptographic.
 */
class ContentHash {
  #first = FIRST_BASIS;
  #second = SECOND_BASIS;

  word(value: number): void {
    this.#first = Math.imul(this.#first ^ value, FIRST_PRIME);
    this.#second = Math.imul(this.#second ^ value ^ (this.#first >>> 15), SECOND_PRIME);
  }

  number(value: number): void {
    if ((value | 0) === value) {
      this.word(value);
      return;
    }
    FLOAT[0] = value;
    this.word(FLOAT_WORDS[0]!);
    this.word(FLOAT_WORDS[1]!);
  }

  numbers(values: readonly number[]): void {
    this.word(values.length);
    for (let i = 0; i < values.length; i++) this.number(values[i]!);
  }

  text(text: string): void {
    this.word(text.length);
    for (let i = 0; i < text.length; i++) this.word(text.charCodeAt(i));
  }

  /** A string or a number as such; anything else as what it is (for content not checked yet). */
  value(value: unknown): void {
    if (typeof value === 'string') {
      this.word(1);
      this.text(value);
    } else if (typeof value === 'number') {
      this.word(2);
      this.number(value);
    } else {
      this.word(value === undefined ? 3 : value === null ? 4 : 5);
    }
  }

  /** The listed fields of each record of a list (a list or a record that is not one counts as such). */
  records(list: unknown, fields: readonly string[]): void {
    if (!Array.isArray(list)) {
      this.value(list);
      return;
    }
    this.word(list.length);
    for (const item of list) {
      if (typeof item !== 'object' || item === null) this.value(item);
      else for (const field of fields) this.value((item as Record<string, unknown>)[field]);
    }
  }

  /** The hash as 16 hexadecimal digits. */
  digest(): string {
    return hex(this.#first) + hex(this.#second);
  }
}

/**
 * The integrity hash of a saved index's content, in the order the content is read: the keyword
 * section (fields, documents with their ids and lengths, averages, every term with its postings),
 * each document's fingerprint from `tools` (in document order, so that the order of the `tools`
 * object's keys does not matter), the phrase section, and the vector section if any (its embedder,
 * dimensions, entries and pending texts, field by field). Call it only on content whose keyword and
 * phrase sections have been checked (`keywordIndexFromJSON`, `PhraseIndex.fromJSON`).
 *
 * It protects against accidental damage and naive tampering (a number or an id changed by hand or
 * by a faulty store); not against someone who recomputes it, which anyone can: the structural
 * checks of a load are what keep such a document from doing worse than ranking badly.
 */
export function indexIntegrity(content: IndexContent): string {
  const hash = new ContentHash();
  const { keyword, phrases, tools } = content;
  hash.word(keyword.fields);
  hash.word(keyword.nextDoc);
  hash.numbers(keyword.averages);
  hash.word(keyword.documents.length);
  for (const [doc, id, lengths] of keyword.documents) {
    hash.word(doc);
    hash.text(id);
    hash.text(Object.hasOwn(tools, id) ? tools[id]! : '');
    hash.numbers(lengths);
  }
  hash.word(keyword.terms.length);
  for (const [term, fields] of keyword.terms) {
    hash.text(term);
    hash.word(fields.length);
    for (const [field, docs, freqs] of fields) {
      hash.word(field);
      hash.numbers(docs);
      hash.numbers(freqs);
    }
  }
  hash.number(phrases.average);
  hash.word(phrases.documents.length);
  for (const [doc, length, lines] of phrases.documents) {
    hash.word(doc);
    hash.word(length);
    hash.numbers(lines);
  }
  const vector = content.vector;
  if (typeof vector === 'object' && vector !== null) {
    const section = vector as Record<string, unknown>;
    hash.value(section.version);
    hash.value(section.embedderId);
    hash.value(section.dimensions);
    hash.records(section.entries, ['id', 'hash', 'vector']);
    hash.records(section.pending, ['id', 'text']);
  } else {
    hash.value(vector);
  }
  return hash.digest();
}

/**
 * The integrity hash of a binary saved index's content (see `binary-index.ts`): the same hash, fed
 * the content's bytes four at a time (little-endian words, zeros after the last byte).
 */
export function bytesIntegrity(bytes: Uint8Array): string {
  const whole = bytes.length >>> 2;
  const words =
    bytes.byteOffset % 4 === 0
      ? new Int32Array(bytes.buffer, bytes.byteOffset, whole)
      : new Int32Array(new Uint8Array(bytes.subarray(0, whole * 4)).buffer); // (a copy, aligned)
  let last = 0;
  for (let i = whole * 4; i < bytes.length; i++) last |= bytes[i]! << (8 * (i - whole * 4));
  // (ContentHash's two lanes in local variables: a method call and two field writes per word cost
  // a third more over the 4 million words of an index of 100,000 tools)
  let first = Math.imul(FIRST_BASIS ^ bytes.length, FIRST_PRIME);
  let second = Math.imul(SECOND_BASIS ^ bytes.length ^ (first >>> 15), SECOND_PRIME);
  for (let i = 0; i < whole; i++) {
    const value = words[i]!;
    first = Math.imul(first ^ value, FIRST_PRIME);
    second = Math.imul(second ^ value ^ (first >>> 15), SECOND_PRIME);
  }
  first = Math.imul(first ^ last, FIRST_PRIME);
  second = Math.imul(second ^ last ^ (first >>> 15), SECOND_PRIME);
  return hex(first) + hex(second);
}
