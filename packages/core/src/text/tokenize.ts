import { stem } from './stemmer.js';
import { FUNCTION_WORDS, REQUEST_WORDS } from './stop-words.js';

/**
 * Scripts written without spaces between words whose runs are indexed as overlapping character
 * pairs plus single characters (`天气预报` → `天`, `天气`, `气`, `气预`, ...), so that any word of two
 * characters or more in a query meets the same pairs in a tool text without a dictionary.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Scripts without spaces that a word segmenter (Intl.Segmenter) splits into words. */
const SEGMENTED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A run of letters, marks and digits: everything else separates words. */
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;

/** Letters that lower-casing and accent stripping leave outside ASCII, spelled the usual way. */
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ς: 'σ',
};
const FOLD_PATTERN = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'gu');

/** Combining accents of Latin, Greek and Cyrillic letters (other scripts' marks are letters' parts). */
const ACCENTS = /[\u0300-\u036f]/g;

/** Contractions and possessives: `Messi's` → `Messi`, `don't` → `don`, `I'd` → `I`. */
const CONTRACTION = /(\p{L})['’](?:s|d|ll|re|ve|m|t)(?![\p{L}\p{N}])/giu;
/** Any other apostrophe inside a word joins its parts: `rock'n'roll` → `rocknroll`. */
const INNER_APOSTROPHE = /(\p{L})['’](?=\p{L})/gu;

/** {@link CONTRACTION} and {@link INNER_APOSTROPHE} for ASCII text. */
const ASCII_CONTRACTION = /([A-Za-z])'(?:s|d|ll|re|ve|m|t)(?![A-Za-z0-9])/gi;
const ASCII_INNER_APOSTROPHE = /([A-Za-z])'(?=[A-Za-z])/g;

/** Whether a text is all ASCII. */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('und', { granularity: 'word' }) : null;
  }
  return segmenter;
}

/**
 * Lower-cases a word with Unicode rules and strips accents, so that `Café`, `CAFE` and `café` meet:
 * NFKC compatibility forms are unified first (full-width `ＡＰＩ` → `api`), then Latin, Greek and
 * Cyrillic diacritics are removed and a few letters without a decomposition are spelled out
 * (`ß` → `ss`, `ø` → `o`). Marks that are part of other scripts (Devanagari vowel signs, kana
 * voicing marks) are kept.
 */
export function normalizeWord(word: string): string {
  // ASCII: NFKC changes nothing and there is no accent.
  if (isAscii(word)) return word.toLowerCase();
  const lower = word.normalize('NFKC').toLowerCase();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII fast path
  if (/^[\u0000-\u007f]*$/.test(lower)) return lower;
  return lower
    .replace(FOLD_PATTERN, (c) => FOLDS[c] ?? c)
    .normalize('NFD')
    .replace(ACCENTS, '')
    .normalize('NFC');
}

type CharKind = 'upper' | 'lower' | 'digit' | 'other';

function charKind(c: string): CharKind {
  const code = c.charCodeAt(0);
  if (code < 128) {
    if (code >= 97 && code <= 122) return 'lower';
    if (code >= 65 && code <= 90) return 'upper';
    if (code >= 48 && code <= 57) return 'digit';
    return 'other';
  }
  if (/\p{N}/u.test(c)) return 'digit';
  if (/\p{Lu}|\p{Lt}/u.test(c)) return 'upper';
  if (/\p{Ll}/u.test(c)) return 'lower';
  return 'other';
}

/**
 * Splits one run of letters and digits at case and digit changes, keeping marks with their letters:
 * `getUserV2` → `get`, `User`, `V2`, `V`, `2` (a piece mixing letters and digits, such as `V2`,
 * `mp3` or `base64`, is kept whole too, besides its parts), `HTMLParser` → `HTML`, `Parser`,
 * `HTMLParser` (a compound of two words is also kept whole). A chunk where letters and digits
 * alternate more than once (`27f145d2`, `a1b2`) is a code and stays whole.
 */
