import { describe, expect, it } from 'vitest';
import { variedCatalog } from './core-perf.js';

describe('variedCatalog', () => {
  const tools = [
    { id: 'a__one', name: 'one', description: 'First tool', source: 'a' },
    { id: 'b__two', name: 'two', description: 'Second tool' },
  ];

  it('keeps the real tools, then adds distinct variants up to the count', () => {
    const catalog = variedCatalog(tools, 7);
    expect(catalog).toHaveLength(7);
    expect(catalog.slice(0, 2)).toEqual(tools);
    expect(new Set(catalog.map((tool) => tool.id)).size).toBe(7);
    const variant = catalog[2]!;
    expect(variant.id).toBe('a__one#1');
    expect(variant.name).not.toBe('one');
    expect(variant.name).toContain('one');
    expect(variant.description).toContain('First tool');
    expect(variant.source).toContain('a ');
    expect(catalog[3]!.source).toBeUndefined();
  });

  it('is deterministic and refuses an empty list', () => {
    expect(variedCatalog(tools, 30)).toEqual(variedCatalog(tools, 30));
    expect(() => variedCatalog([], 3)).toThrow();
  });
});
