// ECMA-262 `u`-mode patterns in RE2 syntax, with the same meaning (see schema-pattern.ts): `.` stops
// at the four line terminators, `\s` is ECMA-262's white space, `\p{…}` is the very set `RegExp`
// matches; what RE2 cannot do (backreferences, lookaround) is {@link Unsupported}.

/** What RE2 cannot do, found while translating (its message says what). */
export class Unsupported extends Error {}

const MAX_CODE_POINT = 0x10ffff;
type Range = readonly [number, number];

/** ECMA-262 `\s`: WhiteSpace (including every Zs space) and LineTerminator. */
const WHITE_SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** ECMA-262 `.` without the `s` flag: anything but a line terminator. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/** The code point ranges not in `ranges` (sorted, disjoint). */
function complement(ranges: readonly Range[]): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** A code point as an RE2 literal, usable in and out of a class. */
function literal(codePoint: number): string {
  if (/[A-Za-z0-9_]/.test(String.fromCodePoint(codePoint))) return String.fromCodePoint(codePoint);
  return `\\x{${codePoint.toString(16)}}`;
}

function rangesText(ranges: readonly Range[]): string {
  return ranges.map(([low, high]) => (low === high ? literal(low) : `${literal(low)}-${literal(high)}`)).join('');
}

/** Classes matching nothing and anything: RE2 reads `[]` and `[^]` differently from ECMA-262. */
const NOTHING = `[^${rangesText([[0, MAX_CODE_POINT]])}]`;
const ANYTHING = `[${rangesText([[0, MAX_CODE_POINT]])}]`;

const propertyRanges = new Map<string, Range[]>();

/**
 * The code points `\p{name}` matches, read from `RegExp` one code point at a time (about 30 ms per
 * property, once per process), so that RE2 matches exactly what `RegExp` would whatever the two
 * engines' Unicode versions.
 */
function unicodeProperty(name: string): Range[] {
  const known = propertyRanges.get(name);
  if (known) return known;
  const single = new RegExp(`^\\p{${name}}$`, 'u');
  const ranges: [number, number][] = [];
  for (let codePoint = 0; codePoint <= MAX_CODE_POINT; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue; // a lone surrogate: not text RE2 reads
    if (!single.test(String.fromCodePoint(codePoint))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else if (last && last[1] === 0xd7ff && codePoint === 0xe000) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
  }
  propertyRanges.set(name, ranges);
  return ranges;
}

/** RE2 reads text as code points, so a lone surrogate in a pattern could never match one in a string. */
function notSurrogate(codePoint: number): number {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) throw new Unsupported('a lone surrogate');
  return codePoint;
}

/** The largest count RE2 reads in `{n,m}`. */
const MAX_REPEAT = 1_000;

const CONTROL_ESCAPES: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
const SAME_IN_RE2 = new Set(['d', 'D', 'w', 'W']);

/**
 * Translates an ECMA-262 `u`-mode pattern that `RegExp` accepts (so its syntax is the strict one) to
 * RE2 syntax with the same meaning. Groups become non-capturing (only whether it matches counts).
 * Throws {@link Unsupported} for what RE2 cannot do.
 */
