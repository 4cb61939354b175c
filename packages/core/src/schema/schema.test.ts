import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import type { JsonSchema } from '../types.js';
import { formatIssuePath, isStandardSchema, producesJsonSchema, toJsonSchema, validateInput } from './schema.js';

const weatherJson: JsonSchema = {
  type: 'object',
  properties: {
    location: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 } },
      required: ['city'],
    },
    tags: { type: 'array', items: { type: 'string' } },
    unit: { enum: ['c', 'f'] },
    'max temp': { type: 'number' },
  },
  required: ['location'],
  additionalProperties: false,
};

const weatherZod = z.object({
  location: z.object({ city: z.string().min(1) }),
  tags: z.array(z.string()).optional(),
  unit: z.enum(['c', 'f']).default('c'),
});

describe('isStandardSchema', () => {
  it('recognises zod schemas and rejects plain JSON Schema and junk', () => {
    expect(isStandardSchema(weatherZod)).toBe(true);
    expect(isStandardSchema(weatherJson)).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
    expect(isStandardSchema('~standard')).toBe(false);
    expect(isStandardSchema({ '~standard': { validate: 'no' } })).toBe(false);
  });
});

describe('producesJsonSchema', () => {
  const validate = (value: unknown) => ({ value });

  it('is true exactly for the Standard Schemas toJsonSchema converts', () => {
    const legacy = { '~standard': { version: 1, vendor: 'zod', validate }, toJSONSchema: () => ({ type: 'object' }) };
    for (const schema of [weatherZod, legacy]) {
      expect(producesJsonSchema(schema)).toBe(true);
      expect(toJsonSchema(schema as StandardSchemaV1)).toMatchObject({ type: 'object' });
    }
    const opaque = { '~standard': { version: 1, vendor: 'acme', validate } };
    expect(producesJsonSchema(opaque)).toBe(false);
    expect(InvalidToolError.isInstance(thrown(() => toJsonSchema(opaque as StandardSchemaV1)))).toBe(true);
  });

  it('is false for JSON Schema, junk and a schema whose converter cannot be read', () => {
    const hostile = {
      '~standard': {
        version: 1,
        vendor: 'hostile',
        validate,
        get jsonSchema(): never {
          throw new Error('no');
        },
      },
    };
    for (const value of [weatherJson, null, 'x', [], { '~standard': { jsonSchema: { input: () => ({}) } } }, hostile]) {
      expect(producesJsonSchema(value)).toBe(false);
    }
    expect(() => toJsonSchema(hostile as StandardSchemaV1)).toThrow(
      'inputSchema (hostile) cannot be converted to JSON Schema: no',
    );
  });
});

describe('toJsonSchema', () => {
  it('gives an empty object schema for no schema', () => {
    expect(toJsonSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });

  it('returns a plain JSON Schema as it is', () => {
    expect(toJsonSchema(weatherJson)).toBe(weatherJson);
  });

  it('converts zod 4 through Standard JSON Schema, without the $schema dialect', () => {
    expect(toJsonSchema(weatherZod)).toEqual({
      type: 'object',
      properties: {
        location: {
          type: 'object',
          properties: { city: { type: 'string', minLength: 1 } },
          required: ['city'],
        },
        tags: { type: 'array', items: { type: 'string' } },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      required: ['location'],
    });
  });

  it('uses the input side of a zod schema (a defaulted field is optional)', () => {
    const schema = toJsonSchema(z.object({ unit: z.string().default('c') }));
    expect(schema.required ?? []).toEqual([]);
  });

  it('falls back to a toJSONSchema() method when ~standard.jsonSchema is absent', () => {
    const legacy = {
      '~standard': { version: 1, vendor: 'zod', validate: (value: unknown) => ({ value }) },
      toJSONSchema: () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} }),
    };
    expect(toJsonSchema(legacy as unknown as StandardSchemaV1)).toEqual({ type: 'object', properties: {} });
  });

  it('rejects a Standard Schema that cannot produce JSON Schema, with the vendor and the reason', () => {
    const opaque = { '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) } };
    const error = thrown(() => toJsonSchema(opaque as StandardSchemaV1));
    expect(InvalidToolError.isInstance(error)).toBe(true);
    expect((error as InvalidToolError).field).toBe('inputSchema');
    expect((error as Error).message).toMatch(/Standard Schema \(acme\) that cannot produce JSON Schema/);

    const dated = thrown(() => toJsonSchema(z.object({ at: z.date() })));
    expect((dated as Error).message).toBe(
      'inputSchema (zod) cannot be converted to JSON Schema: Date cannot be represented in JSON Schema',
    );
    expect((dated as Error).cause).toBeInstanceOf(Error);
  });

  it('rejects a converter that returns something other than an object', () => {
    const broken = {
      '~standard': {
        version: 1,
        vendor: 'broken',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => 'nope', output: () => 'nope' },
      },
    };
    expect(() => toJsonSchema(broken as StandardSchemaV1)).toThrow(
      'inputSchema (broken) ~standard.jsonSchema.input() returned a string, not a JSON Schema object',
    );
  });

  it('rejects non-schemas', () => {
    expect(() => toJsonSchema('object' as unknown as JsonSchema)).toThrow(/got a string/);
    expect(() => toJsonSchema([] as unknown as JsonSchema)).toThrow(/got an array/);
    expect(() => toJsonSchema(null as unknown as JsonSchema)).toThrow(/got null/);
    expect(() => toJsonSchema({ '~standard': 1 } as unknown as JsonSchema)).toThrow(
      'inputSchema has a "~standard" property that is a number',
    );
  });
});

