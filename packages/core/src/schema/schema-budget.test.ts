import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import {
  allOfRefChain,
  fanOutOnData,
  nestedArrays,
  sharedAtEveryLevel,
  treeArguments,
  treeSchema,
} from '../test-utils/hostile-schemas.js';
import { within } from '../test-utils/within.js';
import type { JsonSchema } from '../types.js';
import { validateInput } from './schema.js';
import { schemaPlan, VALIDATION_BUDGET } from './schema-graph.js';
import { validationCost } from './validation-cost.js';

function callable(id: string, schema: JsonSchema) {
  return new ToolCatalog([{ id, inputSchema: schema }]).get(id)!;
}

describe('validateInput: cost is bounded', () => {
  it('refuses a schema whose $refs fan out (22 levels of allOf of two $refs), at once instead of in seconds', async () => {
    const result = await within(2_000, () => validateInput({ jsonSchema: allOfRefChain(22) }, { x: 'ok' }));
    expect(result.success).toBe(false);
    expect(!result.success && result.issues).toEqual([
      {
        path: '',
        message: expect.stringMatching(
          /^the tool's JSON Schema is too costly to validate: checking a single value would take more than 50,000 steps/,
        ),
      },
    ]);
  });

  it('refuses a schema that reuses one sub-object in an allOf at every level (a DAG, 24 levels)', async () => {
    const result = await within(2_000, () =>
      validateInput({ jsonSchema: sharedAtEveryLevel(24, 'allOf') }, { x: 'a' }),
    );
    expect(!result.success && result.issues[0]!.message).toMatch(/too costly to validate/);
  });

  it('validates against a schema that reuses one sub-object as two properties, counting each value once', async () => {
    const schema = sharedAtEveryLevel(24, 'properties');
    expect(await validateInput({ jsonSchema: schema }, { x: { a: { b: { a: {} } } } })).toEqual({
      success: true,
      value: { x: { a: { b: { a: {} } } } },
    });
    expect(await validateInput({ jsonSchema: schema }, { x: { a: { b: 7 } } })).toEqual({
      success: false,
      issues: [{ path: 'x.a.b', message: 'Instance type "number" is invalid. Expected "object".' }],
    });
  });

  it('refuses arguments that would make a recursive schema fan out, before validating them', async () => {
    const tool = callable('fan', fanOutOnData);
    expect(await validateInput(tool, { x: nestedArrays(6, 1) })).toEqual({
      success: true,
      value: { x: nestedArrays(6, 1) },
    });
    // 3^30 evaluations unbounded; counted in a few steps past the budget.
    const result = await within(2_000, () => validateInput(tool, { x: nestedArrays(30, 'no') }));
    expect(!result.success && result.issues).toEqual([
      {
        path: '',
        message: expect.stringMatching(
          /^the arguments could not be validated within the budget: .* more than 50,000 steps/,
        ),
      },
    ]);
    expect(validationCost(schemaPlan(tool.jsonSchema), { x: nestedArrays(30, 'no') })).toBe(VALIDATION_BUDGET + 1);
  });

  it('counts item pairs of uniqueItems, required names and enum members towards the budget', async () => {
    const unique = callable('unique', {
      type: 'object',
      properties: { ids: { type: 'array', uniqueItems: true } },
    });
    const many = Array.from({ length: 50_000 }, (_, i) => i);
    const refused = await within(2_000, () => validateInput(unique, { ids: many }));
    expect(!refused.success && refused.issues[0]!.message).toMatch(/within the budget/);
    expect(await validateInput(unique, { ids: many.slice(0, 300) })).toMatchObject({ success: true });

    const codes = Array.from({ length: 5_000 }, (_, i) => `code${i}`);
    const coded = callable('coded', {
      type: 'object',
      properties: { codes: { type: 'array', items: { enum: codes } } },
    });
    expect(await validateInput(coded, { codes: codes.slice(0, 300) })).toMatchObject({ success: true });

    const names = Array.from({ length: 100 }, (_, i) => `field${i}`);
    const required = callable('required', {
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object', required: names } } },
    });
    const rows = Array.from({ length: 5_000 }, () => ({}));
    const tooMany = await within(2_000, () => validateInput(required, { rows }));
    expect(!tooMany.success && tooMany.issues[0]!.message).toMatch(/within the budget/);
  });
});

describe('validateInput: formats', () => {
  it('checks format "url" in linear time (the library\'s pattern takes hours on 40 letters), with the same schemes', async () => {
    const tool = callable('site', { type: 'object', properties: { site: { type: 'string', format: 'url' } } });
    const hostile = await within(2_000, () => validateInput(tool, { site: `http://${'a'.repeat(32)}_` }));
    expect(hostile).toMatchObject({ success: true });
    for (const site of ['https://example.com/a?b=c', 'ftp://files.example.org', 'HTTP://EXAMPLE.COM']) {
      expect(await validateInput(tool, { site })).toMatchObject({ success: true });
    }
    for (const site of ['mailto:someone@example.com', 'not a url', 'example.com']) {
      const result = await validateInput(tool, { site });
      expect(result.success).toBe(false);
      expect(!result.success && result.issues.map((issue) => issue.path)).toContain('site');
    }
    expect(tool.jsonSchema.properties).toEqual({ site: { type: 'string', format: 'url' } });
  });
});

