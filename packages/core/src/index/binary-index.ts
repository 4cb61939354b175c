// The binary saved index (`ToolIndex.toBinary` / `ToolIndex.fromBinary`): the content of the JSON
// form (`serialize.ts`) in one buffer, numbers as variable-length bytes (document numbers as gaps),
// floats to the bit, and each string once in one UTF-8 block; versioned, every number checked on
// load, and an integrity hash of the whole content.
//
// Layout: 4 bytes "TSIX", the format version (uint32, little-endian), the integrity hash (16 ASCII
// hexadecimal digits), the lengths of the four blocks (uint32 each: integer bytes, float count,
// string bytes, phrase-entry bytes), then the floats (8 bytes each), the phrase entries (fixed
// width, see below), the integers and the strings.
// Version 5 added the terms' sorted order (their positions, after the terms), so that a loaded
// index looks terms up by prefix or near spelling without sorting or building a tree first, and
// the number of phrase-line entries (before the phrase lines), so that they are read in one pass.
// Version 6 hashes each tool's id with its text (so that a load into a catalog in the saved order
// compares no ids: the hashes say the tools are the saved ones) and leaves out the documents' field
// lengths, which a load counts from the postings it checks anyway; and it keeps the phrase lines'
// entries (each a term's position plus one, 0 between lines) in a block of their own, 2 bytes
// each (4 when the vocabulary has 65,535 terms or more), which a load reads as a typed array.
import type { ToolCatalog } from '../catalog/catalog.js';
import { InvalidIndexError } from '../errors.js';
import { isMeanOf } from '../values.js';
import { ByteDataError, ByteReader, ByteWriter } from './byte-codec.js';
import { bytesIntegrity } from './index-integrity.js';
import { KeywordIndex, type TermEntry, UNDECODED } from './keyword-index.js';
import { PhraseIndex } from './phrase-index.js';
import { emptyPostings } from './postings.js';
import { LOOKUP_FIELDS } from './scorer.js';
import {
  checkCatalogMatches,
  damaged,
  loadVectors,
  REBUILD,
  type SavedIndexes,
  savedSections,
  TOOL_INDEX_FORMAT_VERSION,
} from './serialize.js';
import { INDEX_FIELDS } from './tool-document.js';
import { toolContentHash } from './tool-hash.js';
import type { ToolIndexOptions } from './tool-index.js';
import { ToolSources } from './tool-sources.js';
import type { SerializedVectorIndex } from './vector-index.js';

/** The first four bytes of a binary saved index. */
const MAGIC = [0x54, 0x53, 0x49, 0x58]; // "TSIX"
/**
 * The format version of the binary form: 6 (the content of the JSON form's version
 * {@link TOOL_INDEX_FORMAT_VERSION}, 4, with the terms' sorted order, each tool's id in its hash,
 * and no field lengths).
 */
export const BINARY_INDEX_FORMAT_VERSION = 6;
const HEADER_BYTES = 40;

