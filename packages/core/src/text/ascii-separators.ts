// Text that is ASCII but for characters that only separate words (curly quotes, dashes, emoji...):
// the tokeniser's ASCII path reads it once those characters are spaces.

/**
 * Characters beyond ASCII that `tokenize` reads as a space would be (spaces, dashes, quotes,
 * bullets, arrows and a few signs: neither letters, marks nor digits, before or after NFKC, which
 * leaves them so or makes them spaces or dots), and the emoji blocks (checked in the tests). `’` is an
 * apostrophe, as `'` is.
 */
const SEPARATORS_BEYOND_ASCII = new Set([
  0xa0, 0xa7, 0xa9, 0xab, 0xae, 0xb0, 0xb6, 0xb7, 0xbb, 0xd7, 0xf7, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x200b, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2018, 0x201c,
  0x201d, 0x2022, 0x2026, 0x202f, 0x2039, 0x203a, 0x205f, 0x2190, 0x2192, 0x21d2, 0x2212, 0x2248, 0x2264, 0x2265,
  0x25cf, 0x3000,
]);
const RIGHT_QUOTE = 0x2019;

/** Whether an astral code point is in an emoji block (symbols only: no letter, mark or digit). */
function isEmoji(codePoint: number): boolean {
  return (codePoint >= 0x1f300 && codePoint <= 0x1f6ff) || (codePoint >= 0x1f900 && codePoint <= 0x1f9ff);
}

/**
 * Text whose characters beyond ASCII all separate words ({@link SEPARATORS_BEYOND_ASCII}, emoji),
 * with each of them a space (`’` an ASCII apostrophe): the same words and terms, on the ASCII path;
 * undefined when it has any other.
 */
export function asciiSeparated(text: string): string | undefined {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x7f) continue;
    let end = i + 1;
    if (code >= 0xd800 && code <= 0xdbff) {
      if (!isEmoji(text.codePointAt(i)!)) return undefined;
      end = i + 2;
    } else if (code !== RIGHT_QUOTE && !SEPARATORS_BEYOND_ASCII.has(code)) {
      return undefined;
    }
    out += text.slice(from, i) + (code === RIGHT_QUOTE ? "'" : ' ');
    from = end;
    i = end - 1;
  }
  return out + text.slice(from);
}
