import { format } from '@cfworker/json-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import { within } from '../test-utils/within.js';
import type { JsonSchema } from '../types.js';
import { validateInput } from './schema.js';
import { compilePattern, isLinear, loadPatternEngine, PATTERN_FORMAT } from './schema-pattern.js';

/** The pattern that backtracks exponentially in `RegExp`: 30 letters and a `!` take about 5 s there. */
const NESTED = '^(a+)+$';
const hostile = (letters: number) => `${'a'.repeat(letters)}!`;

function withPattern(pattern: string): JsonSchema {
  return { type: 'object', properties: { s: { type: 'string', pattern } } };
}

async function accepts(pattern: string, text: string): Promise<boolean> {
  const result = await validateInput({ jsonSchema: withPattern(pattern) }, { s: text });
  if (!result.success) expect(result.issues).toEqual([{ path: 's', message: 'String does not match pattern.' }]);
  return result.success;
}

describe('pattern: matched in linear time', () => {
  it.each([30, 1_000, 100_000])('checks ^(a+)+$ against %i letters and a "!" at once', async (letters) => {
    const result = await within(2_000, () =>
      validateInput({ jsonSchema: withPattern(NESTED) }, { s: hostile(letters) }),
    );
    expect(result).toEqual({ success: false, issues: [{ path: 's', message: 'String does not match pattern.' }] });
    expect(await accepts(NESTED, 'a'.repeat(letters))).toBe(true);
  });

  it('checks a patternProperties key like ^(a+)+$ against a hostile property name at once', async () => {
    const jsonSchema: JsonSchema = {
      type: 'object',
      patternProperties: { [NESTED]: { type: 'number' }, '^b': { type: 'string' } },
      additionalProperties: false,
    };
    const name = hostile(30);
    const refused = await within(2_000, () => validateInput({ jsonSchema }, { [name]: 1 }));
    expect(refused).toEqual({
      success: false,
      issues: [{ path: `[${JSON.stringify(name)}]`, message: 'Property is not allowed by the schema.' }],
    });
    expect(await validateInput({ jsonSchema }, { aaa: 1, bcd: 'x' })).toEqual({
      success: true,
      value: { aaa: 1, bcd: 'x' },
    });
    expect(await validateInput({ jsonSchema }, { aaa: 'one', b: 2 })).toEqual({
      success: false,
      issues: [
        { path: 'aaa', message: 'Instance type "string" is invalid. Expected "number".' },
        { path: 'b', message: 'Instance type "number" is invalid. Expected "string".' },
      ],
    });
  });

  it('applies every pattern that matches a name, beside its declared property, for any name (even __proto__)', async () => {
    const jsonSchema: JsonSchema = {
      type: 'object',
      properties: { ab: { minimum: 0 } },
      patternProperties: { '^a': { type: 'integer' }, b$: { maximum: 10 }, '^__': { type: 'string' } },
      unevaluatedProperties: false,
    };
    const args = JSON.parse('{"ab": 5, "a": 1, "__proto__": "p"}') as Record<string, unknown>;
    expect(await validateInput({ jsonSchema }, args)).toEqual({ success: true, value: args });
    const result = await validateInput({ jsonSchema }, { ab: 11.5, zz: 1, __x: 2 });
    expect(!result.success && result.issues).toEqual(
      expect.arrayContaining([
        { path: 'ab', message: 'Instance type "number" is invalid. Expected "integer".' },
        { path: 'ab', message: expect.stringMatching(/^11.5 is greater than 10/) },
        { path: '__x', message: 'Instance type "number" is invalid. Expected "string".' },
      ]),
    );
    expect(!result.success && result.issues.some((issue) => issue.path === 'zz')).toBe(true);
  });

  it('matches 40,000 property names against patternProperties in linear time, not one pass per name', async () => {
    const args = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i]));
    const jsonSchema: JsonSchema = { type: 'object', patternProperties: { '^k': { type: 'number' } } };
    expect(await within(2_000, () => validateInput({ jsonSchema }, args))).toEqual({ success: true, value: args });
  });

  it('counts the names declared for patternProperties, times the objects, towards the budget', async () => {
    const jsonSchema: JsonSchema = {
      type: 'object',
      properties: {
        rows: { type: 'array', items: { type: 'object', patternProperties: { '^k': { type: 'number' } } } },
      },
    };
    const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ [`k${i}`]: i }));
    expect(await validateInput({ jsonSchema }, { rows: rows(300) })).toMatchObject({ success: true });
    // 1,000 objects, each with a name of its own: the validator would read 1,000,000 declared names.
    expect(await within(2_000, () => validateInput({ jsonSchema }, { rows: rows(1_000) }))).toEqual({
      success: false,
      issues: [{ path: '', message: expect.stringMatching(/^the arguments could not be validated within the budget/) }],
    });
  });

  it('checks patterns wherever they are: nested, under anyOf and not, beside a format, in patternProperties of items', async () => {
    const jsonSchema: JsonSchema = {
      type: 'object',
      properties: {
        code: { anyOf: [{ pattern: '^[A-Z]{3}$' }, { pattern: '^\\d+$' }] },
        free: { not: { pattern: 'x' } },
        mail: { type: 'string', format: 'email', pattern: '@example\\.com$' },
        rows: { type: 'array', items: { type: 'object', patternProperties: { '^n_': { type: 'integer' } } } },
      },
    };
    const valid = { code: 'ABC', free: 'yes', mail: 'me@example.com', rows: [{ n_a: 1 }, { other: 'x' }] };
    expect(await validateInput({ jsonSchema }, valid)).toEqual({ success: true, value: valid });
    expect(await validateInput({ jsonSchema }, { code: '42' })).toMatchObject({ success: true });
    const invalid = { code: 'AB', free: 'xx', mail: 'me@other.com', rows: [{ n_a: 1.5 }] };
    const result = await validateInput({ jsonSchema }, invalid);
    expect(!result.success && result.issues.map((issue) => issue.path).sort()).toEqual([
      'code',
      'code',
      'free',
      'mail',
      'rows[0].n_a',
    ]);
    expect(!result.success && result.issues.find((issue) => issue.path === 'mail')?.message).toBe(
      'String does not match pattern.',
    );
    expect(await validateInput({ jsonSchema }, { mail: 'not an address@example.com' })).toMatchObject({
      success: false,
      issues: [{ path: 'mail', message: expect.stringMatching(/format "email"/) }],
    });
  });

  it("leaves nothing behind in the validator's format table", async () => {
    await validateInput({ jsonSchema: withPattern('^a') }, { s: 'b' });
    expect(Object.keys(format).filter((name) => name.startsWith(PATTERN_FORMAT))).toEqual([]);
  });
});

