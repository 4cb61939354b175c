import { describe, expect, it } from 'vitest';
import { splitWords, tokenize } from '../text/tokenize.js';
import { sharedRuns } from './shared-runs.js';
import { termNumber, termText, tokenizeToNumbers, trimTermNumbers, wordRuns } from './term-numbers.js';

describe('term numbers', () => {
  it('number the terms of tokenize, the same number for the same term', () => {
    const text = "getUserV2 fetches the user's profiles; Café crème, 天气预报";
    const numbers = tokenizeToNumbers(text);
    expect(numbers.map(termText)).toEqual(tokenize(text));
    const texts = [
      "Messi's stats, don't stop: rock'n'roll O'Brien's getUserV2 HTMLParser Base64Encode 3D 2FA",
      'snake_case kebab-case dotted.name slashed/path a1b2 27f145d2 YouTube mp3 v2 /v1/users/{userId}/posts',
      "it's IT'S We'LL 'quoted' trailing' 'leading",
      'Get the weather forecast for a city. The weather, the WEATHER and the Weather again.',
      '',
      '   ',
      'x',
    ];
    // twice: the second time every word comes from the table of known words
    for (const round of [1, 2]) {
      for (const sample of texts)
        expect(tokenizeToNumbers(sample).map(termText), `${round}: ${sample}`).toEqual(tokenize(sample));
    }
  });

  it('stay right past the first table of known words (it grows)', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `word${i.toString(36)}x getItem${i}`).join(' ');
    expect(tokenizeToNumbers(many).map(termText)).toEqual(tokenize(many));
    expect(tokenizeToNumbers(many).map(termText)).toEqual(tokenize(many));
    expect(tokenizeToNumbers('user profile')).toEqual([termNumber('user'), termNumber('profil')]);
    expect(() => termText(-1)).toThrow(RangeError);
  });

  it('start over only when there are too many', () => {
    const weather = termNumber('weather');
    trimTermNumbers(Number.MAX_SAFE_INTEGER);
    expect(termNumber('weather')).toBe(weather);
    trimTermNumbers(0);
    // Numbering starts again from 0, and tokenising still gives the right terms.
    expect(tokenizeToNumbers('weather forecast')).toEqual([0, 1]);
    expect(tokenizeToNumbers('weather forecast').map(termText)).toEqual(['weather', 'forecast']);
  });

  it('start over when the terms and words kept have too many characters', () => {
    trimTermNumbers(0);
    const blob = 'q'.repeat(30_000); // one long word: a word and a term of 30,000 characters
    tokenizeToNumbers(`weather ${blob}`);
    trimTermNumbers(Number.MAX_SAFE_INTEGER, 70_000);
    expect(tokenizeToNumbers('weather')).toEqual([0]);
    trimTermNumbers(Number.MAX_SAFE_INTEGER, 50_000);
    expect(tokenizeToNumbers('forecast weather')).toEqual([0, 1]);
  });
});

describe('identifiers', () => {
  it('give the terms of tokenize and the words of splitWords, whichever of a word and its pieces comes first', () => {
    // Camel case, capitals, digits and codes, mixed words before and after their pieces.
    const parts = [
      'get',
      'User',
      'HTML',
      'Parser',
      'V2',
      'mp3',
      'You',
      'Tube',
      'API',
      '2024',
      'a1b2',
      'Base64',
      'Encode',
      'The',
      'x',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const words = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + (next() % 4) }, () => parts[next() % parts.length]).join(''),
    );
    trimTermNumbers(0);
    for (const round of [1, 2]) {
      for (const word of words) {
        expect(tokenizeToNumbers(word).map(termText), `${round}: ${word}`).toEqual(tokenize(word));
        const runs = wordRuns(`ns__${word}`);
        expect(
          runs.map((piece) => piece.text),
          `${round}: ${word}`,
        ).toEqual(splitWords(`ns__${word}`));
        for (const piece of runs)
          expect(piece.run.map(termText), `${round}: ${piece.text}`).toEqual(tokenize(piece.text));
      }
    }
  });
});

