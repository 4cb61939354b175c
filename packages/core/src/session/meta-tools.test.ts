import { describe, expect, it } from 'vitest';
import { resolveMetaTools } from './meta-tools.js';

describe('resolveMetaTools', () => {
  it('offers each mode its meta-tools, with Mastra-compatible default names', () => {
    expect(resolveMetaTools('search-load').map((tool) => tool.name)).toEqual(['search_tools', 'load_tool']);
    expect(resolveMetaTools('auto-load').map((tool) => tool.name)).toEqual(['search_tools']);
    expect(resolveMetaTools('catalog').map((tool) => tool.name)).toEqual(['discover_tools']);
    expect(resolveMetaTools('proxy').map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  });

  it('takes configured names and descriptions, and cross-references renamed tools', () => {
    const tools = resolveMetaTools('search-load', {
      search: { name: 'find' },
      load: { name: 'enable', description: 'Enable.' },
    });
    expect(tools.map((tool) => tool.name)).toEqual(['find', 'enable']);
    expect(tools[0]!.description).toContain('enable');
    expect(tools[1]!.description).toBe('Enable.');
  });

  it('rejects names providers would refuse, and two meta-tools with one name', () => {
    expect(() => resolveMetaTools('search-load', { search: { name: 'search tools' } })).toThrow(
      /metaTools\.search\.name/,
    );
    expect(() => resolveMetaTools('search-load', { search: { name: 'x' }, load: { name: 'x' } })).toThrow(
      /both named "x"/,
    );
  });
});
