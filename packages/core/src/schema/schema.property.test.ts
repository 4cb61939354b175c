import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import { HOSTILE_KEYS, hostileJsonText, prototypePolluted } from '../test-utils/hostile-json.js';
import { allOfRefChain } from '../test-utils/hostile-schemas.js';
import type { JsonSchema } from '../types.js';
import { type ValidationResult, validateInput } from './schema.js';

const RUNS = 120;
/** A ceiling per validation against blow-ups (the budget keeps real ones to milliseconds). */
const CEILING_MS = 1_000;

/** Schemas built from the keywords that recurse, refer and fan out, plus arbitrary junk. */
function schemas(withRefs: boolean): fc.Arbitrary<unknown> {
  const refs = withRefs ? ['#', '#/$defs/a', '#/$defs/b', '#/properties/x', '#nowhere', 'other.json'] : [];
  return fc.letrec<{ schema: unknown }>((tie) => {
    const sub = tie('schema');
    const list = fc.array(sub, { minLength: 1, maxLength: 3 });
    const keywords = fc.record(
      {
        type: fc.constantFrom('object', 'array', 'string', 'integer', 'number', 'boolean', 'null'),
        properties: fc.dictionary(fc.constantFrom('x', 'y', ...HOSTILE_KEYS), sub, { maxKeys: 3 }),
        required: fc.array(fc.constantFrom('x', 'y', '__proto__'), { maxLength: 2 }),
        additionalProperties: sub,
        patternProperties: fc.dictionary(fc.constantFrom('^x', 'y$', '['), sub, { maxKeys: 1 }),
        items: sub,
        prefixItems: list,
        allOf: list,
        anyOf: list,
        oneOf: list,
        not: sub,
        if: sub,
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never a function
        then: sub,
        else: sub,
        enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        const: fc.jsonValue({ maxDepth: 1 }),
        minimum: fc.integer({ min: -5, max: 5 }),
        format: fc.constantFrom('url', 'uri', 'email', 'date'),
        uniqueItems: fc.boolean(),
        ...(withRefs
          ? {
              $ref: fc.constantFrom(...refs),
              $defs: fc.record({ a: sub, b: sub }, { requiredKeys: [] }),
            }
          : {}),
      },
      { requiredKeys: [] },
    );
    return {
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.boolean(),
        keywords,
        fc.jsonValue({ maxDepth: 1 }),
      ),
    };
  }).schema;
}

/** Argument values: any JSON, with hostile keys as own keys (as JSON.parse makes them). */
const argumentValues = hostileJsonText.map((text) => JSON.parse(text) as unknown);

/** What must hold for any schema and arguments: a result (never a throw), quickly, well formed. */
async function validatesOrExplains(jsonSchema: JsonSchema, args: unknown): Promise<ValidationResult> {
  const started = performance.now();
  const result = await validateInput({ jsonSchema }, args);
  expect(performance.now() - started).toBeLessThan(CEILING_MS);
  if (result.success) expect(result.value).toBe(args);
  else {
    expect(result.issues.length).toBeGreaterThan(0);
    for (const issue of result.issues) {
      expect(typeof issue.path).toBe('string');
      expect(issue.message).toMatch(/\S/);
    }
  }
  expect(prototypePolluted()).toBe(false);
  return result;
}

/**
 * Whether the library alone finds `args` valid against a schema it can apply; `undefined` for a
 * schema it cannot (a bad pattern...), or one with format "url", which is checked differently on
 * purpose (see schema-graph.ts).
 */
function libraryVerdict(schema: unknown, args: unknown): boolean | undefined {
  if (JSON.stringify(schema).includes('"format":"url"')) return undefined;
  try {
    return new Validator(structuredClone(schema) as JsonSchema, '2020-12', false).validate(args).valid;
  } catch {
    return undefined;
  }
}

afterEach(() => {
  expect(prototypePolluted()).toBe(false);
});

