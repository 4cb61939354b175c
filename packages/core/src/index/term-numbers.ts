// Terms as numbers, for index builds: every term of tool text gets a process-wide number, and
// `tokenizeToNumbers` turns text straight into those numbers. It gives exactly `tokenize`'s terms,
// but ASCII text (nearly all tool text) never becomes word strings: each run of letters and digits
// is hashed as it is scanned and found in a table of the words seen before, compared character by
// character, so that a known word costs neither a new string nor a map lookup.

import { asciiSeparated } from '../text/ascii-separators.js';
import {
  ASCII_KIND,
  isAscii,
  MIXED,
  nextShape,
  normalTerm,
  splitAsciiIdentifier,
  splitWords,
  withoutAsciiApostrophes,
  wordTerm,
} from '../text/tokenize.js';
import { IntList } from './int-list.js';

/** The term numbers of a text, in order, repeats included. */
export type TermRun = readonly number[];

const termNumbers = new Map<string, number>();
const termTexts: string[] = [];
/** Above this many terms, {@link trimTermNumbers} starts over. */
const MAX_TERM_NUMBERS = 1_000_000;
/**
 * Above this many characters in the terms and words kept, {@link trimTermNumbers} starts over too
 * (long words, such as a tool's 30,000-letter blob, would otherwise pile up long before the count).
 */
const MAX_TERM_CHARS = 32_000_000;
/** The characters of the terms that have numbers. */
let termChars = 0;

/** The process-wide number of a term (the same for the same term until {@link trimTermNumbers}). */
export function termNumber(term: string): number {
  let number = termNumbers.get(term);
  if (number === undefined) {
    number = termTexts.length;
    termTexts.push(term);
    termChars += term.length;
    termNumbers.set(term, number);
  }
  return number;
}

/** How many terms have numbers (the next number given out). */
export function termCount(): number {
  return termTexts.length;
}

/** The term of a number from {@link termNumber}. */
export function termText(number: number): string {
  const text = termTexts[number];
  if (text === undefined) throw new RangeError(`No term has number ${number}`);
  return text;
}

/**
 * Forgets every term number once there are more than `limit`, or once the terms and words kept
 * have more than `charLimit` characters (a process indexing ever new catalogs, or ever new long
 * words). Call only where no number is held (before a build): numbers given out before mean
 * nothing after.
 */
export function trimTermNumbers(limit = MAX_TERM_NUMBERS, charLimit = MAX_TERM_CHARS): void {
  if (termTexts.length <= limit && termChars + words.chars <= charLimit) return;
  termNumbers.clear();
  termTexts.length = 0;
  termChars = 0;
  words.clear();
  for (const listener of trimListeners) listener();
}

/** Called when {@link trimTermNumbers} starts over (memos of term numbers must start over too). */
const trimListeners: (() => void)[] = [];

/** Calls `listener` whenever term numbers start over. */
export function onTermNumbersTrimmed(listener: () => void): void {
  trimListeners.push(listener);
}

/**
 * A set of term numbers ({@link termNumber}) with constant-time add and lookup, emptied in constant
 * time: a term is in the set when its mark is the current stamp.
 */
export class TermSet {
  #marks = new Int32Array(1024);
  #stamp = 1;

  /** Empties the set. */
  clear(): void {
    if (this.#stamp === 0x7fffffff) {
      this.#marks.fill(0);
      this.#stamp = 0;
    }
    this.#stamp += 1;
  }