describe('wordRuns', () => {
  it('gives the words of splitWords, each with the term numbers of tokenize', () => {
    for (const text of ['TheClique__Songkick concert~3', "github.getUserV2 Messi's HTMLParser", 'Café 天气预报', '']) {
      for (const round of [1, 2]) {
        const runs = wordRuns(text);
        expect(
          runs.map((word) => word.text),
          `${round}: ${text}`,
        ).toEqual(splitWords(text));
        for (const word of runs) expect(word.run.map(termText)).toEqual(tokenize(word.text));
      }
    }
  });

  it('read separators beyond ASCII (curly quotes, dashes, emoji) as tokenize does', () => {
    // Each character taken for a space is no letter, mark or digit, before or after NFKC, and
    // NFKC makes no apostrophe of it.
    const separators = [
      0xa0, 0xa7, 0xa9, 0xab, 0xae, 0xb0, 0xb6, 0xb7, 0xbb, 0xd7, 0xf7, 0x200b, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014,
      0x2015, 0x2018, 0x201c, 0x201d, 0x2022, 0x2026, 0x202f, 0x2039, 0x203a, 0x205f, 0x2190, 0x2192, 0x21d2, 0x2212,
      0x2248, 0x2264, 0x2265, 0x25cf, 0x3000,
    ];
    for (let code = 0x2000; code <= 0x200a; code++) separators.push(code);
    for (let code = 0x1f300; code <= 0x1f6ff; code++) separators.push(code);
    for (let code = 0x1f900; code <= 0x1f9ff; code++) separators.push(code);
    for (const code of separators) {
      const char = String.fromCodePoint(code);
      expect(/[\p{L}\p{M}\p{N}'’]/u.test(char + char.normalize('NFKC')), char).toBe(false);
    }
    const pieces = [
      'getUser',
      'V2',
      "user's",
      'user’s',
      "rock'n'roll",
      'rock’n’roll',
      'don’t',
      'HTMLParser',
      'weather',
      '2024',
      "'",
      '’',
      ' ',
      '-',
      'é',
      '天气',
      '\u0301',
      '\ud83d',
      '😀',
      '🚀',
      '🤖',
      ...separators.filter((_, i) => i % 7 === 0).map((code) => String.fromCodePoint(code)),
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      let text = '';
      const parts = 1 + next(8);
      for (let i = 0; i < parts; i++) text += pieces[next(pieces.length)];
      expect(tokenizeToNumbers(text).map(termText), JSON.stringify(text)).toEqual(tokenize(text));
      expect(
        wordRuns(text).map((word) => word.text),
        JSON.stringify(text),
      ).toEqual(splitWords(text));
    }
  });

  it('memoise the terms of shared strings of 200 to 1,000 characters only (shorter ones are cheaper to tokenise again, a long one would outlive its tool)', () => {
    const at = (text: string) => {
      const terms = sharedRuns.find(text);
      return { terms, start: sharedRuns.start, end: sharedRuns.end };
    };
    const numbersOf = (text: string) => {
      const { terms, start, end } = at(text);
      return Array.from(terms.subarray(start, end));
    };
    const kept = 'The city to report on: a city name, e.g. Paris, optionally followed by its country. '.repeat(3);
    const other = 'Another description of a parameter, one that a few tools of a catalog share word for word. '.repeat(
      3,
    );
    expect(kept.length).toBeGreaterThanOrEqual(200);
    const first = at(kept);
    expect(numbersOf(kept)).toEqual(tokenizeToNumbers(kept));
    const second = at(other);
    expect(second.terms).toBe(first.terms);
    expect(second.start).toBeGreaterThanOrEqual(first.end);
    expect(at(kept)).toEqual(first);
    for (const unkept of ['City name, e.g. Paris', `${'A parameter described at great length. '.repeat(100)}`]) {
      expect(numbersOf(unkept)).toEqual(tokenizeToNumbers(unkept));
      // (tokenised again each time, in a scratch buffer, not kept)
      expect(at(unkept).start).toBe(0);
      expect(at(unkept).terms).not.toBe(first.terms);
    }
    expect(numbersOf(kept)).toEqual(tokenizeToNumbers(kept));
    expect(at(kept).start).toBe(first.start);
  });
});
