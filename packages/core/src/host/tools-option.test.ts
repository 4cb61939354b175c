import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import { isToolRecord, toolsOption } from './tools-option.js';

const rule = {
  option: 'catalog',
  expected: 'a record of X tools, an iterable of tool descriptors or a ToolCatalog',
  convert: (tools: Record<string, unknown>): ToolDescriptor[] => Object.keys(tools).map((id) => ({ id })),
  absent: 'Give the tools as { catalog: tools }.',
};

describe('toolsOption', () => {
  it('keeps a catalog and descriptors as they are, and converts a record of framework tools', () => {
    const catalog = new ToolCatalog([{ id: 'a' }]);
    expect(toolsOption(catalog, rule)).toBe(catalog);
    const descriptors = [{ id: 'b' }];
    expect(toolsOption(descriptors, rule)).toBe(descriptors);
    const set = new Set([{ id: 'c' }]);
    expect(toolsOption(set, rule)).toBe(set);
    expect(toolsOption({ d: {}, e: {} }, rule)).toEqual([{ id: 'd' }, { id: 'e' }]);
  });

  it('names the option for anything else, with the hint when it is absent', () => {
    const error = thrown(() => toolsOption('tools', rule));
    expect(InvalidOptionError.isInstance(error) && error.option).toBe('catalog');
    expect((error as Error).message).toBe(`catalog must be ${rule.expected}; got a string.`);
    expect(() => toolsOption(undefined, rule)).toThrow(`got undefined. ${rule.absent}`);
    expect(() => toolsOption(undefined, { ...rule, absent: undefined })).toThrow(/got undefined\.$/);
  });
});

describe('isToolRecord', () => {
  it('is a record that is not iterable', () => {
    expect(isToolRecord({ a: 1 })).toBe(true);
    expect(isToolRecord([])).toBe(false);
    expect(isToolRecord(new Map())).toBe(false);
    expect(isToolRecord(null)).toBe(false);
  });
});