  add(term: number): void {
    if (term >= this.#marks.length) {
      const bigger = new Int32Array(Math.max(term + 1, this.#marks.length * 2));
      bigger.set(this.#marks);
      this.#marks = bigger;
    }
    this.#marks[term] = this.#stamp;
  }

  has(term: number): boolean {
    return this.#marks[term] === this.#stamp;
  }
}

/** A word as written and its term numbers. */
export interface WordRun {
  readonly text: string;
  readonly run: TermRun;
}

/** How many integers a slot of {@link WordTable} holds. */
const SLOT_INTS = 4;

/** A word's entry in {@link WordTable}'s singles when it has no term, or several. */
const SINGLE_NONE = -1;
const SINGLE_MANY = -2;

/**
 * The ASCII words seen so far (maximal runs of letters and digits, as written) with their term
 * numbers, in an open-addressing table keyed by a 32-bit FNV-1a of their characters.
 */
class WordTable {
  /**
   * Per slot, side by side: the word's index plus one (0: empty), its hash, where its characters
   * start in {@link WordTable.#chars} and how many there are (a lookup compares them there, in one
   * buffer, instead of reaching for the word's string).
   */
  #slots = new Int32Array(SLOT_INTS << 16);
  /** The characters of every word (all ASCII), one word's after another's. */
  #chars = new Uint8Array(1 << 18);
  #charCount = 0;
  #texts: string[] = [];
  #runs: TermRun[] = [];
  /**
   * Each word's one term ({@link SINGLE_NONE} when it has none, {@link SINGLE_MANY} when it has
   * several): most words have one, read here without touching their run.
   */
  #singles = new Int32Array(1 << 15);
  /** Whether each word is plain (1) or mixed (0). */
  #plain = new Uint8Array(1 << 15);
  /**
   * Each word's own words as {@link splitWords} gives them (`getUserV2`: `get`, `User`, ...), once
   * asked; `null` until then for a plain word (its one word is itself), `undefined` for the others.
   */
  #pieces: (readonly WordRun[] | null | undefined)[] = [];
  /** Above this many words the table starts over (at the next text): memory stays bounded. */
  static readonly MAX_WORDS = 1 << 20;

  get size(): number {
    return this.#texts.length;
  }

  /** The characters of the words kept. */
  chars = 0;

  /**
   * The index of the word `text[start, end)`, of hash `hash`, added if new; `plain` when it is one
   * word as it is (not `getUserV2`, which splits further).
   */
  index(text: string, start: number, end: number, hash: number, plain: boolean): number {
    const slots = this.#slots;
    const chars = this.#chars;
    const mask = slots.length / SLOT_INTS - 1;
    const length = end - start;
    let slot = hash & mask;
    for (
      let found = slots[slot * SLOT_INTS]!;
      found !== 0;
      slot = (slot + 1) & mask, found = slots[slot * SLOT_INTS]!
    ) {
      const at = slot * SLOT_INTS;
      if (slots[at + 1] !== hash || slots[at + 3] !== length) continue;
      const from = slots[at + 2]!;
      let i = 0;
      while (i < length && chars[from + i] === text.charCodeAt(start + i)) i++;
      if (i === length) return found - 1;
    }
    return this.#add(text, start, end, hash, plain);
  }

  /**
   * Adds the new word `text[start, end)` with its terms, found here and not in `index`: this method
   * is past V8's size limit for inlining, so the stemmer stays out of the scanners that inline
   * `index` (less for TurboFan to compile in a cold build, for a path few lookups take).
   */
  #add(text: string, start: number, end: number, hash: number, plain: boolean): number {
    const word = text.slice(start, end);
    // (a word's terms may come from other entries, added first: its slot is found after)
    const run = plain ? plainWordNumbers(word) : mixedWordNumbers(word);
    if (this.#charCount + word.length > this.#chars.length) {
      const bigger = new Uint8Array(Math.max(this.#charCount + word.length, this.#chars.length * 2));
      bigger.set(this.#chars);
      this.#chars = bigger;
    }
    const from = this.#charCount;
    for (let i = 0; i < word.length; i++) this.#chars[from + i] = word.charCodeAt(i);
    this.#charCount += word.length;
    const index = this.#texts.length;
    WordTable.#put(this.#slots, index + 1, hash, from, word.length);
    this.#texts.push(word);
    this.chars += word.length;
    this.#runs.push(run);
    if (index >= this.#singles.length) {
      const bigger = new Int32Array(this.#singles.length * 2);
      bigger.set(this.#singles);
      this.#singles = bigger;
    }
    this.#singles[index] = run.length === 1 ? run[0]! : run.length === 0 ? SINGLE_NONE : SINGLE_MANY;
    if (index >= this.#plain.length) {
      const bigger = new Uint8Array(this.#plain.length * 2);
      bigger.set(this.#plain);
      this.#plain = bigger;
    }
    this.#plain[index] = plain ? 1 : 0;
    this.#pieces.push(plain ? null : undefined);
    if (this.#texts.length > this.#slots.length / SLOT_INTS / 2) this.#grow();
    return index;
  }

  /** Puts a word's slot fields in the first free slot from its hash's. */
  static #put(slots: Int32Array, found: number, hash: number, from: number, length: number): void {
    const mask = slots.length / SLOT_INTS - 1;
    let slot = hash & mask;
    while (slots[slot * SLOT_INTS] !== 0) slot = (slot + 1) & mask;
    const at = slot * SLOT_INTS;
    slots[at] = found;
    slots[at + 1] = hash;
    slots[at + 2] = from;
    slots[at + 3] = length;
  }

  /** Each word's one term, by index (see {@link WordTable.run} for words of none or several). */
  get singles(): Int32Array {
    return this.#singles;
  }

  /** The term numbers of a word. */
  run(index: number): TermRun {
    return this.#runs[index]!;
  }

  /** Whether a word is one word as it is (its pieces are itself). */
  isPlain(index: number): boolean {
    return this.#plain[index] === 1;
  }

  /** A word's own words with their term numbers. */
  pieces(index: number): readonly WordRun[] {
    let pieces = this.#pieces[index];
    if (pieces === null) {
      // (splitWords of a plain word is the word, whose terms are its run)
      pieces = [{ text: this.#texts[index]!, run: this.#runs[index]! }];
      this.#pieces[index] = pieces;
    } else if (pieces === undefined) {
      // (splitWords of a mixed word is splitAsciiIdentifier's pieces, and splitWords of a piece gives
      // the piece's own entry's terms)
      const texts: string[] = [];
      splitAsciiIdentifier(this.#texts[index]!, texts);
      pieces = texts.map((piece) => ({ text: piece, run: this.#runs[asciiWordIndex(piece, false)]! }));
      this.#pieces[index] = pieces;
    }
    return pieces;
  }

  clear(): void {
    this.chars = 0;
    this.#slots = new Int32Array(SLOT_INTS << 16);
    this.#chars = new Uint8Array(1 << 18);
    this.#charCount = 0;
    this.#texts = [];
    this.#runs = [];
    this.#singles = new Int32Array(1 << 15);
    this.#plain = new Uint8Array(1 << 15);
    this.#pieces = [];
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    for (let at = 0; at < old.length; at += SLOT_INTS) {
      if (old[at] !== 0) WordTable.#put(slots, old[at]!, old[at + 1]!, old[at + 2]!, old[at + 3]!);
    }
    this.#slots = slots;
  }
}

const words = new WordTable();

/** The run of a word without terms (a stop word), shared. */
const NO_TERMS: TermRun = Object.freeze([]);

/** The term number of a plain ASCII word (`weather`, `Weather`, `API`, `2024`), as a run. */
function plainWordNumbers(word: string): TermRun {
  const lower = word.toLowerCase();
  // (`Weather` and `API` share the run of `weather` and `api`: stemmed once)
  if (lower !== word) return words.run(asciiWordIndex(lower, true));
  const term = normalTerm(lower);
  // (Array.of, not an array literal: a literal's allocation site learns, at a collection mid-build,
  // that the runs it makes live on, and V8 then throws away the optimised code of every function
  // that inlined it, the tokeniser's included; Array.of's arrays are not tracked)
  return term === null ? NO_TERMS : Array.of(termNumber(term));
}

/**
 * The term numbers of a mixed ASCII word (letters and digits of several cases: `getUserV2`), split
 * as {@link splitWords} splits it.
 */
function mixedWordNumbers(word: string): number[] {
  const pieces: string[] = [];
  splitAsciiIdentifier(word, pieces);
  const numbers: number[] = Array.of(); // (not a literal: see plainWordNumbers)
  for (let i = 0; i < pieces.length; i++) {
    // A plain piece's term is that of its entry in the table (stemmed once for every word it is in).
    const index = asciiWordIndex(pieces[i]!, true);
    if (index >= 0) {
      const run = words.run(index);
      for (let k = 0; k < run.length; k++) numbers.push(run[k]!);
    } else {
      const term = normalTerm(pieces[i]!.toLowerCase());
      if (term !== null) numbers.push(termNumber(term));
    }
  }
  return numbers;
}

/**
 * The word table index of a run of ASCII letters and digits (added if new), or -1 when `plainOnly`
 * and it is not a plain word.
 */
function asciiWordIndex(word: string, plainOnly: boolean): number {
  let hash = FNV_OFFSET;
  let shape = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    const kind = ASCII_KIND[code]!;
    if (i === 0) shape = kind;
    else if (shape !== kind) shape = nextShape(shape, kind, i === 1);
    hash = Math.imul(hash ^ code, FNV_PRIME);
  }
  if (plainOnly && shape === MIXED) return -1;
  return words.index(word, 0, word.length, hash, shape !== MIXED);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const APOSTROPHE = 0x27;

/** The word indices of the text being read (reused: nothing re-enters). */
const scratch = new IntList(4096);
/** The terms {@link tokenizeToNumbers} collects (reused likewise). */
const collected = new IntList(256);

/**
 * The words of ASCII text whose apostrophes were dealt with, into `scratch` as word table indices,
 * in one pass: its words are its runs of letters and digits, and a run's terms are those of the
 * run alone (splitWords of the run). Returns false on meeting a character outside ASCII, or an
 * apostrophe if `apostrophes` says they may still need dealing with.
 */
function scanAscii(text: string, apostrophes: boolean): boolean {
  scratch.length = 0;
  if (words.size >= WordTable.MAX_WORDS) words.clear();
  const length = text.length;
  let start = -1;
  let hash = 0;
  // The run's shape, as splitWords sees it: only digits, only capitals, a word in lower case
  // (capital first or not), or mixed (to split further).
  let shape = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return false;
    const kind = ASCII_KIND[code]!;
    if (kind !== 0) {
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
        shape = kind;
      } else if (shape !== kind) {
        shape = nextShape(shape, kind, i === start + 1);
      }
      hash = Math.imul(hash ^ code, FNV_PRIME);
    } else {
      if (apostrophes && code === APOSTROPHE) return false;
      if (start >= 0) {
        scratch.push(words.index(text, start, i, hash, shape !== MIXED));
        start = -1;
      }
    }
  }
  if (start >= 0) scratch.push(words.index(text, start, length, hash, shape !== MIXED));
  return true;
}

/**
 * Scans text into `scratch` (see {@link scanAscii}); false for text outside ASCII but for the
 * characters that only separate words ({@link asciiSeparated}).
 */
function scanWords(text: string): boolean {
  if (scanAscii(text, true)) return true;
  let ascii = text;
  if (!isAscii(text)) {
    const separated = asciiSeparated(text);
    if (separated === undefined) return false;
    ascii = separated;
  }
  // (the apostrophes left are separators)
  scanAscii(withoutAsciiApostrophes(ascii), false);
  return true;
}

/** {@link tokenize}'s terms of a text, as term numbers ({@link termNumber}). */
export function tokenizeToNumbers(text: string): number[] {
  // (through an IntList, as everywhere: a plain array made tokenizeInto's pushes see two kinds of
  // list, and V8 threw its optimised code away in the middle of a build)
  collected.length = 0;
  return Array.from(tokenizeInto(text, collected).values.subarray(0, collected.length));
}

/** {@link tokenizeToNumbers} appended to `out` (which it returns). */
export function tokenizeInto(text: string, out: IntList): IntList {
  if (scanWords(text)) {
    const indices = scratch.values;
    const singles = words.singles;
    for (let i = 0; i < scratch.length; i++) {
      const single = singles[indices[i]!]!;
      if (single >= 0) out.push(single);
      else if (single === SINGLE_MANY) {
        const run = words.run(indices[i]!);
        for (let k = 0; k < run.length; k++) out.push(run[k]!);
      }
    }
    return out;
  }
  for (const word of splitWords(text)) {
    const term = wordTerm(word);
    if (term !== null) out.push(termNumber(term));
  }
  return out;
}

/** {@link splitWords}'s words of a text, each with its term numbers ({@link termNumber}). */
export function wordRuns(text: string): WordRun[] {
  if (scanWords(text)) {
    const out: WordRun[] = [];
    for (let i = 0; i < scratch.length; i++) {
      const pieces = words.pieces(scratch.values[i]!);
      for (let k = 0; k < pieces.length; k++) out.push(pieces[k]!);
    }
    return out;
  }
  return splitWords(text).map((word) => ({ text: word, run: tokenizeToNumbers(word) }));
}

/**
 * Appends to `out` the terms of each of {@link wordRuns}'s words of `text` none of whose terms is
 * in `known` (nor in an earlier word taken), adding them to `known`: what {@link wordRuns} and a
 * loop over it would give, without making the words.
 */
export function termsOfNewWords(text: string, known: TermSet, out: IntList): void {
  if (!scanWords(text)) {
    const runs = wordRuns(text);
    for (let i = 0; i < runs.length; i++) takeIfNew(runs[i]!.run, 0, runs[i]!.run.length, known, out);
    return;
  }
  const singles = words.singles;
  for (let i = 0; i < scratch.length; i++) {
    const index = scratch.values[i]!;
    if (words.isPlain(index)) {
      const single = singles[index]!;
      if (single >= 0) {
        if (!known.has(single)) {
          out.push(single);
          known.add(single);
        }
      } else if (single === SINGLE_MANY) {
        const run = words.run(index);
        takeIfNew(run, 0, run.length, known, out);
      }
    } else {
      const pieces = words.pieces(index);
      for (let k = 0; k < pieces.length; k++) takeIfNew(pieces[k]!.run, 0, pieces[k]!.run.length, known, out);
    }
  }
}

/** Appends `run[start, end)` to `out` and adds it to `known` when none of it is known and it is not empty. */
function takeIfNew(run: ArrayLike<number>, start: number, end: number, known: TermSet, out: IntList): void {
  if (start === end) return;
  for (let i = start; i < end; i++) if (known.has(run[i]!)) return;
  for (let i = start; i < end; i++) out.push(run[i]!);
  for (let i = start; i < end; i++) known.add(run[i]!);
}
