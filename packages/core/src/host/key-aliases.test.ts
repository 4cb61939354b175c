import { describe, expect, it } from 'vitest';
import { withKeyAlias, withKeyAliases } from './key-aliases.js';

describe('withKeyAliases', () => {
  it('adds a key that differs from the id as an alias, unless it is another tool’s id or no valid name', () => {
    const result = withKeyAliases([
      ['createIssue', { id: 'github_create_issue' }],
      ['weather', { id: 'weather' }],
      ['weather_v2', { id: 'forecast' }],
      ['forecast', { id: 'other' }],
      ['with space', { id: 'spaced' }],
    ]);
    expect(result.map((descriptor) => descriptor.aliases)).toEqual([
      ['createIssue'],
      undefined,
      ['weather_v2'],
      undefined,
      undefined,
    ]);
  });

  it('keeps the aliases a descriptor has, and the same object when nothing is added', () => {
    const descriptor = { id: 'a', aliases: ['b'] };
    expect(withKeyAlias(descriptor, 'c', new Set()).aliases).toEqual(['b', 'c']);
    expect(withKeyAlias(descriptor, 'b', new Set())).toBe(descriptor);
    expect(withKeyAlias(descriptor, 'a', new Set())).toBe(descriptor);
  });
});
