import { describe, expect, it } from 'vitest';
import { stem } from './stemmer.js';
import { normalizeWord, splitWords, tokenize, tokenizeQuery } from './tokenize.js';

describe('splitWords', () => {
  it('splits camelCase and PascalCase, keeping acronyms together', () => {
    expect(splitWords('getUserProfile')).toEqual(['get', 'User', 'Profile']);
    expect(splitWords('HTMLParser')).toEqual(['HTML', 'Parser', 'HTMLParser']);
    expect(splitWords('parseHTMLDocument')).toEqual(['parse', 'HTML', 'Document']);
  });

  it('splits snake_case, kebab-case, dotted and slashed names', () => {
    expect(splitWords('get_user_by_id')).toEqual(['get', 'user', 'by', 'id']);
    expect(splitWords('list-open-issues')).toEqual(['list', 'open', 'issues']);
    expect(splitWords('github.issues.create')).toEqual(['github', 'issues', 'create']);
    expect(splitWords('/v1/users/{userId}/posts')).toEqual(['v', '1', 'v1', 'users', 'user', 'Id', 'userId', 'posts']);
  });

  it('splits letters from digits and keeps short letter-digit words whole too', () => {
    expect(splitWords('getUserV2')).toEqual(['get', 'User', 'V', '2', 'V2']);
    expect(splitWords('mp3')).toEqual(['mp', '3', 'mp3']);
    expect(splitWords('Base64Encode')).toEqual(['Base', '64', 'Base64', 'Encode']);
    expect(splitWords('3D 2FA')).toEqual(['3', 'D', '3D', '2', 'FA', '2FA']);
  });

  it('keeps a two-word camel-case compound whole as well (brand names)', () => {
    expect(splitWords('YouTube')).toEqual(['You', 'Tube', 'YouTube']);
    expect(splitWords('getBloodCount')).toEqual(['get', 'Blood', 'Count']);
  });

  it('drops possessive and contraction endings', () => {
    expect(splitWords("Messi's clubs, don't, I'd, we're")).toEqual(['Messi', 'clubs', 'don', 'I', 'we']);
    expect(splitWords('rock’n’roll')).toEqual(['rocknroll']);
  });

  it('splits CJK runs into characters and character pairs', () => {
    expect(splitWords('天气预报')).toEqual(['天', '天气', '气', '气预', '预', '预报', '报']);
    expect(splitWords('東京の天気API')).toEqual(['東', '東京', '京', '京の', 'の', 'の天', '天', '天気', '気', 'API']);
  });

  it('segments scripts written without spaces (Thai) into words', () => {
    const words = splitWords('พยากรณ์อากาศ');
    expect(words.length).toBeGreaterThan(1);
    expect(words.join('')).toBe('พยากรณ์อากาศ');
  });

  it('unifies compatibility forms (full-width letters)', () => {
    expect(splitWords('ＡＰＩ')).toEqual(['API']);
  });
});

describe('splitWords on ASCII text', () => {
  it('splits ASCII text exactly as the general path does', () => {
    const samples = [
      "Messi's stats, don't stop: rock'n'roll O'Brien's getUserV2 HTMLParser Base64Encode 3D 2FA",
      'snake_case kebab-case dotted.name slashed/path a1b2 27f145d2 YouTube mp3 v2',
      "it's IT'S We'LL 'quoted' trailing' 'leading",
      '',
    ];
    for (const text of samples) {
      // A non-ASCII word at the end sends the text down the general (Unicode) path.
      expect([...splitWords(text), 'é'], text).toEqual(splitWords(`${text} é`));
    }
  });

  it('gives words whose own terms are terms of the whole text (ASCII)', () => {
    // (tool ids rely on it: an id whose terms the name has adds no word)
    const alphabet = 'aAbBeEzZ09_ .';
    let seed = 5;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const samples = ['getUserV2', 'HTMLParser', 'TheClique__Songkick concert~3', 'Base64Encode 3D 2FA a1b2', "Messi's"];
    for (let n = 0; n < 2000; n++) {
      samples.push(
        Array.from(
          { length: 1 + Math.floor(random() * 12) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join(''),
      );
    }
    for (const text of samples) {
      const all = new Set(tokenize(text));
      for (const word of splitWords(text))
        for (const term of tokenize(word)) expect(all.has(term), `${text}: ${word}`).toBe(true);
    }
  });

  it('splits any identifier of letters and digits exactly as the general path does', () => {
    // Seeded identifiers over a small alphabet, so that every case and digit change is met often.
    const alphabet = 'aAbBzZ09';
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 3000; n++) {
      const length = 1 + Math.floor(random() * 9);
      const word = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect([...splitWords(word), 'é'], word).toEqual(splitWords(`${word} é`));
    }
  });
});

describe('normalizeWord', () => {
  it('lower-cases with Unicode rules and strips accents', () => {
    expect(normalizeWord('Café')).toBe('cafe');
    expect(normalizeWord('ÉCOLE')).toBe('ecole');
    expect(normalizeWord('Straße')).toBe('strasse');
    expect(normalizeWord('İstanbul')).toBe('istanbul');
    expect(normalizeWord('Ørsted')).toBe('orsted');
    expect(normalizeWord('ПОГОДА')).toBe('погода');
    expect(normalizeWord('Ἀθῆναι')).toBe('αθηναι');
  });

  it('keeps marks that belong to a script (Devanagari vowel signs, kana voicing)', () => {
    expect(normalizeWord('हिन्दी')).toBe('हिन्दी');
    expect(normalizeWord('ガ')).toBe('ガ');
  });
});

describe('tokenize', () => {
  it('produces lower-case, stemmed terms without function words', () => {
    expect(tokenize('Get the lyrics of a song')).toEqual(['get', stem('lyrics'), 'song']);
    expect(tokenize('getUserV2')).toEqual(['get', 'user', '2', 'v2']);
    expect(tokenize('Streaming Songs')).toEqual(tokenize('streamed song'));
  });

  it('matches accented and unaccented spellings', () => {
    expect(tokenize('Crème brûlée')).toEqual(tokenize('creme BRULEE'));
  });

  it('keeps non-English text searchable', () => {
    expect(tokenize('Погода в Москве')).toEqual(['погода', 'в', 'москве']);
    expect(tokenize('天气预报')).toContain('天气');
    expect(tokenize('날씨 예보')).toContain('날씨');
  });

  it('drops lone Latin letters but keeps numbers', () => {
    expect(tokenize('plan B for 2024')).toEqual(['plan', '2024']);
  });

  it('returns nothing for text without words', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -- / ... ')).toEqual([]);
  });
});

describe('tokenizeQuery', () => {
  it('also drops request filler', () => {
    expect(tokenizeQuery('Could you please tell me the weather in Paris?')).toEqual(['weather', stem('paris')]);
    expect(tokenizeQuery("I want to know if you can help me find songs I'd like")).toEqual(['find', 'song']);
  });

  it('gives no terms for a request made only of stop words', () => {
    expect(tokenizeQuery('Can you please tell me what I want?')).toEqual([]);
  });

  it('keeps filler words in tool texts (only queries lose them)', () => {
    expect(tokenize('Tell a joke')).toEqual(['tell', 'joke']);
    expect(tokenizeQuery('tell me a joke')).toEqual(['joke']);
  });
});