function splitIdentifier(run: string, out: string[]): void {
  // Fast path: most words are one plain word (`weather`, `Weather`, `2024`, `API`).
  if (/^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/.test(run)) {
    out.push(run);
    return;
  }
  const chars = Array.from(run);
  const kinds = chars.map(charKind);
  // A "piece" is a stretch of one kind; a "chunk" is pieces not separated by a case boundary.
  let pieceStart = 0;
  let chunkStart = 0;
  let chunks = 0;
  const pieces: string[] = [];
  const flushPiece = (end: number) => {
    if (end > pieceStart) pieces.push(chars.slice(pieceStart, end).join(''));
    pieceStart = end;
  };
  const flushChunk = (end: number) => {
    flushPiece(end);
    chunks += 1;
    if (pieces.length > 2) {
      // letters and digits alternating more than once: a code (hash, serial, id), kept whole only
      out.push(chars.slice(chunkStart, end).join(''));
    } else {
      out.push(...pieces);
      if (pieces.length > 1) out.push(chars.slice(chunkStart, end).join(''));
    }
    pieces.length = 0;
    chunkStart = end;
  };
  let previous: CharKind | undefined;
  for (let i = 0; i < chars.length; i++) {
    let kind = kinds[i]!;
    // a mark (or an uncased letter) continues the letter before it
    if (kind === 'other' && /\p{M}/u.test(chars[i]!) && previous !== undefined) kind = previous;
    kinds[i] = kind;
    if (previous !== undefined && i > pieceStart) {
      const next = kinds[i + 1];
      if (kind === 'upper' && previous === 'lower') {
        flushChunk(i); // getUser
      } else if (kind === 'upper' && previous === 'upper' && next === 'lower') {
        flushChunk(i); // HTMLParser: the last capital starts the next word
      } else if (kind === 'upper' && previous === 'digit' && next === 'lower') {
        flushChunk(i); // Base64Encode (but 3D, 2FA stay one chunk)
      } else if ((kind === 'digit') !== (previous === 'digit')) {
        flushPiece(i); // mp3, 3d, v2
      }
    }
    previous = kind;
  }
  flushChunk(chars.length);
  // A two-word compound of letters is also kept whole, so that brand names written in camel case
  // meet their plain spelling: `YouTube` → `You`, `Tube`, `YouTube` matches "youtube".
  if (chunks === 2 && !kinds.includes('digit')) out.push(run);
}

function pushCjk(run: string, out: string[]): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    out.push(chars[i]!);
    if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
  }
}

/** Splits a run that may mix scripts into same-kind stretches (CJK, segmented scripts, the rest). */
function splitRun(run: string, out: string[]): void {
  if (!CJK.test(run) && !SEGMENTED.test(run)) {
    splitIdentifier(run, out);
    return;
  }
  let current = '';
  let currentKind: 'cjk' | 'segmented' | 'plain' | undefined;
  const flush = () => {
    if (current === '') return;
    if (currentKind === 'cjk') pushCjk(current, out);
    else if (currentKind === 'segmented') {
      const words = wordSegmenter();
      if (words === null) out.push(current);
      else for (const part of words.segment(current)) if (part.isWordLike) out.push(part.segment);
    } else splitIdentifier(current, out);
    current = '';
  };
  for (const c of run) {
    const kind = CJK.test(c) ? 'cjk' : SEGMENTED.test(c) ? 'segmented' : /\p{M}/u.test(c) ? currentKind : 'plain';
    if (kind !== currentKind) {
      flush();
      currentKind = kind;
    }
    current += c;
  }
  flush();
}

/**
 * {@link splitIdentifier} for a run of ASCII letters and digits, on character codes and substrings
 * (the same words, without the Unicode machinery).
 */
