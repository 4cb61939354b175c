import { InvalidToolError } from '../errors.js';

/** What every LLM provider accepts as a tool (function) name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Length of the hash suffix appended to ids that had to change. */
const HASH_LENGTH = 10;

/** Runs of characters that no provider accepts in a tool name. */
const INVALID_RUNS = /[^a-zA-Z0-9_-]+/g;
const UNDERSCORE = 0x5f;

/** Used when nothing readable is left of an id (e.g. an id of only CJK characters or emoji). */
const EMPTY_PREFIX = 'tool';

/** Letters that NFKD does not decompose into ASCII, transliterated by hand. */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
};

const TRANSLITERATION_PATTERN = new RegExp(`[${Object.keys(TRANSLITERATIONS).join('')}]`, 'g');

/** 64-bit FNV-1a's offset basis (0xcbf29ce484222325) as four 16-bit limbs, lowest first. */
const FNV_OFFSET = [0x2325, 0x8422, 0x9ce4, 0xcbf2] as const;
/** 64-bit FNV-1a's prime is 2^40 + 0x1b3. */
const FNV_PRIME_LOW = 0x1b3;
const HASH_MODULUS = 36n ** BigInt(HASH_LENGTH);
const encoder = new TextEncoder();

/**
 * A short, stable hash of a string: 64-bit FNV-1a over its UTF-8 bytes, its low 10 base-36 digits
 * (about 51.7 bits). The same in every process, platform and release.
 */
export function toolNameHash(text: string): string {
  // 64-bit arithmetic on four 16-bit limbs, so that every intermediate stays a small integer (below
  // 2^26): 32-bit halves made numbers up to 2^41, each one allocated while the code still runs
  // unoptimised, as it does for most of a catalog's ids. hash × (2^40 + 0x1b3) mod 2^64 is
  // hash × 0x1b3 plus limbs 0 and 1 shifted left by 8 into limbs 2 and 3.
  let h0: number = FNV_OFFSET[0];
  let h1: number = FNV_OFFSET[1];
  let h2: number = FNV_OFFSET[2];
  let h3: number = FNV_OFFSET[3];
  // ASCII text is its own UTF-8.
  const bytes = isAsciiText(text) ? undefined : encoder.encode(text);
  const length = bytes === undefined ? text.length : bytes.length;
  for (let i = 0; i < length; i++) {
    h0 ^= bytes === undefined ? text.charCodeAt(i) : bytes[i]!;
    const a0 = h0 * FNV_PRIME_LOW;
    const a1 = h1 * FNV_PRIME_LOW + (a0 >>> 16);
    const a2 = h2 * FNV_PRIME_LOW + (a1 >>> 16) + (h0 << 8);
    const a3 = h3 * FNV_PRIME_LOW + (a2 >>> 16) + (h1 << 8);
    h0 = a0 & 0xffff;
    h1 = a1 & 0xffff;
    h2 = a2 & 0xffff;
    h3 = a3 & 0xffff;
  }
  const hash = (BigInt(h3 * 0x10000 + h2) << 32n) | BigInt(h1 * 0x10000 + h0);
  return (hash % HASH_MODULUS).toString(36).padStart(HASH_LENGTH, '0');
}

/** Whether a text is all ASCII (this module imports nothing: its names must not depend on others). */
function isAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Whether a string is already a name every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`). */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/**
 * Maps a tool id to a name every LLM provider accepts (`^[a-zA-Z0-9_-]{1,64}$`).
 *
 * - An id that is already valid is kept as it is.
 * - Otherwise accents are transliterated (NFKD, then dropping combining marks), each run of other
 *   characters becomes one `_`, the result is cut to fit, and `_` plus a hash of the full original
 *   id is appended, so ids that differ only in the replaced characters (`a b`, `a.b`, `a|b`) still
 *   get distinct names, and none of them can equal a valid id without a hash-like suffix.
 *
 * Deterministic: no counters or randomness, so names are stable across restarts and processes.
 * The catalog keeps the reverse map and rejects the (astronomically rare) case of two ids mapping
 * to one name.
 */
export function toToolName(id: string): string {
  if (typeof id !== 'string') {
    throw new InvalidToolError(`toToolName expects a string id, got ${id === null ? 'null' : typeof id}`, 'id');
  }
  if (isValidToolName(id)) return id;
  // (ASCII has no accents to take off nor letters to transliterate)
  const latin = isAsciiText(id)
    ? id
    : id
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .replace(TRANSLITERATION_PATTERN, (char) => TRANSLITERATIONS[char] ?? char);
  // Each run of other characters becomes one `_`; the readable part is what lies between the leading
  // and trailing `_`s, cut to the room left beside the hash, without the `_`s the cut leaves at its end.
  const replaced = latin.replace(INVALID_RUNS, '_');
  let start = 0;
  let end = replaced.length;
  while (start < end && replaced.charCodeAt(start) === UNDERSCORE) start += 1;
  while (end > start && replaced.charCodeAt(end - 1) === UNDERSCORE) end -= 1;
  let cut = Math.min(end, start + MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1);
  while (cut > start && replaced.charCodeAt(cut - 1) === UNDERSCORE) cut -= 1;
  const prefix = cut > start ? replaced.slice(start, cut) : EMPTY_PREFIX;
  // (joined, not concatenated: one flat string, where the replacements' pieces chained together
  // would stay a dozen string objects for as long as the catalog keeps the name, 400 bytes more)
  return [prefix, toolNameHash(id)].join('_');
}