/** A saved index for `catalog` in the binary form (see {@link loadBinaryIndexes}). */
export function encodeBinaryIndex<T>(catalog: ToolCatalog<T>, indexes: SavedIndexes): Uint8Array {
  const { keyword, phrases, vector } = savedSections(indexes);
  const out = new ByteWriter();
  const fieldCount = keyword.fields;
  out.uint(fieldCount);
  out.uint(keyword.documents.length);
  out.uint(keyword.terms.length);
  for (const average of keyword.averages) out.float(average);
  for (const [, id] of keyword.documents) {
    out.string(id);
    out.uint(toolContentHash(catalog.get(id)!));
  }
  for (const [term, fields] of keyword.terms) {
    out.string(term);
    let mask = 0;
    for (const [field] of fields) mask |= 1 << field;
    out.uint(mask);
    for (const [, docs, freqs] of [...fields].sort((a, b) => a[0] - b[0])) {
      out.uint(docs.length);
      let previous = -1;
      for (let i = 0; i < docs.length; i++) {
        out.uint(docs[i]! - previous - 1);
        previous = docs[i]!;
      }
      for (let i = 0; i < freqs.length; i++) out.uint(freqs[i]! - 1);
    }
  }
  // The terms' positions in code-unit order of the terms (see `SortedVocabulary`).
  const order = Array.from(keyword.terms, (_, position) => position);
  const terms = keyword.terms;
  order.sort((a, b) => (terms[a]![0] < terms[b]![0] ? -1 : 1));
  for (const position of order) out.uint(position);
  out.float(phrases.average);
  if (phrases.documents.length !== keyword.documents.length) throw new Error('binary index: a document without lines');
  const total = phrases.documents.reduce((sum, [, , lines]) => sum + lines.length, 0);
  const entries = entryArray(keyword.terms.length, total);
  let at = 0;
  for (const [, pairs, lines] of phrases.documents) {
    out.uint(pairs);
    out.uint(lines.length);
    for (let i = 0; i < lines.length; i++) entries[at++] = lines[i]! + 1; // (-1 between lines: 0)
  }
  out.uint(vector === undefined ? 0 : 1);
  if (vector !== undefined) out.string(JSON.stringify(vector));
  const { varints, floats, strings } = out.finish();
  const units = new Uint8Array(entries.buffer);
  const bytes = new Uint8Array(HEADER_BYTES + floats.length + units.length + varints.length + strings.length);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  view.setUint32(4, BINARY_INDEX_FORMAT_VERSION, true);
  view.setUint32(24, varints.length, true);
  view.setUint32(28, floats.length / 8, true);
  view.setUint32(32, strings.length, true);
  view.setUint32(36, units.length, true);
  bytes.set(floats, HEADER_BYTES);
  bytes.set(units, HEADER_BYTES + floats.length);
  bytes.set(varints, HEADER_BYTES + floats.length + units.length);
  bytes.set(strings, HEADER_BYTES + floats.length + units.length + varints.length);
  // The hash covers everything after itself: the block lengths and the blocks.
  bytes.set(new TextEncoder().encode(bytesIntegrity(bytes.subarray(24))), 8);
  return bytes;
}

/**
 * An array for `total` phrase-line entries of a vocabulary of `termCount` terms (each a term's
 * position plus one, 0 between lines): 2 bytes an entry while they fit, else 4. (Little-endian:
 * the byte order of every platform Node runs on.)
 */
function entryArray(termCount: number, total: number): Uint16Array | Uint32Array {
  return termCount < 0xffff ? new Uint16Array(total) : new Uint32Array(total);
}

/** Whether `data` starts like a binary saved index. */
function startsLikeBinary(data: Uint8Array): boolean {
  return data.length >= 4 && MAGIC.every((byte, i) => data[i] === byte);
}

/**
 * The indexes of a binary saved index for `catalog`, every part checked as `loadSavedIndexes`
 * checks the JSON form's, with the same errors: an `IndexMismatchError` when the catalog's tools are
 * not the ones indexed, an `InvalidIndexError` for data that is not such an index, has another
 * version, is malformed or fails its integrity check.
 */
export function loadBinaryIndexes<T>(
  catalog: ToolCatalog<T>,
  data: Uint8Array,
  options: ToolIndexOptions,
): SavedIndexes {
  const { reader, entries } = openBinary(data);
  try {
    return readIndexes(catalog, reader, entries, options);
  } catch (error) {
    if (error instanceof ByteDataError) throw damaged(error.message, error);
    throw error;
  }
}