export function splitAsciiIdentifier(run: string, out: string[]): void {
  const LOWER_CASE = 1;
  const UPPER_CASE = 2;
  const DIGIT = 3;
  const kindAt = (i: number) => {
    const code = run.charCodeAt(i);
    return code >= 97 ? LOWER_CASE : code >= 65 ? UPPER_CASE : DIGIT;
  };
  const length = run.length;
  let pieceStart = 0;
  let chunkStart = 0;
  let chunks = 0;
  let hasDigit = false;
  // The first two pieces of the chunk (a third makes the chunk a code, kept whole).
  let pieces = 0;
  let firstStart = 0;
  let firstEnd = 0;
  let secondStart = 0;
  let secondEnd = 0;
  const flushPiece = (end: number) => {
    if (end > pieceStart) {
      if (pieces === 0) {
        firstStart = pieceStart;
        firstEnd = end;
      } else if (pieces === 1) {
        secondStart = pieceStart;
        secondEnd = end;
      }
      pieces += 1;
    }
    pieceStart = end;
  };
  const flushChunk = (end: number) => {
    flushPiece(end);
    chunks += 1;
    if (pieces > 2) {
      out.push(run.substring(chunkStart, end));
    } else if (pieces > 0) {
      out.push(run.substring(firstStart, firstEnd));
      if (pieces === 2) out.push(run.substring(secondStart, secondEnd), run.substring(chunkStart, end));
    }
    pieces = 0;
    chunkStart = end;
  };
  let previous = 0;
  for (let i = 0; i < length; i++) {
    const kind = kindAt(i);
    if (kind === DIGIT) hasDigit = true;
    if (previous !== 0 && i > pieceStart) {
      const next = i + 1 < length ? kindAt(i + 1) : 0;
      if (kind === UPPER_CASE && previous === LOWER_CASE) flushChunk(i);
      else if (kind === UPPER_CASE && previous === UPPER_CASE && next === LOWER_CASE) flushChunk(i);
      else if (kind === UPPER_CASE && previous === DIGIT && next === LOWER_CASE) flushChunk(i);
      else if ((kind === DIGIT) !== (previous === DIGIT)) flushPiece(i);
    }
    previous = kind;
  }
  flushChunk(length);
  if (chunks === 2 && !hasDigit) out.push(run);
}

/**
 * The shape of a run of ASCII letters and digits, as {@link splitWords} sees it: only digits, only
 * capitals, a word in lower case (capital first or not), or mixed (split further by
 * {@link splitIdentifier}). A character's kind is one of the first three (0 for any other).
 */
export const DIGITS = 1;
export const CAPITALS = 2;
export const LOWER = 3;
export const MIXED = 4;

/** The kind of each ASCII character (see {@link DIGITS}); 0 for what separates words. */
export const ASCII_KIND = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  ASCII_KIND[code] =
    code >= 97 && code <= 122 ? LOWER : code >= 65 && code <= 90 ? CAPITALS : code >= 48 && code <= 57 ? DIGITS : 0;
}

/** A run's shape after a character of another kind; `second` when it is the run's second character. */
export function nextShape(shape: number, kind: number, second: boolean): number {
  if (shape === MIXED) return MIXED;
  // A capital followed by lower case (`Weather`) is still one plain word.
  return shape === CAPITALS && kind === LOWER && second ? LOWER : MIXED;
}

/**
 * The ASCII path of {@link splitWords}, in one pass over the character codes: a run of letters and
 * digits of one plain shape (`weather`, `Weather`, `API`, `2024`) is a word as it is; any other run
 * goes through {@link splitIdentifier}. Apostrophes are dealt with beforehand.
 */
function splitAsciiWords(text: string, out: string[]): void {
  let start = -1;
  let shape = 0;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    const kind = i < length ? ASCII_KIND[text.charCodeAt(i)]! : 0;
    if (kind === 0) {
      if (start >= 0) {
        const run = text.slice(start, i);
        if (shape === MIXED) splitAsciiIdentifier(run, out);
        else out.push(run);
        start = -1;
      }
    } else if (start < 0) {
      start = i;
      shape = kind;
    } else if (shape !== kind) {
      shape = nextShape(shape, kind, i === start + 1);
    }
  }
}

/**
 * ASCII text without its contraction and possessive endings (`Messi's` → `Messi`) and with the
 * other apostrophes inside words dropped (`rock'n'roll` → `rocknroll`): what {@link splitWords}
 * does first. Then words are the runs of letters and digits.
 */
