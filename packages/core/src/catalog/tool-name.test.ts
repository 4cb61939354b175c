import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isValidToolName, MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, toolNameHash, toToolName } from './tool-name.js';

const HASH = /_[0-9a-z]{10}$/;

describe('toToolName', () => {
  it('keeps ids that are already valid names', () => {
    for (const id of ['get_weather', 'getFilmDetails', 'search-web', 'a', 'A_1-b', 'x'.repeat(64)]) {
      expect(toToolName(id)).toBe(id);
    }
  });

  it('makes real dataset ids valid and readable, with a hash suffix', () => {
    const cases: [string, string][] = [
      ['TheClique__Songkick concert', 'TheClique__Songkick_concert'],
      ['Kick.com API | Kick API__Get Channel Clips', 'Kick_com_API_Kick_API__Get_Channel_Clips'],
      ['github/create_issue', 'github_create_issue'],
      ['weather.v2.get forecast', 'weather_v2_get_forecast'],
    ];
    for (const [id, readable] of cases) {
      const name = toToolName(id);
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(name.startsWith(`${readable}_`)).toBe(true);
      expect(name).toMatch(HASH);
    }
  });

  it('transliterates accents and letters NFKD keeps', () => {
    expect(toToolName('café_crème')).toMatch(/^cafe_creme_[0-9a-z]{10}$/);
    expect(toToolName('Straße öffnen')).toMatch(/^Strasse_offnen_[0-9a-z]{10}$/);
    expect(toToolName('ﬁle_Ｆｏｏ')).toMatch(/^file_Foo_[0-9a-z]{10}$/);
    expect(toToolName('Łódź_søk')).toMatch(/^Lodz_sok_[0-9a-z]{10}$/);
  });

  it('gives ids with nothing readable left a "tool_" name, distinct per id', () => {
    const ids = ['天气查询', '查询天气', '🎉', '🎉🎉', '   ', '|||', '.'];
    const names = ids.map(toToolName);
    for (const name of names) expect(name).toMatch(/^tool_[0-9a-z]{10}$/);
    expect(new Set(names).size).toBe(ids.length);
  });

  it('keeps the readable part of mixed CJK and emoji ids', () => {
    expect(toToolName('天气 weather 🌤 today')).toMatch(/^weather_today_[0-9a-z]{10}$/);
  });

  it('gives a b, a_b, a-b, a.b, a|b and a/b distinct names', () => {
    const ids = ['a b', 'a_b', 'a-b', 'a.b', 'a|b', 'a/b', 'a  b', 'a b '];
    const names = ids.map(toToolName);
    expect(new Set(names).size).toBe(ids.length);
    expect(toToolName('a_b')).toBe('a_b');
    expect(toToolName('a-b')).toBe('a-b');
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it('truncates long ids to 64 characters and keeps them distinct', () => {
    const base = 'x'.repeat(70);
    const a = toToolName(`${base}_a`);
    const b = toToolName(`${base}_b`);
    expect(a).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(b).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(a.startsWith('x'.repeat(53))).toBe(true);
    expect(a).toMatch(TOOL_NAME_PATTERN);
    // 65 valid characters is one too many.
    expect(toToolName('y'.repeat(65))).toHaveLength(64);
    expect(toToolName('y'.repeat(65))).toMatch(HASH);
  });

  it('does not leave a run of underscores before the hash when cutting at a separator', () => {
    const id = `${'a'.repeat(52)} | ${'b'.repeat(30)}`;
    const name = toToolName(id);
    expect(name).toMatch(/^a{52}_[0-9a-z]{10}$/);
  });

  it('is deterministic within and across processes', () => {
    const ids = ['Kick.com API | Kick API__Get Channel Clips', '天气查询', 'z'.repeat(100)];
    const here = ids.map(toToolName);
    expect(ids.map(toToolName)).toEqual(here);
    // Node compiles the TypeScript but keeps the `.js` of each relative import: resolve it to the `.ts` beside it.
    const resolveTs = `process.getBuiltinModule('node:module').registerHooks({ resolve: (specifier, context, next) => { try { return next(specifier, context); } catch (error) { if (!specifier.endsWith('.js')) throw error; return next(specifier.replace(/\\.js$/, '.ts'), context); } } });`;
    const script = `${resolveTs} import('${new URL('./tool-name.ts', import.meta.url).href}').then((m) => process.stdout.write(JSON.stringify(${JSON.stringify(ids)}.map(m.toToolName))))`;
    const child = spawnSync(process.execPath, ['--experimental-transform-types', '--no-warnings', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual(here);
  });

  it('rejects a non-string id with a clear error', () => {
    expect(() => toToolName(42 as unknown as string)).toThrow('toToolName expects a string id, got number');
  });
});

describe('toolNameHash', () => {
  it('is a fixed 10-character base-36 string that pins FNV-1a 64', () => {
    // FNV-1a 64 of "" is the offset basis, 0xcbf29ce484222325.
    expect(toolNameHash('')).toBe((0xcbf29ce484222325n % 36n ** 10n).toString(36).padStart(10, '0'));
    // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c.
    expect(toolNameHash('a')).toBe((0xaf63dc4c8601ec8cn % 36n ** 10n).toString(36).padStart(10, '0'));
    expect(toolNameHash('a b')).toMatch(/^[0-9a-z]{10}$/);
    expect(toolNameHash('a b')).not.toBe(toolNameHash('a.b'));
  });

  it('equals a plain 64-bit (BigInt) FNV-1a over the UTF-8 bytes, for any text', () => {
    const reference = (text: string) => {
      let hash = 0xcbf29ce484222325n;
      for (const byte of new TextEncoder().encode(text)) {
        hash ^= BigInt(byte);
        hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
      }
      return (hash % 36n ** 10n).toString(36).padStart(10, '0');
    };
    const texts = ['', 'a', 'Vimeo API__Get video', 'café ☕ 天气预报 😀', '\u0000\uffff', 'x'.repeat(1000)];
    // Bytes of every value, in many combinations: the carries between the two 32-bit halves.
    for (let i = 0; i < 2000; i++)
      texts.push(String.fromCharCode(...Array.from({ length: 1 + (i % 17) }, (_, j) => (i * 131 + j * 7919) % 0x2fff)));
    for (const text of texts) expect(toolNameHash(text), JSON.stringify(text)).toBe(reference(text));
  });

  it('has no collisions over the dataset-like ids of a large catalog', () => {
    const hashes = new Set<string>();
    for (let i = 0; i < 50_000; i++) hashes.add(toolNameHash(`api ${i % 97}__endpoint ${i}`));
    expect(hashes.size).toBe(50_000);
  });
});

describe('isValidToolName', () => {
  it('accepts provider-safe names only', () => {
    expect(isValidToolName('get_weather')).toBe(true);
    expect(isValidToolName('')).toBe(false);
    expect(isValidToolName('a.b')).toBe(false);
    expect(isValidToolName('x'.repeat(65))).toBe(false);
  });
});
