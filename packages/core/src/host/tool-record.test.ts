import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { thrown } from '../test-utils/thrown.js';
import { createToolRecord } from './tool-record.js';

const convert = {
  meta: (meta: { name: string }) => `meta:${meta.name}`,
  tool: (tool: { id: string }) => `tool:${tool.id}`,
};

describe('createToolRecord', () => {
  it('has every tool the session may offer, by model-facing name, then the passed-through ones', () => {
    const session = new ToolSearchSession({
      catalog: [{ id: 'get_weather' }, { id: 'ns.send' }],
      tools: [{ id: 'now' }],
    });
    const record = createToolRecord(session, { ...convert, passThrough: new Map([['web_search', 'provider']]) });
    const sendName = session.catalog.get('ns.send')!.toolName;
    expect(record.get()).toEqual({
      search_tools: 'meta:search_tools',
      load_tool: 'meta:load_tool',
      now: 'tool:now',
      get_weather: 'tool:get_weather',
      [sendName]: 'tool:ns.send',
      web_search: 'provider',
    });
    expect(record.get()).toBe(record.get());
  });

  it("has a catalog tool under each of its aliases too, as the catalog's view of it", () => {
    const session = new ToolSearchSession({ catalog: [{ id: 'createIssue', aliases: ['open_issue'] }] });
    const names: string[] = [];
    const record = createToolRecord(session, { ...convert, tool: (tool) => `${names.push(tool.toolName)}` });
    expect(Object.keys(record.get())).toEqual(['search_tools', 'load_tool', 'createIssue', 'open_issue']);
    expect(names).toEqual(['createIssue', 'open_issue']);
  });

  it('is made again after the catalog changes, and no more once disposed', () => {
    const catalog = new ToolCatalog([{ id: 'a' }]);
    const record = createToolRecord(new ToolSearchSession({ catalog }), convert);
    const before = record.get();
    catalog.add({ id: 'b' });
    expect(record.get()).not.toBe(before);
    expect(record.get().b).toBe('tool:b');
    record.dispose();
    const after = record.get();
    catalog.add({ id: 'c' });
    expect(record.get()).toBe(after);
  });

  it('rejects a passed-through tool with the name of another tool when it is created', () => {
    const session = new ToolSearchSession({ catalog: [{ id: 'a' }] });
    const error = thrown(() => createToolRecord(session, { ...convert, passThrough: new Map([['a', 'x']]) }));
    expect(InvalidOptionError.isInstance(error) && error.option).toBe('tools');
    expect((error as Error).message).toBe('The tool "a" has the name of another tool; rename one.');
  });
});
