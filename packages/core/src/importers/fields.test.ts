import { describe, expect, it } from 'vitest';
import { ImportError } from '../errors.js';
import {
  assertUniqueIds,
  compact,
  describeValue,
  fieldError,
  fieldPath,
  optionalObjectSchema,
  optionalStringArray,
  otherFields,
  requiredString,
} from './fields.js';

describe('importer field helpers', () => {
  it('builds field paths for documents and JSON Lines records', () => {
    expect(fieldPath({ prefix: 'tools[3]' }, 'inputSchema')).toBe('tools[3].inputSchema');
    expect(fieldPath({ prefix: 'tools[3]' }, '[0]')).toBe('tools[3][0]');
    expect(fieldPath({ prefix: '' }, 'parameters')).toBe('parameters');
  });

  it('makes ImportErrors that say file, line and field', () => {
    const error = fieldError({ file: 'a.jsonl', line: 4, prefix: '' }, 'tags[1]', 'must be a string');
    expect(ImportError.isInstance(error)).toBe(true);
    expect(error.message).toBe('a.jsonl, line 4, field "tags[1]": must be a string');
    expect(error.location).toEqual({ file: 'a.jsonl', line: 4, field: 'tags[1]' });
    expect(fieldError({ prefix: '' }, undefined, 'empty').message).toBe('empty');
  });

  it('reads and checks fields', () => {
    const at = { prefix: 'tools[0]' };
    expect(requiredString({ name: 'x' }, 'name', at)).toBe('x');
    expect(() => requiredString({ name: '' }, 'name', at)).toThrow('field "tools[0].name": must be a non-empty string');
    expect(optionalStringArray({ tags: null }, 'tags', at)).toBeUndefined();
    expect(optionalObjectSchema({ s: { properties: {} } }, 's', at)).toEqual({ properties: {} });
    expect(() => optionalObjectSchema({ s: { type: ['object', 'null'] } }, 's', at)).toThrow(
      'got type ["object","null"]',
    );
  });

  it('collects unmapped fields and drops undefined ones', () => {
    expect(otherFields({ id: 1, rank: 2, gone: undefined }, ['id'])).toEqual({ rank: 2 });
    expect(otherFields({ id: 1 }, ['id'])).toBeUndefined();
    expect(compact({ a: 1, b: undefined })).toEqual({ a: 1 });
    expect(Object.keys(compact({ a: 1, b: undefined }))).toEqual(['a']);
  });

  it('names both places of a repeated id', () => {
    expect(() =>
      assertUniqueIds(
        [{ id: 'x' }, { id: 'x' }],
        [
          { file: 'f', line: 2, prefix: '' },
          { file: 'f', line: 9, prefix: '' },
        ],
        'id',
      ),
    ).toThrow('f, line 9, field "id": duplicate tool id "x" (first at line 2)');
  });

  it('describes values for messages', () => {
    expect([null, undefined, [], {}, 'a', 1, true].map(describeValue)).toEqual([
      'null',
      'undefined',
      'an array',
      'an object',
      'a string',
      'a number',
      'a boolean',
    ]);
  });
});
