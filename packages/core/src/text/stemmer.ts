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

function isConsonant(word: string, i: number): boolean {
  const c = word[i];
  if (c === undefined) return false;
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  // "y" after a consonant is a vowel (happy); at the start or after a vowel it is a consonant (yes, play)
  if (c === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** Porter's measure: the number of vowel-consonant sequences, `[C](VC)^m[V]`. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

/** Ends consonant-vowel-consonant, the last consonant not w, x or y (Porter's `*o`). */
function endsCvc(stem: string): boolean {
  const n = stem.length;
  if (n < 3) return false;
  if (!isConsonant(stem, n - 1) || isConsonant(stem, n - 2) || !isConsonant(stem, n - 3)) return false;
  const last = stem[n - 1]!;
  return last !== 'w' && last !== 'x' && last !== 'y';
}

function step1a(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies')) return w.slice(0, -2);
  if (w.endsWith('s') && !(w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) && w !== 'news') {
    return w.slice(0, -1);
  }
  return w;
}

function step1b(w: string): string {
  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  let base: string;
  if (w.endsWith('ed')) base = w.slice(0, -2);
  else if (w.endsWith('ing')) base = w.slice(0, -3);
  else return w;
  if (!hasVowel(base)) return w;
  if (base.endsWith('at') || base.endsWith('bl') || base.endsWith('iz')) return `${base}e`;
  const n = base.length;
  const last = base[n - 1]!;
  if (n >= 2 && last === base[n - 2] && isConsonant(base, n - 1) && last !== 'l' && last !== 's' && last !== 'z') {
    return base.slice(0, -1);
  }
  if (measure(base) === 1 && endsCvc(base)) return `${base}e`;
  return base;
}

function step1c(w: string): string {
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) return `${w.slice(0, -1)}i`;
  return w;
}

function step5a(w: string): string {
  if (!w.endsWith('e')) return w;
  const base = w.slice(0, -1);
  const m = measure(base);
  if (m > 1 || (m === 1 && !endsCvc(base))) return base;
  return w;
}
