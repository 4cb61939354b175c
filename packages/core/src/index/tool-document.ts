// How a catalog tool becomes index terms: the text of each field, tokenised into term numbers
// (see `termNumber`), and a fingerprint of that text; and how a whole catalog's terms feed a
// keyword index build. Built for speed at catalog scale (10,000+ tools): the strings of a tool are
// tokenised where they are (never joined and split again), every known word is found in the word
// table by its characters, and a build looks terms up by number in an array, not by text in a map.

import type { CatalogTool } from '../types.js';
import { IntList } from './int-list.js';
import type { KeywordIndexBuilder, TermEntry } from './keyword-index.js';
import type { PhraseLines } from './phrase-index.js';
import { sharedRuns } from './shared-runs.js';
import {
  type TermRun,
  TermSet,
  termCount,
  termsOfNewWords,
  termText,
  tokenizeInto,
  tokenizeToNumbers,
  wordRuns,
} from './term-numbers.js';
import { collectParameterStrings, type ParameterSink } from './tool-parameters.js';

/**
 * The fields a tool is scored under; `source` and `tags` are reported as `tags`. `phrases` are pairs
 * of neighbouring words of the name or the description, matched by the phrase index.
 */
export type IndexField = 'name' | 'description' | 'tags' | 'source' | 'parameters' | 'phrases';

/** The keyword index's fields, in the order of its field numbers. */
export const INDEX_FIELDS: readonly IndexField[] = ['name', 'description', 'tags', 'source', 'parameters'];

/** A tool's terms as runs of term numbers: those of each string the tool has. */
export interface ToolTerms {
  /** The runs of each field, in {@link INDEX_FIELDS} order. */
  fields: TermRun[][];
  /** The lines of the name and of the description, whose neighbouring terms make phrases. */
  phraseLines: TermRun[];
}

/**
 * The most characters of a tool's text the index reads, per part: its name, its id, its
 * description, its tags (all together), its source, and its parameter text (names, titles and
 * descriptions together, in schema order). A text cut at the limit loses the word the limit falls
 * in (see {@link indexedText}). What lies beyond is not searchable, but the catalog keeps and serves
 * the whole text. No tool of the benchmark datasets comes near it (their longest description has
 * 8,018 characters); it bounds what one oversized tool costs every build and search.
 */
export const MAX_INDEXED_CHARS = 32_768;

/**
 * The part of a text the index reads: the whole text when it has at most `limit` characters, else
 * its first `limit` characters without the word the limit cuts (back to the last white space or
 * control character, if they have one), never half a surrogate pair.
 */
