// How a catalog tool becomes index terms: the text of each field, tokenised, and a fingerprint of
// that text. Built for speed at catalog scale (10,000+ tools): the strings of a tool are tokenised
// where they are (never joined and split again), repeated strings (names, parameter names and
// descriptions, tags) through a memo, and word pairs come from a memo of pair terms.
import { splitWords, tokenize } from './tokenize.js';
import type { CatalogTool } from './types.js';

/** The fields a tool is indexed under; `source` and `tags` are reported as `tags`. */
export type IndexField = 'name' | 'description' | 'tags' | 'source' | 'parameters' | 'phrases';

/** The index's fields, in the order of the keyword index's field numbers. */
export const INDEX_FIELDS: readonly IndexField[] = ['name', 'description', 'tags', 'source', 'parameters', 'phrases'];

/** A tool as the keyword index takes it. */
export interface ToolTerms {
  /** The terms of each field, in {@link INDEX_FIELDS} order (`phrases`: word pairs, see {@link pairTerm}). */
  fields: readonly (readonly string[])[];
  /** A hash of the indexed text: tells whether a tool changed since an index was saved. */
  fingerprint: string;
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
      for (const [name, property] of Object.entries(properties)) {
        if (count++ >= MAX_PARAMETERS) return;
        parts.push(name);
        if (isRecord(property)) {
          if (typeof property.title === 'string') parts.push(property.title);
          if (typeof property.description === 'string') parts.push(property.description);
          visit(property, depth + 1);
          if (isRecord(property.items)) visit(property.items, depth + 1);
        }
      }
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const variants = node[key];
      if (Array.isArray(variants)) for (const variant of variants) visit(variant, depth);
    }
  };
  visit(schema, 1);
  return parts;
}

/**
 * Memo of the terms of short strings of tool text (catalogs repeat them: parameter names and their
 * descriptions, tool names, tags); longer strings are rarely repeated and not kept.
 */
const stringTermsCache = new Map<string, readonly string[]>();
const MAX_CACHED_STRINGS = 100_000;
const MAX_CACHED_STRING_LENGTH = 160;

/** {@link tokenize}, memoised for short strings; the array may be shared: never change it. */
function stringTerms(text: string): readonly string[] {
  if (text.length > MAX_CACHED_STRING_LENGTH) return tokenize(text);
  let terms = stringTermsCache.get(text);
  if (terms === undefined) {
    terms = tokenize(text);
    if (stringTermsCache.size >= MAX_CACHED_STRINGS) stringTermsCache.clear();
    stringTermsCache.set(text, terms);
  }
  return terms;
}

function pushAll(out: string[], terms: readonly string[]): void {
  for (let i = 0; i < terms.length; i++) out.push(terms[i]!);
}

/** The pair terms made so far, by their two terms (lesser first); starts over when it grows too big. */
const pairTerms = new Map<string, Map<string, string>>();
let pairTermCount = 0;
const MAX_PAIR_TERMS = 200_000;

/**
 * The term that stands for two neighbouring terms in either order (`blood count` and `count blood`
 * give `blood+count`). The same string object for the same pair, so that the index finds it
 * without hashing a new string each time.
 */
export function pairTerm(a: string, b: string): string {
  const first = a < b ? a : b;
  const second = a < b ? b : a;
  let seconds = pairTerms.get(first);
  if (seconds === undefined) {
    if (pairTermCount >= MAX_PAIR_TERMS) {
      pairTerms.clear();
      pairTermCount = 0;
    }
    seconds = new Map();
    pairTerms.set(first, seconds);
  }
  let pair = seconds.get(second);
  if (pair === undefined) {
    pair = `${first}+${second}`;
    seconds.set(second, pair);
    pairTermCount += 1;
  }
  return pair;
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
function idWordsBeyondName(id: string, nameTerms: readonly string[]): string {
  const known = new Set(nameTerms);
  const extra: string[] = [];
  for (const word of splitWords(id)) {
    const terms = stringTerms(word);
    if (terms.length > 0 && terms.every((term) => !known.has(term))) {
      extra.push(word);
      for (const term of terms) known.add(term);
    }
  }
  return extra.join(' ');
}

/** The strings a tool is indexed with, per field, as the tool has them. */
interface IndexedText {
  /** The display name, line by line, each line's terms. */
  nameLines: (readonly string[])[];
  /** The name's terms plus those of the id's words that the name lacks. */
  nameTerms: string[];
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
  const nameLines = tool.name.split('\n').map(stringTerms);
  const nameTerms: string[] = [];
  for (const line of nameLines) pushAll(nameTerms, line);
  const idWords = idWordsBeyondName(tool.id, nameTerms);
  if (idWords !== '') pushAll(nameTerms, stringTerms(idWords));
  return {
    nameLines,
    nameTerms,
    idWords,
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
  // Descriptions seldom repeat from tool to tool: they skip the memo.
  const descriptionLines = text.description.split('\n').map((line) => tokenize(line));
  const descriptionTerms: string[] = [];
  for (const line of descriptionLines) pushAll(descriptionTerms, line);

  const phrases: string[] = [];
  for (const line of text.nameLines) pushPairs(phrases, line);
  for (const line of descriptionLines) pushPairs(phrases, line);

  const tagTerms: string[] = [];
  for (const tag of text.tags) pushAll(tagTerms, stringTerms(tag));
  const parameterTerms: string[] = [];
  for (const part of text.parameters) pushAll(parameterTerms, stringTerms(part));

  return {
    fields: [text.nameTerms, descriptionTerms, tagTerms, stringTerms(text.source), parameterTerms, phrases],
    fingerprint: fingerprintOf(text, tool.name),
  };
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