describe('validateInput: any schema, any arguments', () => {
  it('answers with a result or issues, never a throw, within the ceiling', async () => {
    await fc.assert(
      fc.asyncProperty(schemas(true), argumentValues, async (schema, args) => {
        await validatesOrExplains(schema as JsonSchema, args);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers for arguments JSON has no word for (undefined, bigint, Map, sparse arrays...) without throwing', async () => {
    const exotic = fc.anything({
      maxDepth: 2,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
    });
    await fc.assert(
      fc.asyncProperty(schemas(true), exotic, async (schema, args) => {
        await validatesOrExplains(schema as JsonSchema, args);
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees with the validator library on schemas without $ref (where the library itself is bounded)', async () => {
    await fc.assert(
      fc.asyncProperty(schemas(false), argumentValues, async (schema, args) => {
        const expected = libraryVerdict(schema, args);
        if (expected === undefined) return;
        const result = await validatesOrExplains(schema as JsonSchema, args);
        if (result.success || !/could not be/.test(result.issues[0]!.message)) expect(result.success).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads a $ref back to the schema itself as adding nothing: {allOf: [S, {$ref: "#"}]} is S', async () => {
    await fc.assert(
      fc.asyncProperty(schemas(false), argumentValues, async (schema, args) => {
        const expected = libraryVerdict(schema, args);
        if (expected === undefined) return;
        const looped = { allOf: [schema, { $ref: '#' }] } as JsonSchema;
        const result = await validatesOrExplains(looped, args);
        if (result.success || !/could not be/.test(result.issues[0]!.message)) expect(result.success).toBe(expected);
        else expect.fail(`refused: ${result.issues[0]!.message}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers for a chain of allOf of two $refs of any length: as the library does, or refuses when over the budget', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.constantFrom('text', 7), async (levels, x) => {
        const result = await validatesOrExplains(allOfRefChain(levels), { x });
        if (levels <= 12) {
          const expected = new Validator(structuredClone(allOfRefChain(levels)), '2020-12', false).validate({
            x,
          }).valid;
          expect(result.success).toBe(expected);
        } else if (levels > 17) {
          expect(!result.success && result.issues[0]!.message).toMatch(/too costly to validate/);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('enters a catalog or is rejected with an InvalidToolError naming the tool', async () => {
    await fc.assert(
      fc.asyncProperty(schemas(true), argumentValues, async (schema, args) => {
        let tool: ReturnType<ToolCatalog['get']>;
        try {
          tool = new ToolCatalog([{ id: 'probe', inputSchema: schema as JsonSchema }]).get('probe');
        } catch (error) {
          expect(InvalidToolError.isInstance(error), String(error)).toBe(true);
          expect((error as Error).message).toMatch(/^Tool "probe": inputSchema /);
          return;
        }
        await validatesOrExplains(tool!.jsonSchema, args);
      }),
      { numRuns: RUNS },
    );
  });

  it('treats a hostile key of the schema or the arguments as data', async () => {
    for (const key of HOSTILE_KEYS) {
      const name = JSON.stringify(key);
      const schema = JSON.parse(
        `{"type":"object","properties":{${name}:{"type":"string"}},"required":[${name}],"additionalProperties":false}`,
      ) as JsonSchema;
      const tool = new ToolCatalog([{ id: 'probe', inputSchema: schema }]).get('probe')!;
      const good = JSON.parse(`{${name}:"text"}`) as unknown;
      expect(await validateInput(tool, good)).toEqual({ success: true, value: good });
      expect(await validateInput(tool, JSON.parse(`{${name}:1}`))).toEqual({
        success: false,
        issues: [{ path: key, message: 'Instance type "number" is invalid. Expected "string".' }],
      });
      expect(await validateInput(tool, {})).toEqual({
        success: false,
        issues: [{ path: key, message: 'Required property is missing.' }],
      });
      expect(prototypePolluted()).toBe(false);
    }
  });
});
