// How a catalog tool becomes index terms: the text of each field, tokenised into term numbers
// (see `termNumber`), and a fingerprint of that text; and how a whole catalog's terms feed a
// keyword index build. Built for speed at catalog scale (10,000+ tools): the strings of a tool are
// tokenised where they are (never joined and split again), repeated strings (names, parameter
// names and descriptions, tags) once through a memo, and a build looks terms up by number in an
// array rather than by text in a map.
import type { KeywordIndexBuilder, TermEntry } from './keyword-index.js';
import type { PhraseLines } from './phrase-index.js';
import { type TermRun, termNumbersGeneration, termText, tokenizeToNumbers } from './term-numbers.js';
import { splitWords } from './tokenize.js';
import type { CatalogTool } from './types.js';

/**
 * The fields a tool is scored under; `source` and `tags` are reported as `tags`. `phrases` are pairs
 * of neighbouring words of the name or the description, matched by the phrase index.
 */
export type IndexField = 'name' | 'description' | 'tags' | 'source' | 'parameters' | 'phrases';

/** The keyword index's fields, in the order of its field numbers. */
export const INDEX_FIELDS: readonly IndexField[] = ['name', 'description', 'tags', 'source', 'parameters'];

/**
 * A tool's terms as runs of term numbers: those of each string the tool has, so that a string seen
 * before brings the very same array.
 */
export interface ToolTerms {
  /** The runs of each field, in {@link INDEX_FIELDS} order. */
  fields: TermRun[][];
  /** The lines of the name and of the description, whose neighbouring terms make phrases. */
  phraseLines: TermRun[];
}