/** A copy of bytes in a buffer of its own (Uint8Array's `slice`: a Buffer's `slice` copies nothing). */
function copyOf(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

/** `length` bytes of `data` from `start`, at a multiple of `alignment` in their buffer (copied when they are not). */
function alignedBytes(data: Uint8Array, start: number, length: number, alignment: number): Uint8Array {
  const bytes = data.subarray(start, start + length);
  return bytes.byteOffset % alignment === 0 ? bytes : copyOf(bytes);
}

/** Checks the header, the version and the integrity hash, and returns a reader of the content. */
function openBinary(data: unknown): { reader: ByteReader; entries: Uint8Array } {
  if (!(data instanceof Uint8Array)) {
    throw new InvalidIndexError(
      `Not a binary saved tool index: expected the Uint8Array that ToolIndex.toBinary() returns, got ${typeof data === 'string' ? 'a string (a JSON saved index is loaded with ToolIndex.fromJSON)' : typeof data}.`,
    );
  }
  if (!startsLikeBinary(data)) {
    const json = data.length > 0 && data[0] === 0x7b; // "{"
    throw new InvalidIndexError(
      `Not a binary saved tool index: it does not start with "TSIX"${json ? ' (it looks like JSON: a JSON saved index is loaded with ToolIndex.fromJSON)' : ''}.`,
    );
  }
  if (data.length < HEADER_BYTES) throw damaged('it ends inside its header');
  return readHeader(data);
}

/**
 * The reader of the caller's data and its phrase entries, after the header's checks. Only the
 * integers are copied (the index decodes each term's postings from them on first use, and the
 * caller may reuse its data); the floats and phrase entries are read in place when aligned.
 */
function readHeader(data: Uint8Array): { reader: ByteReader; entries: Uint8Array } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint32(4, true);
  if (version !== BINARY_INDEX_FORMAT_VERSION) {
    const by = version < BINARY_INDEX_FORMAT_VERSION ? 'an older' : 'a newer';
    throw new InvalidIndexError(
      `The saved tool index has format version ${version}, written by ${by} toolscout; this toolscout reads format version ${BINARY_INDEX_FORMAT_VERSION}. ${REBUILD}`,
    );
  }
  const varintBytes = view.getUint32(24, true);
  const floatCount = view.getUint32(28, true);
  const stringBytes = view.getUint32(32, true);
  const entryBytes = view.getUint32(36, true);
  if (HEADER_BYTES + floatCount * 8 + entryBytes + varintBytes + stringBytes !== data.length) {
    throw damaged(`its length (${data.length} bytes) is not what its header says`);
  }
  const integrity = new TextDecoder().decode(data.subarray(8, 24));
  if (bytesIntegrity(data.subarray(24)) !== integrity) {
    throw new InvalidIndexError(
      `The saved tool index failed its integrity check: its content is not what was saved (changed or damaged since). ${REBUILD}`,
    );
  }
  const floatBytes = alignedBytes(data, HEADER_BYTES, floatCount * 8, 8);
  const floats = new Float64Array(floatBytes.buffer, floatBytes.byteOffset, floatCount);
  const entryStart = HEADER_BYTES + floatCount * 8;
  const varintStart = entryStart + entryBytes;
  // (the integers copied: the index decodes each term's postings from them on first use, and the
  // caller may reuse its data; the other blocks are read during the load)
  const reader = new ByteReader(
    copyOf(data.subarray(varintStart, varintStart + varintBytes)),
    floats,
    data.subarray(varintStart + varintBytes),
  );
  return { reader, entries: alignedBytes(data, entryStart, entryBytes, 4) };
}

/**
 * The documents' ids, checked against the catalog: each tool's hash (of its id and text) must be
 * the saved one. A catalog in the saved order (the common case) is checked position by position as
 * the saved hashes are read, no saved id made or compared (the hash covers the id), and its own ids
 * are the documents'; any other order looks each tool up among the saved ids.
 */
function readDocuments<T>(catalog: ToolCatalog<T>, reader: ByteReader, count: number) {
  const idAt = new Float64Array(count + 1);
  const hashes = new Float64Array(count);
  const tools = catalog.list();
  const ordered: string[] = new Array(count);
  const sources = new ToolSources();
  // (how many tools from the first match the saved documents in order; -1: another number of tools.
  // One pass: a pass of its own over the saved ids and hashes ran mostly before the JIT had compiled
  // it, in a fresh process; each tool's source tracked as it is checked, while the tool is in the cache)
  let matched = tools.length === count ? 0 : -1;
  for (let doc = 0; doc < count; doc++) {
    const at = reader.textPosition;
    idAt[doc] = at;
    reader.skipString();
    const hash = reader.uint();
    hashes[doc] = hash;
    if (matched !== doc) continue;
    const tool = tools[doc]!;
    const id = tool.id;
    if (id.length !== reader.textPosition - at || hash !== toolContentHash(tool)) continue;
    ordered[doc] = id;
    sources.track(tool, doc);
    matched = doc + 1;
  }
  idAt[count] = reader.textPosition;
  // (the index makes its map of ids when first needed: a search rarely needs it)
  if (matched === count) return { ids: ordered, docOf: undefined, sources };
  const ids: string[] = new Array(count);
  const docOf = new Map<string, number>();
  for (let doc = 0; doc < count; doc++) {
    const id = reader.text(idAt[doc]!, idAt[doc + 1]!);
    docOf.set(id, doc);
    if (docOf.size === doc) throw damaged(`document id "${id}" twice`);
    ids[doc] = id;
  }
  checkCatalogMatches(
    catalog,
    count,
    (tool) => {
      const doc = docOf.get(tool.id);
      return doc === undefined ? undefined : hashes[doc] === toolContentHash(tool);
    },
    () => ids,
  );
  return { ids, docOf, sources: undefined };
}