export function indexedText(text: string, limit = MAX_INDEXED_CHARS): string {
  if (text.length <= limit) return text;
  let end = limit;
  if (!isBlank(text.charCodeAt(end))) {
    while (end > 0 && !isBlank(text.charCodeAt(end - 1))) end -= 1;
    if (end === 0) end = limit; // one word longer than the limit: cut it
  }
  const last = text.charCodeAt(end - 1);
  if (end === limit && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** White space and control characters (where {@link indexedText} cuts a text). */
function isBlank(code: number): boolean {
  return code <= 0x20 || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200b);
}

/**
 * The term that stands for two neighbouring terms in either order (`blood count` and `count blood`
 * give `blood+count`).
 */
export function pairTerm(a: string, b: string): string {
  return a < b ? `${a}+${b}` : `${b}+${a}`;
}

/**
 * The words of a tool's id that its name lacks (e.g. a namespace such as `github__`): only words
 * none of whose terms the name already has, so nothing counts twice; with their terms. (The
 * provider tool name is derived from the id, plus at times a hash, so it adds nothing.)
 */
function idWordsBeyondName(id: string, name: string, nameLines: readonly TermRun[]): IdWords {
  if (id === name) return NO_ID_WORDS;
  const known = knownTerms;
  known.clear();
  for (let i = 0; i < nameLines.length; i++) {
    const line = nameLines[i]!;
    for (let k = 0; k < line.length; k++) known.add(line[k]!);
  }
  let words: string[] | undefined;
  let terms: number[] | undefined;
  const idWords = wordRuns(id);
  for (let w = 0; w < idWords.length; w++) {
    const run = idWords[w]!.run;
    if (run.length === 0 || !noneKnown(run, known)) continue;
    if (words === undefined || terms === undefined) {
      words = [];
      terms = [];
    }
    words.push(idWords[w]!.text);
    for (let i = 0; i < run.length; i++) terms.push(run[i]!);
    for (let i = 0; i < run.length; i++) known.add(run[i]!);
  }
  return words === undefined || terms === undefined ? NO_ID_WORDS : { words, terms };
}

/** The terms of the name and the id words taken so far, for {@link idWordsBeyondName}. */
const knownTerms = new TermSet();

/** What {@link idWordsBeyondName} finds: the words and their terms. */
interface IdWords {
  words: readonly string[];
  terms: readonly number[];
}

const NO_ID_WORDS: IdWords = Object.freeze({ words: [], terms: [] });

function noneKnown(terms: TermRun, known: TermSet): boolean {
  for (let i = 0; i < terms.length; i++) if (known.has(terms[i]!)) return false;
  return true;
}

/** The terms of each line of a text. */
function lineRuns(text: string): TermRun[] {
  return text.includes('\n') ? text.split('\n').map((line) => tokenizeToNumbers(line)) : [tokenizeToNumbers(text)];
}

/**
 * What {@link visitTool} tells: each run of terms of a field (`terms[start, end)`), fields in
 * {@link INDEX_FIELDS} order. A run is valid only during the call (it may be reused): copy it to keep it.
 */
type RunVisitor = (field: number, terms: ArrayLike<number>, start: number, end: number, phraseLine: boolean) => void;

const NAME = INDEX_FIELDS.indexOf('name');
const DESCRIPTION = INDEX_FIELDS.indexOf('description');
const TAGS = INDEX_FIELDS.indexOf('tags');
const SOURCE = INDEX_FIELDS.indexOf('source');
const PARAMETERS = INDEX_FIELDS.indexOf('parameters');

/**
 * Reads a tool's terms, run by run, field after field:
 * - `name`: the display name's lines, then the words of the id that the name lacks;
 * - `description`: its lines; `tags` (but a tag equal to the source); `source`;
 * - `parameters`: parameter names, titles and descriptions (see {@link collectParameterStrings}).
 *
 * The lines of the name and of the description are also phrase lines (in that order), whose
 * neighbouring terms make phrases. Text goes through {@link tokenize}; no word spans a line break.
 * Of each part, at most {@link MAX_INDEXED_CHARS} characters are read.
 */
function visitTool(tool: CatalogTool<unknown>, visit: RunVisitor): void {
  // (indexed loops: much of a build runs before the JIT has optimised it, and for-of allocates there)
  const name = indexedText(tool.name);
  // (the name's terms are known, and the id's words none of whose terms are: idWordsBeyondName's terms)
  knownTerms.clear();
  visitLines(NAME, name, visit, knownTerms);
  const id = indexedText(tool.id);
  if (id !== name) {
    idScratch.length = 0;
    termsOfNewWords(id, knownTerms, idScratch);
    if (idScratch.length > 0) visit(NAME, idScratch.values, 0, idScratch.length, false);
  }
  visitLines(DESCRIPTION, indexedText(tool.description ?? ''), visit);
  // Tags, sources and parameter strings repeat from tool to tool: those of 200 to 1,000 characters are
  // memoised (see sharedRuns).
  if (tool.tags !== undefined) visitStrings(TAGS, tool.tags, tool.source, visit);
  if (tool.source !== undefined) {
    const terms = sharedRuns.find(indexedText(tool.source));
    visit(SOURCE, terms, sharedRuns.start, sharedRuns.end, false);
  }
  parameterRuns.visitSchema(tool.jsonSchema, visit);
}

/** Visits each line of a text as a phrase line of `field`, its terms added to `known` if given. */
function visitLines(field: number, text: string, visit: RunVisitor, known?: TermSet): void {
  const lines = text.includes('\n') ? text.split('\n') : undefined;
  for (let i = 0; i < (lines === undefined ? 1 : lines.length); i++) {
    const run = scratchRun(lines === undefined ? text : lines[i]!);
    if (known !== undefined) for (let k = 0; k < run.length; k++) known.add(run.values[k]!);
    visit(field, run.values, 0, run.length, true);
  }
}

/** The terms of the id words beyond the name (see {@link visitTool}). */
const idScratch = new IntList(256);

/**
 * Visits parameter strings as the walk finds them, as {@link visitStrings} does ({@link MAX_INDEXED_CHARS}
 * characters in all, through the memo), with no list of them made. (One, reused: nothing here re-enters.)
 */
class ParameterRuns implements ParameterSink {
  count = 0;
  #left = 0;
  #visit: RunVisitor = NO_VISIT;

  visitSchema(schema: unknown, visit: RunVisitor): void {
    this.count = 0;
    this.#left = MAX_INDEXED_CHARS;
    this.#visit = visit;
    try {
      collectParameterStrings(schema, 1, this);
    } finally {
      this.#visit = NO_VISIT; // (the visitor and what it holds, such as a build, are not kept)
    }
  }

  add(whole: string): void {
    if (this.#left <= 0) return;
    const text = indexedText(whole, this.#left);
    this.#left = text.length < whole.length ? 0 : this.#left - text.length;
    const terms = sharedRuns.find(text);
    this.#visit(PARAMETERS, terms, sharedRuns.start, sharedRuns.end, false);
  }
}

const NO_VISIT: RunVisitor = () => {};
const parameterRuns = new ParameterRuns();

/**
 * Visits the strings of one field but any equal to `except`, {@link MAX_INDEXED_CHARS} characters in
 * all (through {@link sharedRuns}: such strings repeat from tool to tool).
 */
function visitStrings(field: number, strings: readonly string[], except: string | undefined, visit: RunVisitor): void {
  let left = MAX_INDEXED_CHARS;
  for (let i = 0; i < strings.length && left > 0; i++) {
    const whole = strings[i]!;
    if (whole === except) continue;
    const text = indexedText(whole, left);
    left = text.length < whole.length ? 0 : left - text.length;
    const terms = sharedRuns.find(text);
    visit(field, terms, sharedRuns.start, sharedRuns.end, false);
  }
}

/** The run a visitor gets for a string it is not to keep (see {@link RunVisitor}). */
const scratch = new IntList(4096);

function scratchRun(text: string): IntList {
  scratch.length = 0;
  return tokenizeInto(text, scratch);
}

/** 32-bit FNV-1a over strings fed one after another. */
class Fnv32 {
  #hash = 0x811c9dc5;

  text(text: string): this {
    let hash = this.#hash;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    this.#hash = hash;
    return this;
  }

  char(code: number): this {
    this.#hash = Math.imul(this.#hash ^ code, 0x01000193);
    return this;
  }

  /** The hash in base 36. */
  digest(): string {
    return (this.#hash >>> 0).toString(36);
  }
}

const NEWLINE = 0x0a;
const SEPARATOR = 0x00;

/** Feeds strings (but any equal to `except`) to a hash with a newline between them (as if joined with `\n`). */
function feedLines(hash: TextHash, parts: readonly string[], except?: string): void {
  let first = true;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === except) continue;
    if (!first) hash.char(NEWLINE);
    first = false;
    hash.text(parts[i]!);
  }
}

/**
 * A hash of the text a tool is indexed with: tells whether it changed since an index was saved.
 * 32-bit FNV-1a in base 36, as the index has always hashed it: name (and the id words it lacks),
 * description, tags, source and parameters, a NUL between fields and a newline between the parts
 * of one.
 */
export function toolFingerprint(tool: CatalogTool<unknown>): string {
  const name = indexedText(tool.name);
  const idWords = idWordsBeyondName(indexedText(tool.id), name, lineRuns(name)).words.join(' ');
  const hash = new Fnv32().text(tool.name);
  if (idWords !== '') hash.char(NEWLINE).text(idWords);
  return feedContent(hash, tool).digest();
}

/** What {@link feedContent} feeds: an {@link Fnv32} (the JSON form's fingerprint). */
interface TextHash {
  text(text: string): TextHash;
  char(code: number): TextHash;
}

/** Feeds a tool's description, tags, source and parameters to a fingerprint. */
function feedContent<H extends TextHash>(hash: H, tool: CatalogTool<unknown>): H {
  hash
    .char(SEPARATOR)
    .text(tool.description ?? '')
    .char(SEPARATOR);
  feedLines(hash, tool.tags ?? [], tool.source);
  hash
    .char(SEPARATOR)
    .text(tool.source ?? '')
    .char(SEPARATOR);
  // (the parameter strings hashed as they are found, as if joined with `\n`: no list of them made)
  parameterHash.feed(tool.jsonSchema, hash);
  return hash;
}

/**
 * Feeds the parameter strings of a schema to a hash, a newline between them. (One, reused: a
 * class, so that the walk's calls of `add` see one shape; nothing here re-enters.)
 */
class ParameterHash implements ParameterSink {
  count = 0;
  #first = true;
  #hash: TextHash = new Fnv32();

  feed(schema: unknown, hash: TextHash): void {
    this.count = 0;
    this.#first = true;
    this.#hash = hash;
    collectParameterStrings(schema, 1, this);
  }

  add(text: string): void {
    if (!this.#first) this.#hash.char(NEWLINE);
    this.#first = false;
    this.#hash.text(text);
  }
}

const parameterHash = new ParameterHash();

/** A tool's terms as runs (see {@link visitTool}). */
export function toolTerms(tool: CatalogTool<unknown>): ToolTerms {
  const fields: TermRun[][] = INDEX_FIELDS.map(() => []);
  const phraseLines: TermRun[] = [];
  visitTool(tool, (field, terms, start, end, phraseLine) => {
    const kept = Array.from({ length: end - start }, (_, i) => terms[start + i]!);
    fields[field]!.push(kept);
    if (phraseLine) phraseLines.push(kept);
  });
  return { fields, phraseLines };
}

/** The terms of each keyword index field as text, in {@link INDEX_FIELDS} order. */
export function toolTermTexts(terms: ToolTerms): string[][] {
  return terms.fields.map((runs) => runs.flatMap((run) => run.map(termText)));
}

/**
 * The phrase lines of a tool as the entry ids of an index holding its terms (`entryOf`), -1 between
 * lines.
 */
export function toolPhraseLines(terms: ToolTerms, entryOf: (term: string) => TermEntry | undefined): PhraseLines {
  const ids: number[] = [];
  terms.phraseLines.forEach((line, i) => {
    if (i > 0) ids.push(-1);
    for (const term of line) ids.push(entryOf(termText(term))?.id ?? -1);
  });
  return Int32Array.from(ids);
}

/**
 * Feeds tools to a keyword index build (`buildKeywordIndex`), term by term as
 * {@link visitTool} reads them, mapping process-wide term numbers to the build's own through an
 * array; and keeps each tool's phrase lines (in the build's numbers, which are the built entries'
 * ids, -1 between lines) for the phrase index once the build is done.
 */
export class ToolIndexFeeder {
  readonly #builder: KeywordIndexBuilder;
  /** The build's number of each process-wide term number, plus one (0: not yet used). */
  #local: Int32Array;
  /**
   * The phrase lines of every tool fed, one tool's after another's, where each tool's end, and how
   * many lines the tool being fed has had so far.
   */
  readonly #lines: IntList;
  readonly #ends: IntList;
  #phraseLines = 0;
  /** The run being fed, in the build's numbers. */
  readonly #mapped = new IntList(1024);
  readonly #visit: RunVisitor = (field, terms, start, end, phraseLine) => {
    const mapped = this.#mapped;
    mapped.length = 0;
    for (let i = start; i < end; i++) {
      const global = terms[i]!;
      const known = global < this.#local.length ? this.#local[global]! : 0;
      mapped.push(known > 0 ? known - 1 : this.#newTerm(global));
    }
    if (phraseLine) {
      const lines = this.#lines;
      if (this.#phraseLines++ > 0) lines.push(-1);
      for (let i = 0; i < mapped.length; i++) lines.push(mapped.values[i]!);
    }
    this.#builder.pushRun(field, mapped.values, 0, mapped.length);
  };

  /** `expectedTools`: how many tools are coming (arrays are sized for them). */
  constructor(builder: KeywordIndexBuilder, expectedTools = 0) {
    this.#builder = builder;
    this.#local = new Int32Array(Math.max(1024, termCount() + expectedTools * 2));
    this.#lines = new IntList(Math.max(4096, expectedTools * 32));
    this.#ends = new IntList(Math.max(256, expectedTools));
  }

  add(tool: CatalogTool<unknown>): void {
    this.#phraseLines = 0;
    this.#builder.open(tool.id);
    visitTool(tool, this.#visit);
    this.#builder.close();
    this.#ends.push(this.#lines.length);
  }

  /**
   * Each tool's phrase lines, in the build's term numbers, in the order fed: one buffer, and where
   * each tool's start (and, last, where the last one ends).
   */
  phraseBuffer(): { buffer: Int32Array; starts: Int32Array } {
    const buffer = this.#lines.values.slice(0, this.#lines.length);
    const starts = new Int32Array(this.#ends.length + 1);
    starts.set(this.#ends.values.subarray(0, this.#ends.length), 1);
    return { buffer, starts };
  }

  /** The build's number of a process-wide term number new to the build. */
  #newTerm(global: number): number {
    if (global >= this.#local.length) {
      const bigger = new Int32Array(Math.max(global + 1, this.#local.length * 2));
      bigger.set(this.#local);
      this.#local = bigger;
    }
    const known = this.#local[global]!;
    if (known > 0) return known - 1;
    // (each process-wide number is one term, met once here: new to the build)
    const local = this.#builder.newTerm(termText(global));
    this.#local[global] = local + 1;
    return local;
  }
}

/**
 * The text that stands for a tool when it is embedded (hybrid search): its name, description, tags
 * and source, one per line.
 */
export function toolText(tool: Pick<CatalogTool<unknown>, 'name' | 'description' | 'tags' | 'source'>): string {
  return [tool.name, tool.description, ...(tool.tags ?? []), tool.source]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join('\n');
}
