/**
 * A light English suffix stemmer for search terms: it removes inflections only, so that "songs" and
 * "song", "streaming", "streamed" and "stream", "countries" and "country", "images" and "image" meet,
 * while derived words ("translation" / "translate") keep apart. Stems are match keys, not words
 * ("countri", "imag").
 *
 * It is the inflectional part of Porter's algorithm (M. F. Porter, "An algorithm for suffix
 * stripping", 1980), with `m` the number of vowel-consonant sequences in the stem:
 *
 * - step 1a, plurals: `-sses → -ss`, `-ies → -i`, `-s → ` (not after `s`; and, unlike Porter, not
 *   after `u` or `i` either, so `status`, `analysis` and `news` stay whole);
 * - step 1b, past tense and gerund: `-eed → -ee` when `m > 0`; `-ed` and `-ing` removed when the
 *   rest has a vowel, then `-at`, `-bl`, `-iz` get their `e` back, a doubled final consonant other
 *   than `l`, `s`, `z` is undoubled (`shipped → ship`), and a short consonant-vowel-consonant stem
 *   gets an `e` (`rated → rate`);
 * - step 1c: a final `y` after a stem with a vowel becomes `i` (`country → countri`);
 * - step 5a: a final `e` is dropped when `m > 1`, or when `m = 1` and the stem does not end
 *   consonant-vowel-consonant (`create → creat`, `schedule → schedul`, but `rate` stays).
 *
 * Only lower-case ASCII words of three or more letters are stemmed; anything else (numbers, accented
 * or non-Latin words, one- and two-letter words) is returned as is.
 */
export function stem(word: string): string {
  if (word.length < 3 || !isLowerAscii(word)) return word;
  let w = step1a(word);
  w = step1b(w);
  w = step1c(w);
  return step5a(w);
}

/** Whether a word is only the letters a to z (char codes, not a regular expression: a build stems every new word). */
function isLowerAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code < 0x61 || code > 0x7a) return false;
  }
  return word.length > 0;
}

// Character codes of the letters the rules look at (the stemmer compares codes, not one-letter strings
// or slices: a build stems every new word).
const A = 0x61;
const B = 0x62;
const D = 0x64;
const E = 0x65;
const G = 0x67;
const I = 0x69;
const L = 0x6c;
const N = 0x6e;
const O = 0x6f;
const S = 0x73;
const T = 0x74;
const U = 0x75;
const W = 0x77;
const X = 0x78;
const Y = 0x79;
const Z = 0x7a;

/** Whether `word[i]` is a consonant (`i` within the word). */
function isConsonant(word: string, i: number): boolean {
  const c = word.charCodeAt(i);
  if (c === A || c === E || c === I || c === O || c === U) return false;
  // "y" after a consonant is a vowel (happy); at the start or after a vowel it is a consonant (yes, play)
  if (c === Y) return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** Porter's measure of `word[0, n)`: the number of vowel-consonant sequences, `[C](VC)^m[V]`. */
function measure(word: string, n: number): number {
  let m = 0;
  let i = 0;
  while (i < n && isConsonant(word, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(word, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(word, i)) i++;
    m++;
  }
  return m;
}

/** Whether `word[0, n)` has a vowel. */
function hasVowel(word: string, n: number): boolean {
  for (let i = 0; i < n; i++) if (!isConsonant(word, i)) return true;
  return false;
}

/** `word[0, n)` ends consonant-vowel-consonant, the last consonant not w, x or y (Porter's `*o`). */
function endsCvc(word: string, n: number): boolean {
  if (n < 3) return false;
  if (!isConsonant(word, n - 1) || isConsonant(word, n - 2) || !isConsonant(word, n - 3)) return false;
  const last = word.charCodeAt(n - 1);
  return last !== W && last !== X && last !== Y;
}

// (past a word's start, charCodeAt gives NaN, equal to no letter: the shorter words fall through)

function step1a(w: string): string {
  const n = w.length;
  if (w.charCodeAt(n - 1) !== S) return w;
  const before = w.charCodeAt(n - 2);
  if (before === E) {
    const third = w.charCodeAt(n - 3);
    // -sses, -ies
    if ((third === S && w.charCodeAt(n - 4) === S) || third === I) return w.slice(0, -2);
    return w.slice(0, -1);
  }
  if (before === S || before === U || before === I || w === 'news') return w;
  return w.slice(0, -1);
}

function step1b(w: string): string {
  const n = w.length;
  const last = w.charCodeAt(n - 1);
  const before = w.charCodeAt(n - 2);
  let end: number;
  if (last === D && before === E) {
    if (w.charCodeAt(n - 3) === E) return measure(w, n - 3) > 0 ? w.slice(0, -1) : w; // -eed
    end = n - 2; // -ed
  } else if (last === G && before === N && w.charCodeAt(n - 3) === I)
    end = n - 3; // -ing
  else return w;
  // the base is w[0, end)
  if (!hasVowel(w, end)) return w;
  const b1 = w.charCodeAt(end - 1);
  const b2 = w.charCodeAt(end - 2);
  if ((b2 === A && b1 === T) || (b2 === B && b1 === L) || (b2 === I && b1 === Z)) return `${w.slice(0, end)}e`;
  if (end >= 2 && b1 === b2 && isConsonant(w, end - 1) && b1 !== L && b1 !== S && b1 !== Z) {
    return w.slice(0, end - 1);
  }
  if (measure(w, end) === 1 && endsCvc(w, end)) return `${w.slice(0, end)}e`;
  return w.slice(0, end);
}

function step1c(w: string): string {
  const n = w.length;
  if (w.charCodeAt(n - 1) === Y && hasVowel(w, n - 1)) return `${w.slice(0, -1)}i`;
  return w;
}

function step5a(w: string): string {
  const n = w.length;
  if (w.charCodeAt(n - 1) !== E) return w;
  const m = measure(w, n - 1);
  if (m > 1 || (m === 1 && !endsCvc(w, n - 1))) return w.slice(0, -1);
  return w;
}