function readIndexes<T>(
  catalog: ToolCatalog<T>,
  reader: ByteReader,
  entryBytes: Uint8Array,
  options: ToolIndexOptions,
): SavedIndexes {
  const fieldCount = reader.uint();
  if (fieldCount !== INDEX_FIELDS.length) throw damaged(`it has ${fieldCount} fields, expected ${INDEX_FIELDS.length}`);
  const count = reader.count('its number of documents');
  const termCount = reader.count('its number of terms');
  const averages = Array.from({ length: fieldCount }, () => reader.float());
  const { ids, docOf, sources } = readDocuments(catalog, reader, count);

  // The terms and where their postings are (decoded on first use), checked now: each document's
  // count of terms per field (its field lengths), and each term's reference counts.
  const lengths = new Int32Array(count * fieldCount);
  const entries: TermEntry[] = new Array(termCount);
  const starts = new Float64Array(termCount);
  const masks = new Int32Array(termCount);
  const lookedUp = Array.from({ length: fieldCount }, (_, f) => LOOKUP_FIELDS.includes(f));
  // (each field's total length, the sum of its lists' sizes: no pass over the documents' lengths)
  const totals = new Array<number>(fieldCount).fill(0);
  for (let t = 0; t < termCount; t++) {
    const term = reader.string();
    const mask = reader.uint();
    if (mask === 0 || mask >= 2 ** fieldCount) throw damaged(`term "${term}" has fields ${mask}`);
    starts[t] = reader.position;
    masks[t] = mask;
    let refs = 0;
    let lookupRefs = 0;
    for (let f = 0; f < fieldCount; f++) {
      if ((mask & (1 << f)) === 0) continue;
      const size = reader.uint();
      if (size === 0 || size > count) throw damaged(`term "${term}" has ${size} documents in field ${f}`);
      reader.checkAscending(size, count, lengths, fieldCount, f);
      reader.skip(size);
      refs += size;
      totals[f]! += size;
      if (lookedUp[f]) lookupRefs += size;
    }
    entries[t] = { id: t, term, fields: UNDECODED, refs, lookupRefs };
  }
  const decode = (entry: TermEntry) => {
    const fields: TermEntry['fields'] = new Array(fieldCount).fill(undefined);
    const mask = masks[entry.id]!;
    const at = reader.position;
    reader.position = starts[entry.id]!;
    for (let f = 0; f < fieldCount; f++) {
      if ((mask & (1 << f)) === 0) continue;
      const size = reader.uint();
      const postings = emptyPostings(size);
      reader.ascending(size, count, postings.data, 0);
      reader.plusOne(size, postings.data, size);
      postings.length = size;
      fields[f] = postings;
    }
    reader.position = at;
    return fields;
  };
  for (let f = 0; f < fieldCount; f++) {
    if (!isMeanOf(averages[f]!, totals[f]!, count)) {
      throw damaged(`average length of field ${f} is ${averages[f]}, not the mean of the documents' lengths`);
    }
  }
  const sorted = readSortedOrder(reader, entries);
  const keyword = KeywordIndex.restore(fieldCount, LOOKUP_FIELDS, {
    ids,
    ...(docOf === undefined ? {} : { docOf }),
    lengths,
    averages,
    entries,
    decode,
    sorted,
  });
  if (keyword.vocabularySize !== termCount) throw damaged('a term is in it twice');
  const phrases = readPhrases(reader, entryBytes, count, termCount);
  const vector = readVector(reader, () => docOf ?? new Set(ids), options);
  reader.end();
  return { keyword, phrases, vector, ...(sources === undefined ? {} : { sources }) };
}