/** How deep nested object parameters are followed (`address.city` is depth 2). */
const MAX_PARAMETER_DEPTH = 3;
/** At most this many parameter names are indexed per tool (huge schemas would drown the rest). */
const MAX_PARAMETERS = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parameter names, titles and descriptions from a JSON Schema's `properties`, following nested
 * object properties (and array items' properties) up to {@link MAX_PARAMETER_DEPTH} levels, in
 * schema order.
 */
function parameterStrings(schema: unknown): string[] {
  const parts: string[] = [];
  let count = 0;
  const visit = (node: unknown, depth: number) => {
    if (!isRecord(node) || depth > MAX_PARAMETER_DEPTH) return;
    const properties = node.properties;
    if (isRecord(properties)) {
      for (const name of Object.keys(properties)) {
        if (count++ >= MAX_PARAMETERS) return;
        parts.push(name);
        const property = properties[name];
        if (isRecord(property)) {
          if (typeof property.title === 'string') parts.push(property.title);
          if (typeof property.description === 'string') parts.push(property.description);
          visit(property, depth + 1);
          if (isRecord(property.items)) visit(property.items, depth + 1);
        }
      }
    }
    for (const key of VARIANT_KEYS) {
      const variants = node[key];
      if (Array.isArray(variants)) for (const variant of variants) visit(variant, depth);
    }
  };
  visit(schema, 1);
  return parts;
}

const VARIANT_KEYS = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * Memo of the term numbers of short strings of tool text (catalogs repeat them: parameter names and
 * their descriptions, tool names, tags); longer strings are rarely repeated and not kept.
 */
const stringRuns = new Map<string, TermRun>();
let stringRunsGeneration = termNumbersGeneration();
const MAX_CACHED_STRINGS = 100_000;
const MAX_CACHED_STRING_LENGTH = 160;

/** The term numbers of a string, memoised if short; the array may be shared: never change it. */
function stringRun(text: string): TermRun {
  if (text.length > MAX_CACHED_STRING_LENGTH) return tokenizeToNumbers(text);
  if (stringRunsGeneration !== termNumbersGeneration()) {
    stringRuns.clear();
    stringRunsGeneration = termNumbersGeneration();
  }
  let run = stringRuns.get(text);
  if (run === undefined) {
    run = tokenizeToNumbers(text);
    if (stringRuns.size >= MAX_CACHED_STRINGS) stringRuns.clear();
    stringRuns.set(text, run);
  }
  return run;
}

/**
 * The term that stands for two neighbouring terms in either order (`blood count` and `count blood`
 * give `blood+count`).
 */
export function pairTerm(a: string, b: string): string {
  return a < b ? `${a}+${b}` : `${b}+${a}`;
}

/** Adds the pairs of neighbouring terms of one line (no pair of a term with itself). */
export function pushPairs(out: string[], terms: readonly string[]): void {
  for (let i = 0; i + 1 < terms.length; i++) {
    const a = terms[i]!;
    const b = terms[i + 1]!;
    if (a !== b) out.push(pairTerm(a, b));
  }
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

/** Feeds strings to a hash with a newline between them (as if joined with `\n`). */
function feedLines(hash: Fnv32, parts: readonly string[]): void {
  parts.forEach((part, i) => {
    if (i > 0) hash.char(NEWLINE);
    hash.text(part);
  });
}

/**
 * The words of a tool's id that its name lacks (e.g. a namespace such as `github__`), as one line:
 * only words none of whose terms the name already has, so nothing counts twice. (The provider tool
 * name is derived from the id, plus at times a hash, so it adds nothing.)
 */
function idWordsBeyondName(id: string, nameLines: readonly TermRun[]): string {
  const extra: string[] = [];
  const extraTerms: number[] = [];
  const known = (term: number) => nameLines.some((line) => line.includes(term)) || extraTerms.includes(term);
  for (const word of splitWords(id)) {
    const terms = tokenizeToNumbers(word);
    if (terms.length > 0 && !terms.some(known)) {
      extra.push(word);
      extraTerms.push(...terms);
    }
  }
  return extra.join(' ');
}

/** The strings a tool is indexed with, per field, as the tool has them. */
interface IndexedText {
  /** The display name, line by line, each line's terms. */
  nameLines: TermRun[];
  /** The words of the id that the name lacks, as one line (`''` when none). */
  idWords: string;
  description: string;
  source: string;
  /** The tags, but one equal to the source. */
  tags: string[];
  /** Parameter names, titles and descriptions (see {@link parameterStrings}). */
  parameters: string[];
}

function indexedText(tool: CatalogTool<unknown>): IndexedText {
  const nameLines = tool.name.split('\n').map(stringRun);
  return {
    nameLines,
    idWords: idWordsBeyondName(tool.id, nameLines),
    description: tool.description ?? '',
    source: tool.source ?? '',
    tags: (tool.tags ?? []).filter((tag) => tag !== tool.source),
    parameters: parameterStrings(tool.jsonSchema),
  };
}

/**
 * 32-bit FNV-1a of the indexed text, in base 36, as the index has always hashed it: name (and id
 * words), description, tags, source and parameters, a NUL between fields and a newline between the
 * parts of one.
 */
function fingerprintOf(text: IndexedText, name: string): string {
  const hash = new Fnv32().text(name);
  if (text.idWords !== '') hash.char(NEWLINE).text(text.idWords);
  hash.char(SEPARATOR).text(text.description).char(SEPARATOR);
  feedLines(hash, text.tags);
  hash.char(SEPARATOR).text(text.source).char(SEPARATOR);
  feedLines(hash, text.parameters);
  return hash.digest();
}

/** A hash of the text a tool is indexed with: tells whether it changed since an index was saved. */
export function toolFingerprint(tool: CatalogTool<unknown>): string {
  return fingerprintOf(indexedText(tool), tool.name);
}

/**
 * A tool's index terms per field:
 * - `name`: the display name, plus the words of the id that the name lacks;
 * - `description`, `source`, and `tags` (but a tag equal to the source);
 * - `parameters`: parameter names, titles and descriptions (see {@link parameterStrings});
 * - `phrases`: the pairs of neighbouring terms of each line of the name and of the description.
 *
 * Text goes through {@link tokenize}; a word never spans a line break, and pairs never do either.
 */
export function toolTerms(tool: CatalogTool<unknown>): ToolTerms {
  const text = indexedText(tool);
  const name = text.idWords === '' ? text.nameLines : [...text.nameLines, stringRun(text.idWords)];
  // Descriptions seldom repeat from tool to tool: they skip the memo.
  const description = text.description.split('\n').map((line) => tokenizeToNumbers(line));
  return {
    fields: [name, description, text.tags.map(stringRun), [stringRun(text.source)], text.parameters.map(stringRun)],
    phraseLines: [...text.nameLines, ...description],
  };
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
  for (const line of terms.phraseLines) {
    if (ids.length > 0) ids.push(-1);
    for (const term of line) ids.push(entryOf(termText(term))?.id ?? -1);
  }
  return Int32Array.from(ids);
}

/**
 * Feeds tools to a keyword index build ({@link KeywordIndex.build}), mapping the process-wide term
 * numbers of {@link toolTerms} to the build's own through an array, and keeps each tool's phrase
 * lines (in the build's numbers, which are the built entries' ids, -1 between lines) with their
 * number of distinct pairs, for the phrase index once the build is done.
 */
export class ToolIndexFeeder {
  readonly #builder: KeywordIndexBuilder;
  /** The build's number of each process-wide term number, plus one (0: not yet used). */
  #local = new Int32Array(1024);
  /** Per pair of the build's term numbers: the last document (+1) that had it. */
  readonly #pairSeen = new PairTable();
  #documents = 0;
  /** Each document's phrase lines, in the build's term numbers. */
  readonly lines: Int32Array[] = [];
  /** Each document's number of distinct pairs. */
  readonly pairCounts: number[] = [];

  constructor(builder: KeywordIndexBuilder) {
    this.#builder = builder;
  }

  add(id: string, terms: ToolTerms): void {
    const fields: number[][] = [];
    for (const runs of terms.fields) {
      const numbers: number[] = [];
      for (const run of runs) for (let i = 0; i < run.length; i++) numbers.push(this.#term(run[i]!));
      fields.push(numbers);
    }
    this.#builder.add(id, fields);

    const mark = ++this.#documents;
    let size = terms.phraseLines.length - 1;
    for (const line of terms.phraseLines) size += line.length;
    const lines = new Int32Array(Math.max(size, 0));
    let at = 0;
    let pairs = 0;
    for (const line of terms.phraseLines) {
      if (at > 0) lines[at++] = -1;
      for (let i = 0; i < line.length; i++) {
        const term = this.#term(line[i]!);
        lines[at++] = term;
        if (i === 0) continue;
        const previous = lines[at - 2]!;
        if (previous === term) continue;
        const first = previous < term ? previous : term;
        const second = previous < term ? term : previous;
        if (this.#pairSeen.get(first, second) === mark) continue;
        this.#pairSeen.put(first, second, mark);
        pairs += 1;
      }
    }
    this.lines.push(lines);
    this.pairCounts.push(pairs);
  }

  #term(global: number): number {
    if (global >= this.#local.length) {
      const bigger = new Int32Array(Math.max(global + 1, this.#local.length * 2));
      bigger.set(this.#local);
      this.#local = bigger;
    }
    const known = this.#local[global]!;
    if (known > 0) return known - 1;
    const local = this.#builder.term(termText(global));
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

/** A hash table from pairs of non-negative numbers to non-negative numbers (open addressing). */
class PairTable {
  /** Per slot: the first number plus one (0: empty), the second, the value. */
  #firsts = new Int32Array(1 << 12);
  #seconds = new Int32Array(1 << 12);
  #values = new Int32Array(1 << 12);
  #size = 0;

  /** The value of `(a, b)`, or -1. */
  get(a: number, b: number): number {
    const mask = this.#firsts.length - 1;
    for (let slot = hashPair(a, b) & mask; ; slot = (slot + 1) & mask) {
      const first = this.#firsts[slot]!;
      if (first === 0) return -1;
      if (first === a + 1 && this.#seconds[slot] === b) return this.#values[slot]!;
    }
  }

  /** Sets the value of a pair. */
  put(a: number, b: number, value: number): void {
    const mask = this.#firsts.length - 1;
    for (let slot = hashPair(a, b) & mask; ; slot = (slot + 1) & mask) {
      const first = this.#firsts[slot]!;
      if (first === a + 1 && this.#seconds[slot] === b) {
        this.#values[slot] = value;
        return;
      }
      if (first === 0) break;
    }
    if ((this.#size + 1) * 2 > this.#firsts.length) this.#grow();
    this.#place(a, b, value);
    this.#size += 1;
  }

  #place(a: number, b: number, value: number): void {
    const mask = this.#firsts.length - 1;
    let slot = hashPair(a, b) & mask;
    while (this.#firsts[slot] !== 0) slot = (slot + 1) & mask;
    this.#firsts[slot] = a + 1;
    this.#seconds[slot] = b;
    this.#values[slot] = value;
  }

  #grow(): void {
    const firsts = this.#firsts;
    const seconds = this.#seconds;
    const values = this.#values;
    this.#firsts = new Int32Array(firsts.length * 2);
    this.#seconds = new Int32Array(firsts.length * 2);
    this.#values = new Int32Array(firsts.length * 2);
    for (let slot = 0; slot < firsts.length; slot++) {
      if (firsts[slot] !== 0) this.#place(firsts[slot]! - 1, seconds[slot]!, values[slot]!);
    }
  }
}

/** Mixes two numbers into 32 bits (murmur3's finaliser over the first, times a constant, xor the second). */
function hashPair(a: number, b: number): number {
  let hash = Math.imul(a, 0x9e3779b1) ^ b;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}