describe('pattern: the same meaning as RegExp', () => {
  // Some tests below match a compiled pattern directly, without validateInput (which loads re2js).
  beforeAll(() => loadPatternEngine());

  const cases: [pattern: string, texts: string[]][] = [
    ['^abc$', ['abc', 'xabc', 'abcx', 'abc\n', '']],
    ['b', ['abc', 'ABC', '']],
    ['^[a-z0-9_-]{3,16}$', ['user_1', 'ab', 'a'.repeat(17), 'Upper', 'with-dash']],
    ['^\\d{4}-\\d{2}-\\d{2}$', ['2024-01-31', '2024-1-31', '٢٠٢٤-01-31']],
    ['^(?:cat|dog)s?$', ['cat', 'dogs', 'cow', 'cats!']],
    ['^\\p{L}+$', ['héllo', 'Ωμέγα', '日本', 'abc1', '']],
    ['^\\P{L}+$', ['123 !', 'a1']],
    ['^\\p{Script=Greek}+$', ['Ωμέγα', 'omega']],
    ['^\\p{Lu}', ['Élan', 'élan']],
    ['^.$', ['a', '\n', '\r', '\u2028', '😀', '\u0085']],
    ['^\\s+$', [' \t\n', '\u00a0\u2003\ufeff', '\u200b', 'a']],
    ['^\\S+$', ['abc', 'a b', '\u3000']],
    ['^[\\s\\d]+$', ['1 2', '1\u00a02', '1_2']],
    ['^[^\\s]+$', ['abc', 'a\u2029b']],
    ['\\bword\\b', ['a word here', 'swordfish', 'word']],
    ['\\Bor\\B', ['word', 'or']],
    ['^\\u{1F600}$', ['😀', '😁']],
    ['^\\uD83D\\uDE00$', ['😀', '😁']],
    ['^[😀-😂]$', ['😁', '😃']],
    ['^(?<year>\\d{4})$', ['2024', '24']],
    ['^a\\/b\\.c\\*$', ['a/b.c*', 'a/bxc*']],
    ['^[\\w.+-]+@[\\w-]+\\.[\\w.]+$', ['me.you+x@ex-ample.co.uk', 'me@example']],
    ['^[\\-\\]\\\\]+$', ['-]\\', 'a']],
    ['^\\x41\\u0042\\cJ\\t\\0$', ['AB\n\t\0', 'AB\n\t0']],
    ['^[]$', ['', 'a']],
    ['^[^]$', ['a', '\n', '😀', '']],
    ['', ['', 'anything']],
    ['^a{2,}?b*?$', ['aa', 'aaab', 'ab']],
    ['^[^a-z]*$', ['ABC', 'AbC', '😀']],
  ];

  it.each(cases)('%s', async (pattern, texts) => {
    const native = new RegExp(pattern, 'u');
    for (const text of texts) expect([text, await accepts(pattern, text)]).toEqual([text, native.test(text)]);
  });

  /** Simple regexes from a grammar that RE2 and RegExp both read (no lookaround, no backreferences). */
  const regexes = fc.letrec<{ regex: string; atom: string }>((tie) => ({
    atom: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom('a', 'b', 'é', '😀', '.', '\\d', '\\w', '\\s', '\\S', '\\p{L}', '\\P{Ll}', '\\.', '\\n'),
      fc.constantFrom('[ab]', '[^a]', '[a-c\\d]', '[\\s😀]', '[^\\w\\s]', '[\\p{Lu}é]'),
      tie('regex').map((inner) => `(${inner})`),
      tie('regex').map((inner) => `(?:${inner})`),
    ),
    regex: fc.oneof(
      { depthSize: 'small' },
      fc
        .array(
          fc.tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '*?')).map(([a, q]) => a + q),
          { minLength: 1, maxLength: 4 },
        )
        .map((parts) => parts.join('')),
      fc.tuple(tie('regex'), tie('regex')).map(([left, right]) => `${left}|${right}`),
      tie('regex').map((inner) => `^${inner}`),
      tie('regex').map((inner) => `${inner}$`),
      tie('regex').map((inner) => `\\b${inner}`),
    ),
  })).regex;
  const texts = fc.string({
    unit: fc.constantFrom('a', 'b', 'c', 'A', 'é', '😀', '1', ' ', '\n', '\u00a0', '_', '.', '!'),
    maxLength: 8,
  });

  it('agrees with RegExp(pattern, "u").test on random simple regexes and strings', () => {
    fc.assert(
      fc.property(regexes, fc.array(texts, { minLength: 1, maxLength: 5 }), (pattern, samples) => {
        const compiled = compilePattern(pattern);
        if (!isLinear(compiled)) throw new Error(`not compiled: ${pattern}: ${JSON.stringify(compiled)}`);
        const native = new RegExp(pattern, 'u');
        for (const text of samples)
          expect([pattern, text, compiled.test(text)]).toEqual([pattern, text, native.test(text)]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('pattern: what RE2 cannot match', () => {
  it.each([
    ['^(?=.*\\d)\\w{8,}$', 'a lookahead'],
    ['(?<!x)y', 'a lookbehind'],
    ['^(a)\\1$', 'a backreference'],
    ['^(?<q>["\'])\\w+\\k<q>$', 'a backreference'],
    ['^a{2000}$', "a repeat count over 1,000 (RE2's limit)"],
  ])('rejects a tool whose schema has %s, naming the tool and the pattern', (pattern, reason) => {
    const adding = () => new ToolCatalog([{ id: 'strict', inputSchema: withPattern(pattern) }]);
    expect(adding).toThrow(InvalidToolError);
    expect(adding).toThrow(
      `Tool "strict": inputSchema has the pattern ${JSON.stringify(pattern)}, which uses ${reason}`,
    );
  });

  it('rejects one in patternProperties too, and refuses calls against such a schema', async () => {
    const jsonSchema: JsonSchema = { type: 'object', patternProperties: { '^(?!_)': { type: 'string' } } };
    expect(() => new ToolCatalog([{ id: 'keys', inputSchema: jsonSchema }])).toThrow(/uses a lookahead/);
    expect(await validateInput({ jsonSchema }, { a: 'x' })).toEqual({
      success: false,
      issues: [{ path: '', message: expect.stringMatching(/^the tool's JSON Schema has the pattern "\^\(\?!_\)"/) }],
    });
  });

  it('refuses calls against a pattern RE2 finds too large when compiling it (at the first call, not when the tool is added)', async () => {
    const jsonSchema = withPattern('^(?:a{100}){100}$');
    expect(() => new ToolCatalog([{ id: 'large', inputSchema: jsonSchema }])).not.toThrow();
    expect(await validateInput({ jsonSchema }, { s: 'a' })).toEqual({
      success: false,
      issues: [
        {
          path: '',
          message: expect.stringMatching(
            /^the tool's JSON Schema has the pattern "\^\(\?:a\{100\}\)\{100\}\$", which uses what RE2 cannot compile \(invalid repeat count/,
          ),
        },
      ],
    });
  });

  it('reports a pattern RegExp rejects as it always has: when a call reaches it', async () => {
    const jsonSchema = withPattern('(');
    expect(() => new ToolCatalog([{ id: 'broken', inputSchema: jsonSchema }])).not.toThrow();
    expect(await validateInput({ jsonSchema }, { s: 'x' })).toEqual({
      success: false,
      issues: [
        {
          path: '',
          message: expect.stringMatching(/^the tool's JSON Schema could not be applied: Invalid regular expression/),
        },
      ],
    });
  });
});