describe('validateInput with JSON Schema', () => {
  const tool = { jsonSchema: weatherJson };

  it('accepts valid arguments as they are', async () => {
    const args = { location: { city: 'Oslo' }, tags: ['a'], unit: 'c' };
    expect(await validateInput(tool, args)).toEqual({ success: true, value: args });
  });

  it('reports each problem at its path, without wrapper noise', async () => {
    const result = await validateInput(tool, {
      location: { city: 3 },
      tags: ['x', 2],
      unit: 'k',
      'max temp': 'hot',
      extra: 1,
    });
    expect(result).toEqual({
      success: false,
      issues: [
        { path: 'location.city', message: 'Instance type "number" is invalid. Expected "string".' },
        { path: 'tags[1]', message: 'Instance type "number" is invalid. Expected "string".' },
        { path: 'unit', message: 'Instance does not match any of ["c","f"].' },
        { path: '["max temp"]', message: 'Instance type "string" is invalid. Expected "number".' },
        { path: 'extra', message: 'Property is not allowed by the schema.' },
      ],
    });
  });

  it('names a missing required property by its path', async () => {
    expect(await validateInput(tool, { location: {} })).toEqual({
      success: false,
      issues: [{ path: 'location.city', message: 'Required property is missing.' }],
    });
    expect(await validateInput(tool, {})).toEqual({
      success: false,
      issues: [{ path: 'location', message: 'Required property is missing.' }],
    });
  });

  it('reports arguments that are not an object at the root', async () => {
    expect(await validateInput(tool, 'Oslo')).toEqual({
      success: false,
      issues: [{ path: '', message: 'Instance type "string" is invalid. Expected "object".' }],
    });
  });

  it('honours a draft-07 schema', async () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { list: { type: 'array', items: [{ type: 'string' }], additionalItems: false } },
    };
    expect((await validateInput({ jsonSchema: draft7 }, { list: ['a'] })).success).toBe(true);
    const result = await validateInput({ jsonSchema: draft7 }, { list: ['a', 'b'] });
    expect(result.success).toBe(false);
  });

  it('validates a catalog tool (frozen schema) without touching its schema', async () => {
    const tool = new ToolCatalog([{ id: 'send_email', inputSchema: weatherJson }]).get('send_email')!;
    expect(Object.isFrozen(tool.jsonSchema)).toBe(true);
    expect(await validateInput(tool, { location: { city: 'Oslo' } })).toEqual({
      success: true,
      value: { location: { city: 'Oslo' } },
    });
    expect((await validateInput(tool, { location: { city: 1 } })).success).toBe(false);
    expect(JSON.stringify(tool.jsonSchema)).not.toContain('__absolute');
    expect(JSON.stringify(weatherJson)).not.toContain('__absolute');
  });

  it('caches one validator per schema object and still sees each call afresh', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await validateInput(tool, { location: { city: `c${i}` } })).success).toBe(true);
      expect((await validateInput(tool, { location: { city: '' } })).success).toBe(false);
    }
  });

  it('reports a schema that cannot be applied instead of throwing', async () => {
    const result = await validateInput({ jsonSchema: { type: 'object', $ref: '#/$defs/missing' } }, {});
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues[0]!.message).toMatch(/^the tool's JSON Schema could not be applied: /);
  });
});

describe('validateInput with a Standard Schema (zod 4)', () => {
  const tool = { inputSchema: weatherZod, jsonSchema: toJsonSchema(weatherZod) };

  it('returns the parsed value (defaults applied)', async () => {
    expect(await validateInput(tool, { location: { city: 'Oslo' } })).toEqual({
      success: true,
      value: { location: { city: 'Oslo' }, unit: 'c' },
    });
  });

  it('reports issues with dotted paths', async () => {
    const result = await validateInput(tool, { location: { city: 3 }, tags: ['ok', 5] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues.map((issue) => issue.path)).toEqual(['location.city', 'tags[1]']);
    expect(result.issues[0]!.message).toBe('Invalid input: expected string, received number');
  });

  it('supports async refinements', async () => {
    const schema = z.object({ name: z.string().refine(async (name) => name !== 'taken', 'Name is taken') });
    const asyncTool = { inputSchema: schema, jsonSchema: toJsonSchema(schema) };
    expect(await validateInput(asyncTool, { name: 'taken' })).toEqual({
      success: false,
      issues: [{ path: 'name', message: 'Name is taken' }],
    });
  });

  it('turns a throwing validator into an issue', async () => {
    const schema = z.object({ name: z.string() }).refine((value) => {
      throw new Error(`cannot check ${value.name}`);
    });
    const result = await validateInput({ inputSchema: schema, jsonSchema: {} }, { name: 'x' });
    expect(result).toEqual({ success: false, issues: [{ path: '', message: 'validation threw: cannot check x' }] });
  });
});

describe('formatIssuePath', () => {
  it('joins keys with dots, indexes in brackets and quotes odd keys', () => {
    expect(formatIssuePath([])).toBe('');
    expect(formatIssuePath(['location', 'city'])).toBe('location.city');
    expect(formatIssuePath(['items', 2, 'name'])).toBe('items[2].name');
    expect(formatIssuePath(['a b', 'c'])).toBe('["a b"].c');
    expect(formatIssuePath([0])).toBe('[0]');
  });
});