/** The entries in code-unit order of their terms, as written: every position once, each term above the one before. */
function readSortedOrder(reader: ByteReader, entries: readonly TermEntry[]): TermEntry[] {
  const count = entries.length;
  const sorted: TermEntry[] = new Array(count);
  let previous: string | undefined;
  for (let i = 0; i < count; i++) {
    const entry = entries[reader.below(count, 'a position in the sorted order of the terms')]!;
    // (strictly ascending: no position can come twice)
    if (previous !== undefined && !(previous < entry.term)) {
      throw damaged(`the sorted order of its terms has "${entry.term}" after "${previous}"`);
    }
    previous = entry.term;
    sorted[i] = entry;
  }
  return sorted;
}

/** Every document's phrase lines, their terms as vocabulary positions (the loaded entries' ids). */
function readPhrases(reader: ByteReader, entryBytes: Uint8Array, count: number, termCount: number): PhraseIndex {
  const average = reader.float();
  // Every document's lines in one buffer (the entries, each less one), where each starts, and each
  // document's written number of pairs, at most one fewer than its entries (the first document
  // with more is refused after the entries are checked, as the phrase index once refused it).
  const width = entryArray(termCount, 0).BYTES_PER_ELEMENT;
  if (entryBytes.length % width !== 0)
    throw damaged(`its phrase entries take ${entryBytes.length} bytes, not ${width} each`);
  const total = entryBytes.length / width;
  const starts = new Int32Array(count + 1);
  const pairs = new Array<number>(count);
  let pairTotal = 0;
  let tooMany = -1;
  let at = 0;
  for (let doc = 0; doc < count; doc++) {
    const written = reader.uint();
    const entries = reader.uint();
    at += entries;
    if (at > total) throw damaged(`the phrase lines of document ${doc} go beyond their ${total} entries`);
    starts[doc + 1] = at;
    if (written > entries - 1 && written > 0 && tooMany < 0) tooMany = doc;
    pairs[doc] = written;
    pairTotal += written;
  }
  if (at !== total) throw damaged(`its phrase lines have ${at} entries, not ${total}`);
  const units =
    width === 2
      ? new Uint16Array(entryBytes.buffer, entryBytes.byteOffset, total)
      : new Uint32Array(entryBytes.buffer, entryBytes.byteOffset, total);
  const buffer = new Int32Array(total);
  let wrong = 0;
  for (let i = 0; i < total; i++) {
    const unit = units[i]!;
    if (unit > wrong) wrong = unit;
    buffer[i] = unit - 1;
  }
  if (wrong > termCount) throw damaged(`a phrase term is ${wrong - 1}, not a term`);
  if (tooMany >= 0) {
    const most = Math.max(0, starts[tooMany + 1]! - starts[tooMany]! - 1);
    throw damaged(
      `malformed phrase section: document ${tooMany} has ${pairs[tooMany]} pairs written, its lines hold ${most} at most`,
    );
  }
  try {
    return PhraseIndex.loaded(buffer, starts, pairs, pairTotal, average);
  } catch (error) {
    throw damaged(error instanceof Error ? error.message : String(error), error);
  }
}

/** The vector section, read when the index has an embedder (else skipped). */
function readVector(reader: ByteReader, indexed: () => { has(id: string): boolean }, options: ToolIndexOptions) {
  const flag = reader.below(2, 'the vector flag');
  if (flag === 0) return undefined;
  const text = reader.string();
  if (!options.embedder) return undefined;
  let section: SerializedVectorIndex;
  try {
    section = JSON.parse(text);
  } catch (error) {
    throw damaged(`its vector section is not JSON (${String(error)})`, error);
  }
  const ids = indexed();
  return loadVectors(section, (id) => ids.has(id), options);
}
