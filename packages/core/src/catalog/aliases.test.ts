import { describe, expect, it } from 'vitest';
import { DuplicateToolError, InvalidToolError } from '../errors.js';
import { ToolCatalog } from './catalog.js';

describe('tool aliases in a catalog', () => {
  it('keeps a tool’s aliases and gives the tool as offered under each', () => {
    const catalog = new ToolCatalog([{ id: 'github_create_issue', aliases: ['createIssue', 'github_create_issue'] }]);
    const tool = catalog.get('github_create_issue')!;
    // Its own name is no alias.
    expect(tool.aliases).toEqual(['createIssue']);
    const view = catalog.getByAlias('createIssue')!;
    expect(view).toMatchObject({ id: 'github_create_issue', toolName: 'createIssue', aliasOf: 'github_create_issue' });
    expect(Object.isFrozen(view)).toBe(true);
    expect(catalog.getByAlias('createIssue')).toBe(view);
    expect(catalog.getByAlias('github_create_issue')).toBeUndefined();
    expect(catalog.getByToolName('createIssue')).toBeUndefined();
  });

  it('rejects an alias that is not a tool name, naming the item', () => {
    for (const aliases of [['create issue'], [''], [7], 'createIssue', ['x'.repeat(65)]]) {
      const add = () => new ToolCatalog([{ id: 'a', aliases: aliases as never }]);
      expect(add, JSON.stringify(aliases)).toThrow(InvalidToolError);
    }
    try {
      new ToolCatalog([{ id: 'a', aliases: ['ok', 'not ok'] }]);
    } catch (error) {
      expect(InvalidToolError.isInstance(error) && error.field).toBe('aliases[1]');
    }
  });

  it('rejects a name that would mean two tools, naming both', () => {
    const cases: [string, () => unknown, RegExp][] = [
      [
        'alias = other id',
        () => new ToolCatalog([{ id: 'a' }, { id: 'b', aliases: ['a'] }]),
        /Alias "a" of tool "b" is already the id of tool "a"/,
      ],
      [
        'alias = other alias',
        () =>
          new ToolCatalog([
            { id: 'a', aliases: ['x'] },
            { id: 'b', aliases: ['x'] },
          ]),
        /Alias "x" of tool "b" is already the alias of tool "a"/,
      ],
      [
        'id = other alias',
        () => new ToolCatalog([{ id: 'a', aliases: ['b'] }, { id: 'b' }]),
        /Tool "b" has the id "b", already an alias of tool "a"/,
      ],
      [
        'alias = other tool name',
        () =>
          new ToolCatalog([
            { id: 'a b' },
            { id: 'c', aliases: [new ToolCatalog([{ id: 'a b' }]).get('a b')!.toolName] },
          ]),
        /is already the tool name of tool "a b"/,
      ],
    ];
    for (const [label, build, message] of cases) {
      expect(build, label).toThrow(DuplicateToolError);
      expect(build, label).toThrow(message);
    }
  });

  it('keeps aliases right through add, replace, remove and a failed batch', () => {
    const catalog = new ToolCatalog([{ id: 'a', aliases: ['x'] }]);
    expect(() =>
      catalog.addAll([
        { id: 'b', aliases: ['y'] },
        { id: 'c', aliases: ['x'] },
      ]),
    ).toThrow(DuplicateToolError);
    // The failed batch left nothing behind: y is free.
    catalog.add({ id: 'd', aliases: ['y'] });
    catalog.replace({ id: 'a', aliases: ['z'] });
    expect(catalog.getByAlias('x')).toBeUndefined();
    expect(catalog.getByAlias('z')?.id).toBe('a');
    expect(() => catalog.replace({ id: 'a', aliases: ['y'] })).toThrow(DuplicateToolError);
    expect(catalog.getByAlias('z')?.id).toBe('a');
    catalog.upsert({ id: 'a', description: 'new', aliases: ['z'] });
    expect(catalog.getByAlias('z')?.description).toBe('new');
    catalog.remove('a');
    expect(catalog.getByAlias('z')).toBeUndefined();
    catalog.add({ id: 'e', aliases: ['z'] });
    expect(catalog.getByAlias('z')?.id).toBe('e');
  });
});
