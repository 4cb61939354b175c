import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import { validateInput } from '../schema/schema.js';
import { thrown } from '../test-utils/thrown.js';
import { type ValidatorResult, validationIssues, validatorSchema } from './validator-schema.js';

const json = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

function entry(schema: ReturnType<typeof validatorSchema>) {
  return new ToolCatalog([{ id: 'tool', inputSchema: schema }]).get('tool')!;
}

describe('validatorSchema', () => {
  it('is the JSON Schema itself when the framework schema does not validate', async () => {
    const schema = validatorSchema('tool', () => ({ jsonSchema: json }));
    expect(schema).toBe(json);
    expect((await validateInput(entry(schema), { n: 'x' })).success).toBe(false);
  });

  it("validates with the framework's own function, its output included, and shows its JSON Schema", async () => {
    const validate = async (value: unknown): Promise<ValidatorResult> =>
      (value as { n?: unknown }).n === 42
        ? { success: true, value: { n: 42, checked: true } }
        : { success: false, error: new Error('n must be 42') };
    const tool = entry(validatorSchema('tool', () => ({ jsonSchema: json, validate }), 'test'));
    expect(tool.jsonSchema).toEqual(json);
    expect(await validateInput(tool, { n: 42 })).toEqual({ success: true, value: { n: 42, checked: true } });
    expect(await validateInput(tool, { n: 1 })).toEqual({
      success: false,
      issues: [{ path: '', message: 'n must be 42' }],
    });
  });

  it('rejects a schema that cannot be read up front, naming the tool', () => {
    const unreadable = thrown(() =>
      validatorSchema('late', () => {
        throw new Error('boom');
      }),
    );
    expect(InvalidToolError.isInstance(unreadable) && unreadable.field).toBe('inputSchema');
    expect((unreadable as Error).message).toBe('Tool "late": its inputSchema cannot be read: boom');
    expect(() => validatorSchema('p', () => ({ jsonSchema: Promise.resolve(json) }))).toThrow(
      /resolves asynchronously/,
    );
    expect(() => validatorSchema('s', () => ({ jsonSchema: 'object' }))).toThrow(
      'Tool "s": its inputSchema is not a JSON Schema object.',
    );
  });
});

describe('validationIssues', () => {
  it("reads a library's issues from the error or its cause, with their paths", () => {
    const issues = [{ message: 'Expected string', path: ['city'] }, 'odd'];
    expect(validationIssues({ issues })).toEqual([
      { message: 'Expected string', path: ['city'] },
      { message: 'odd', path: undefined },
    ]);
    expect(validationIssues(new Error('wrapped', { cause: { issues: [{ message: 'm' }] } }))).toEqual([
      { message: 'm', path: undefined },
    ]);
  });

  it('falls back to the reason of the error (or of its cause)', () => {
    expect(validationIssues(new Error('bad input'))).toEqual([{ message: 'bad input' }]);
    expect(validationIssues(new Error('outer', { cause: new Error('inner') }))).toEqual([{ message: 'inner' }]);
    expect(validationIssues('plain')).toEqual([{ message: 'plain' }]);
  });
});
