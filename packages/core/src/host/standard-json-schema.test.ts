import { describe, expect, it } from 'vitest';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { standardJsonSchema } from './standard-json-schema.js';

const CITY = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('standardJsonSchema', () => {
  it('describes itself as the JSON Schema and, without a validation, accepts any value', async () => {
    const schema = standardJsonSchema(CITY);
    expect(schema['~standard'].jsonSchema.input()).toBe(CITY);
    expect(schema['~standard'].vendor).toBe('toolscout');
    expect(await schema['~standard'].validate(42)).toEqual({ value: 42 });
  });

  it("validates with the framework's function: the session reports its issues to the model", async () => {
    const schema = standardJsonSchema(CITY, (value) =>
      typeof value === 'object' && value !== null && 'city' in value
        ? { value }
        : { issues: [{ message: 'city is required', path: ['city'] }] },
    );
    const session = new ToolSearchSession({
      catalog: [{ id: 'weather', description: 'Weather.', inputSchema: schema, pinned: true, execute: () => 'sunny' }],
    });
    const step = await session.prepareStep({ threadId: 't' });
    expect(step.tools.find((tool) => tool.name === 'weather')?.inputSchema).toMatchObject({ required: ['city'] });
    expect(await step.execute('weather', { city: 'Oslo' })).toMatchObject({ ok: true, output: 'sunny' });
    const refused = await step.execute('weather', {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(JSON.stringify(refused)).toContain('city is required');
    session.dispose();
  });
});
