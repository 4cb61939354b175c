// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u2028\u2029\uFEFF]/g;

/**
 * Makes free text safe and short for a tool result the model reads: control and invisible
 * characters are removed, runs of white space fold into one space, and text longer than `budget`
 * characters is cut at the last word boundary before it, ending in `…`.
 *
 * @param budget - the most characters to keep, the ellipsis included; `0` or less keeps everything.
 */
export function compactText(text: string | undefined, budget: number): string {
  if (!text) return '';
  const clean = text.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim();
  if (budget <= 0 || clean.length <= budget) return clean;
  const room = Math.max(1, budget - 1);
  const cut = clean.slice(0, room + 1);
  const boundary = cut.lastIndexOf(' ');
  // Cut at a word boundary unless that would throw away most of the budget (one very long word).
  const kept = boundary >= room * 0.6 ? cut.slice(0, boundary) : cut.slice(0, room);
  return `${kept.replace(/[\s,;:.-]+$/, '')}…`;
}

/** The first sentence of a text (up to the first `.`, `!` or `?` followed by a space), compacted. */
export function firstSentence(text: string | undefined, budget: number): string {
  const clean = compactText(text, 0);
  const match = /^(.+?[.!?])(\s|$)/.exec(clean);
  return compactText(match ? match[1] : clean, budget);
}
