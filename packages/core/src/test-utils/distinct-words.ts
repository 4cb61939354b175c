/** Consonants only, no `s` or `y`: the stemmer leaves such words as they are. */
const LETTERS = 'bcdfghjkmnpqrtvwxz';

/**
 * `count` different words of consonants (each a term of its own, never stemmed), `from` a starting
 * number so that two calls can give words the other lacks: `k` then the number in base 18, at least
 * six letters.
 */
export function distinctWords(count: number, from = 0): string[] {
  const words = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    let rest = from + i;
    let word = 'k';
    while (word.length < 6 || rest > 0) {
      word += LETTERS[rest % LETTERS.length];
      rest = Math.floor(rest / LETTERS.length);
    }
    words[i] = word;
  }
  return words;
}
