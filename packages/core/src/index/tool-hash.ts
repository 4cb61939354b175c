// The hash of a tool that the binary saved index keeps (see `binary-index.ts`): its id and every
// text the index reads from it, computed by every load for every catalog tool, so written for
// speed: one number carried through plain functions (no hash object, no call through an
// interface), two UTF-16 units per multiplication.
import type { CatalogTool } from '../types.js';
import { collectParameterStrings, type ParameterSink } from './tool-parameters.js';

const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;
/** Marks between the parts of a tool (fed as {@link mixMark}, unlike any pair of text units). */
const SEPARATOR = 0x00;
const NEWLINE = 0x0a;

/** `hash` with `text` added: 32-bit FNV-1a fed two UTF-16 units at a time (one multiplication per pair). */
function mixText(hash: number, text: string): number {
  let value = hash;
  const even = text.length & ~1;
  for (let i = 0; i < even; i += 2) {
    value = Math.imul(value ^ (text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16)), PRIME);
  }
  if (even < text.length) value = Math.imul(value ^ text.charCodeAt(even) ^ 0x10000, PRIME);
  return value;
}

/** `hash` with a mark between parts added. */
function mixMark(hash: number, code: number): number {
  return Math.imul(hash ^ code ^ 0x20000, PRIME);
}

/**
 * Adds the parameter strings of a schema to a hash as {@link collectParameterStrings} finds them, a
 * newline between them. (One, reused: nothing here re-enters.)
 */
class ParameterMix implements ParameterSink {
  count = 0;
  #hash = 0;
  #first = true;

  mix(schema: unknown, hash: number): number {
    this.count = 0;
    this.#first = true;
    this.#hash = hash;
    collectParameterStrings(schema, 1, this);
    return this.#hash;
  }

  add(text: string): void {
    const hash = this.#first ? this.#hash : mixMark(this.#hash, NEWLINE);
    this.#first = false;
    this.#hash = mixText(hash, text);
  }
}

const parameters = new ParameterMix();

/**
 * A hash of a tool's id and of all the text the index reads from it (name, description, tags,
 * source, parameter names, titles and descriptions; whole, not cut at `MAX_INDEXED_CHARS`), as an
 * unsigned 32-bit number: what the binary saved index keeps per tool, so that one hash tells both
 * that the catalog's tool at a position is the saved one and that its text is unchanged.
 */
export function toolContentHash(tool: CatalogTool<unknown>): number {
  let hash = mixText(OFFSET, tool.id);
  hash = mixText(mixMark(hash, SEPARATOR), tool.name);
  hash = mixText(mixMark(hash, SEPARATOR), tool.description ?? '');
  hash = mixMark(hash, SEPARATOR);
  const tags = tool.tags;
  if (tags !== undefined) {
    for (let i = 0; i < tags.length; i++) hash = mixText(i > 0 ? mixMark(hash, NEWLINE) : hash, tags[i]!);
  }
  hash = mixText(mixMark(hash, SEPARATOR), tool.source ?? '');
  return parameters.mix(tool.jsonSchema, mixMark(hash, SEPARATOR)) >>> 0;
}