export function withoutAsciiApostrophes(text: string): string {
  return text.includes("'") ? text.replace(ASCII_CONTRACTION, '$1').replace(ASCII_INNER_APOSTROPHE, '$1') : text;
}

/** {@link splitWords} into `out`. */
function collectWords(text: string, out: string[]): void {
  if (isAscii(text)) {
    // The same steps restricted to ASCII (NFKC changes nothing there, no CJK or segmented script).
    splitAsciiWords(withoutAsciiApostrophes(text), out);
    return;
  }
  const cleaned = text.normalize('NFKC').replace(CONTRACTION, '$1').replace(INNER_APOSTROPHE, '$1');
  for (const match of cleaned.matchAll(WORD_RUN)) splitRun(match[0], out);
}

/**
 * Splits text into words as written: at spaces and punctuation (`_`, `-`, `.`, `/`, ...), at case
 * changes (`getUserV2` → `get User V2 V 2`), between letters and digits, and CJK text into single
 * characters and character pairs. Contractions and possessives lose their ending. No lower-casing,
 * stemming or stop-word removal: see {@link tokenize}.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  collectWords(text, out);
  return out;
}

/** Whether a normalised word is kept as a term: not a function word, not a lone Latin letter. */
function isContentWord(word: string, stopWords: ReadonlySet<string>): boolean {
  if (word.length === 1 && word >= 'a' && word <= 'z') return false;
  return !stopWords.has(word);
}

/** A word as written → its normal form and term, or `null` when it is not a content word. */
type WordEntry = { readonly normal: string; readonly term: string } | null;

/** Memo of {@link wordEntry} (most words of a catalog repeat); starts over when it grows too big. */
const wordEntries = new Map<string, WordEntry>();
const MAX_WORD_ENTRIES = 200_000;

/** Normalises, filters (function words, lone letters) and stems one word as written, memoised. */
function wordEntry(word: string): WordEntry {
  let entry = wordEntries.get(word);
  if (entry === undefined) {
    const normal = normalizeWord(word);
    const term = normalTerm(normal);
    entry = term === null ? null : { normal, term };
    if (wordEntries.size >= MAX_WORD_ENTRIES) wordEntries.clear();
    wordEntries.set(word, entry);
  }
  return entry;
}

/**
 * The term of a normalised word ({@link normalizeWord}): its stem, or `null` for a function word,
 * a lone Latin letter or nothing.
 */
export function normalTerm(normal: string): string | null {
  return normal === '' || !isContentWord(normal, FUNCTION_WORDS) ? null : stem(normal);
}

/** The term of one word as written (a word of {@link splitWords}), or `null` when it is none. */
export function wordTerm(word: string): string | null {
  return wordEntry(word)?.term ?? null;
}

/** The words of the text being turned into terms (reused: nothing here re-enters). */
const scratchWords: string[] = [];

function toTerms(text: string, query?: ReadonlySet<string>): string[] {
  const terms: string[] = [];
  const words = scratchWords;
  try {
    collectWords(text, words);
    for (let i = 0; i < words.length; i++) {
      const entry = wordEntry(words[i]!);
      if (entry === null) continue;
      if (query?.has(entry.normal)) continue;
      terms.push(entry.term);
    }
  } finally {
    words.length = 0;
  }
  return terms;
}

/**
 * Turns a tool text into search terms: {@link splitWords}, then {@link normalizeWord} (Unicode
 * lower case, accents stripped), English function words ({@link FUNCTION_WORDS}) and lone Latin
 * letters dropped, and the light English {@link stem} applied. Terms keep their order and repeats.
 *
 * @example tokenize('getUserV2') // ['get', 'user', 'v2', '2']
 * @example tokenize('Crème brûlée recipes') // ['creme', 'brulee', 'recip']
 */
export function tokenize(text: string): string[] {
  return toTerms(text);
}

/**
 * Turns a search request into terms: {@link tokenize}, and also without the words that wrap a
 * request but do not describe a tool ({@link REQUEST_WORDS}: "please", "can", "want", "tell", ...).
 * A request of only such words gives no terms.
 */
export function tokenizeQuery(query: string): string[] {
  return toTerms(query, REQUEST_WORDS);
}