describe('validateInput: recursive schemas', () => {
  it('accepts anything against {"$ref": "#"} (it refers to itself, like {})', async () => {
    const tool = callable('self', { $ref: '#' });
    expect(await validateInput(tool, { any: [1, { deep: true }] })).toEqual({
      success: true,
      value: { any: [1, { deep: true }] },
    });
  });

  it('keeps the other keywords of a schema that refers to itself, and cuts loops between definitions', async () => {
    const self = callable('self', { $ref: '#', type: 'object', required: ['a'] });
    expect(await validateInput(self, { a: 1 })).toMatchObject({ success: true });
    expect(await validateInput(self, {})).toEqual({
      success: false,
      issues: [{ path: 'a', message: 'Required property is missing.' }],
    });
    const loop = callable('loop', {
      $ref: '#/$defs/a',
      $defs: { a: { $ref: '#/$defs/b', required: ['a'] }, b: { allOf: [{ $ref: '#/$defs/a' }], required: ['b'] } },
    });
    expect(await validateInput(loop, { a: 1, b: 2 })).toMatchObject({ success: true });
    expect(await validateInput(loop, { a: 1 })).toEqual({
      success: false,
      issues: [{ path: 'b', message: 'Required property is missing.' }],
    });
  });

  it('validates a tree of nodes 100 levels deep, and finds the mistake at the bottom', async () => {
    const tool = callable('tree', treeSchema);
    const args = treeArguments(100);
    expect(await validateInput(tool, args)).toEqual({ success: true, value: args });
    const wrong = await validateInput(tool, treeArguments(100, 42));
    expect(wrong.success).toBe(false);
    const path = `root${'.children[0]'.repeat(100)}.name`;
    expect(!wrong.success && wrong.issues).toEqual([
      { path, message: 'Instance type "number" is invalid. Expected "string".' },
    ]);
  });

  it('refuses data nested deeper than the validator can follow, saying so', async () => {
    const tool = callable('tree', treeSchema);
    const result = await within(2_000, () => validateInput(tool, treeArguments(2_000)));
    expect(!result.success && result.issues).toEqual([
      { path: '', message: expect.stringMatching(/^the arguments could not be validated: they are too deeply nested/) },
    ]);
  });

  it('resolves $ref to anchors, $ids and $recursiveRef', async () => {
    const anchored = callable('anchored', {
      type: 'object',
      properties: { when: { $ref: '#day' }, where: { $ref: 'https://example.com/place' } },
      $defs: {
        day: { $anchor: 'day', type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        place: { $id: 'https://example.com/place', type: 'string' },
      },
    });
    expect(await validateInput(anchored, { when: '2026-11-23', where: 'Oslo' })).toMatchObject({ success: true });
    expect(await validateInput(anchored, { when: 'today', where: 1 })).toEqual({
      success: false,
      issues: [
        { path: 'when', message: 'String does not match pattern.' },
        { path: 'where', message: 'Instance type "number" is invalid. Expected "string".' },
      ],
    });
    const recursive = callable('recursive', {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $recursiveAnchor: true,
      type: 'object',
      additionalProperties: { $recursiveRef: '#' },
    });
    expect(await validateInput(recursive, { a: { b: {} } })).toMatchObject({ success: true });
    expect(await validateInput(recursive, { a: { b: 3 } })).toMatchObject({
      success: false,
      issues: [{ path: 'a.b', message: 'Instance type "number" is invalid. Expected "object".' }],
    });
  });

  it('names a $ref that resolves to nothing in the schema', async () => {
    const tool = callable('remote', { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } });
    expect(await validateInput(tool, { a: 1 })).toEqual({
      success: false,
      issues: [
        {
          path: '',
          message:
            'the tool\'s JSON Schema could not be applied: its $ref "https://example.com/a.json" names no part of the schema (references to other documents are not fetched).',
        },
      ],
    });
  });
});

describe('validateInput: arguments the validator cannot handle', () => {
  it('names a value that is not JSON data (from an in-process host), instead of blaming the schema', async () => {
    const tool = callable('open', {
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'number' } } },
    });
    expect(await validateInput(tool, { list: [1, undefined] })).toEqual({
      success: false,
      issues: [
        {
          path: 'list[1]',
          message:
            'Value is undefined, which is not JSON data: the arguments could not be validated. Send JSON values only.',
        },
      ],
    });
    expect(await validateInput(tool, { list: [10n] })).toMatchObject({
      success: false,
      issues: [{ path: 'list[0]', message: expect.stringMatching(/^Value is a bigint, which is not JSON data/) }],
    });
  });

  it('names a property name that is not well-formed Unicode, instead of blaming the schema', async () => {
    const tool = callable('open', {
      type: 'object',
      properties: { nested: { type: 'object', additionalProperties: { type: 'number' } } },
    });
    const args = JSON.parse('{"ok":"a","nested":{"fine":1,"\\ud800x":1}}') as unknown;
    expect(await validateInput(tool, args)).toEqual({
      success: false,
      issues: [
        {
          path: 'nested["\\ud800x"]',
          message:
            'Property name is not well-formed Unicode (it holds a lone surrogate): the arguments could not be validated. Use property names of valid text.',
        },
      ],
    });
  });
});