export function translate(source: string): string {
  let at = 0;
  let out = '';
  const peek = (offset = 0) => source[at + offset];
  const hex = (length: number) => {
    const digits = source.slice(at, at + length);
    at += length;
    return Number.parseInt(digits, 16);
  };

  /** After `\u`: `{…}`, four digits, or a surrogate pair written as two escapes. */
  const unicodeEscape = (): number => {
    if (peek() === '{') {
      const end = source.indexOf('}', at);
      const codePoint = Number.parseInt(source.slice(at + 1, end), 16);
      at = end + 1;
      return codePoint;
    }
    const unit = hex(4);
    if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      peek() === '\\' &&
      peek(1) === 'u' &&
      /^[0-9a-fA-F]{4}$/.test(source.slice(at + 2, at + 6))
    ) {
      const trail = Number.parseInt(source.slice(at + 2, at + 6), 16);
      if (trail >= 0xdc00 && trail <= 0xdfff) {
        at += 6;
        return 0x10000 + ((unit - 0xd800) << 10) + (trail - 0xdc00);
      }
    }
    return unit;
  };

  /** An escape, `\` read: a code point, or a set of them (`\s`, `\p{…}`) as ranges or RE2 text. */
  const escaped = (inClass: boolean): number | { ranges: readonly Range[] } | { text: string } => {
    const char = source[at++]!;
    if (SAME_IN_RE2.has(char)) return { text: `\\${char}` };
    switch (char) {
      case 's':
        return { ranges: WHITE_SPACE };
      case 'S':
        return { ranges: complement(WHITE_SPACE) };
      case 'p':
      case 'P': {
        const end = source.indexOf('}', at);
        const ranges = unicodeProperty(source.slice(at + 1, end));
        at = end + 1;
        return { ranges: char === 'p' ? ranges : complement(ranges) };
      }
      case 'b':
        return inClass ? 0x08 : { text: '\\b' };
      case 'B':
        return { text: '\\B' };
      case 'k':
        throw new Unsupported('a backreference');
      case 'c':
        return source.charCodeAt(at++) % 32;
      case 'x':
        return hex(2);
      case 'u':
        return notSurrogate(unicodeEscape());
      case '0':
        return 0;
      default:
        if (/[1-9]/.test(char)) throw new Unsupported('a backreference');
        return CONTROL_ESCAPES[char] ?? char.codePointAt(0)!;
    }
  };

  /** One code point of the pattern as it is written. */
  const character = (): number => {
    const codePoint = source.codePointAt(at)!;
    at += codePoint > 0xffff ? 2 : 1;
    return notSurrogate(codePoint);
  };

  const characterClass = () => {
    const negated = peek() === '^';
    if (negated) at++;
    let body = '';
    const atom = () => {
      if (peek() !== '\\') return character();
      at++;
      return escaped(true);
    };
    while (peek() !== ']') {
      const first = atom();
      if (typeof first !== 'number') {
        body += 'ranges' in first ? rangesText(first.ranges) : first.text;
        continue;
      }
      if (peek() === '-' && peek(1) !== ']' && peek(1) !== undefined) {
        at++;
        const last = atom() as number; // `RegExp` accepted it: a range ends with a code point
        body += `${literal(first)}-${literal(last)}`;
      } else body += literal(first);
    }
    at++;
    if (body === '') return negated ? ANYTHING : NOTHING;
    return `[${negated ? '^' : ''}${body}]`;
  };

  const group = () => {
    if (peek() !== '?') return '(?:';
    const kind = source.slice(at, at + 3);
    if (kind.startsWith('?:')) {
      at += 2;
      return '(?:';
    }
    if (kind === '?<=' || kind === '?<!') throw new Unsupported('a lookbehind');
    if (kind.startsWith('?=') || kind.startsWith('?!')) throw new Unsupported('a lookahead');
    if (kind.startsWith('?<')) {
      at = source.indexOf('>', at) + 1;
      return '(?:';
    }
    throw new Unsupported('inline flags');
  };

  while (at < source.length) {
    const char = source[at]!;
    if (char === '\\') {
      at++;
      const read = escaped(false);
      if (typeof read === 'number') out += literal(read);
      else out += 'ranges' in read ? `[${rangesText(read.ranges)}]` : read.text;
    } else if (char === '[') {
      at++;
      out += characterClass();
    } else if (char === '(') {
      at++;
      out += group();
    } else if (char === '{') {
      const end = source.indexOf('}', at);
      const counts = source.slice(at + 1, end);
      if (counts.split(',').some((count) => Number(count) > MAX_REPEAT)) {
        throw new Unsupported(`a repeat count over ${MAX_REPEAT.toLocaleString('en-US')} (RE2's limit)`);
      }
      out += `{${counts}}`;
      at = end + 1;
    } else if ('^$|)*+?'.includes(char)) {
      out += char;
      at++;
    } else if (char === '.') {
      out += DOT;
      at++;
    } else out += literal(character());
  }
  return out;
}
