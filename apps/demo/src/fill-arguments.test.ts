import { describe, expect, it } from 'vitest';
import { fillArguments } from './fill-arguments.js';

const filesDir = '/tmp/demo/files';

describe('fillArguments', () => {
  it('takes numbers from the request in the order of the fields (everything get-sum)', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    };
    expect(fillArguments(schema, { request: 'What is the sum of 2 and 3?', filesDir })).toEqual({ a: 2, b: 3 });
  });

  it('takes a quoted phrase for a string, and the request for a text field without one', () => {
    const echo = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
    expect(fillArguments(echo, { request: 'Echo back "hello there"', filesDir })).toEqual({ message: 'hello there' });
    expect(fillArguments(echo, { request: 'say hi', filesDir })).toEqual({ message: 'say hi' });
  });

  it('fills nested arrays of objects with quoted phrases in field order (memory create_entities)', () => {
    const schema = {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              entityType: { type: 'string' },
              observations: { type: 'array', items: { type: 'string' } },
            },
            required: ['name', 'entityType', 'observations'],
            additionalProperties: false,
          },
        },
      },
      required: ['entities'],
    };
    const request = 'Save "Alice" as a new "person" entity in memory, noting she "works at Acme"';
    expect(fillArguments(schema, { request, filesDir })).toEqual({
      entities: [{ name: 'Alice', entityType: 'person', observations: ['works at Acme'] }],
    });
  });

  it('points paths into the files folder, at a file the request names', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    };
    expect(fillArguments(schema, { request: 'Write "hi" to notes.txt', filesDir })).toEqual({
      path: '/tmp/demo/files/notes.txt',
      content: 'hi',
    });
    const list = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    expect(fillArguments(list, { request: 'List the files in 2 folders', filesDir })).toEqual({ path: filesDir });
  });

  it('uses enums, consts and defaults (converted to the field type), and leaves optional fields out', () => {
    const schema = {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        kind: { const: 'forecast' },
        lat: { type: 'number', default: '51.5' },
        verbose: { type: 'boolean', default: 'true' },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        note: { type: 'string' },
      },
      required: ['unit', 'kind', 'lat', 'verbose', 'days'],
    };
    expect(fillArguments(schema, { request: 'weather for the next days', filesDir })).toEqual({
      unit: 'celsius',
      kind: 'forecast',
      lat: 51.5,
      verbose: true,
      days: 1,
    });
  });

  it('prefers the request to a default, and keeps numbers within the bounds', () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string', default: 'Paris' }, days: { type: 'integer', minimum: 1, maximum: 14 } },
      required: ['city', 'days'],
    };
    expect(fillArguments(schema, { request: 'forecast for "Oslo" for 30 days', filesDir })).toEqual({
      city: 'Oslo',
      days: 14,
    });
    expect(fillArguments(schema, { request: 'forecast for 2.6 days', filesDir })).toEqual({ city: 'Paris', days: 3 });
  });

  it('reads nullable anyOf, type arrays, and required fields without a property schema', () => {
    const schema = {
      type: 'object',
      properties: {
        count: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 5 }] },
        label: { type: ['null', 'string'] },
      },
      required: ['count', 'label', 'extra'],
    };
    expect(fillArguments(schema, { request: 'no numbers here', filesDir })).toEqual({
      count: 5,
      label: 'example',
      extra: 'example',
    });
  });

  it('gives an empty object for a schema without required fields', () => {
    expect(
      fillArguments({ type: 'object', properties: { q: { type: 'string' } } }, { request: 'x', filesDir }),
    ).toEqual({});
    expect(fillArguments({ type: 'object' }, { request: 'x', filesDir })).toEqual({});
  });
});
