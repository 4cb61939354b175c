import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { buildKeywordIndex } from './keyword-build.js';
import { INDEX_FIELDS, ToolIndexFeeder } from './tool-document.js';
import { toolContentHash } from './tool-hash.js';

describe('toolContentHash', () => {
  it("hashes a tool's text every time (a load pays it, as a fresh process does), the same text alike", () => {
    const catalog = new ToolCatalog([{ id: 'weather', description: 'Forecast for a city' }]);
    const tool = catalog.get('weather')!;
    let reads = 0;
    // The same frozen tool, counting how often its description is read.
    const counted = Object.freeze(
      Object.defineProperty({ ...tool }, 'description', {
        get: () => {
          reads += 1;
          return tool.description;
        },
      }),
    );
    const hash = toolContentHash(counted);
    expect(toolContentHash(counted)).toBe(hash);
    expect(reads).toBe(2);
    expect(toolContentHash(tool)).toBe(hash);
    const other = new ToolCatalog([{ id: 'weather', description: 'Forecast for a town' }]).get('weather')!;
    expect(toolContentHash(other)).not.toBe(hash);
    // The id is hashed too (a load in the saved order compares no saved ids), and so are tags and source.
    expect(toolContentHash({ ...tool, id: 'weather2' })).not.toBe(hash);
    expect(toolContentHash({ ...tool, tags: ['sky'] })).not.toBe(hash);
    expect(toolContentHash({ ...tool, source: 'sky' })).not.toBe(hash);
    expect(toolContentHash({ ...tool, name: 'weather!' })).not.toBe(hash);
  });

  it('hashes the parameter names, titles and descriptions, nested and in variants', () => {
    const hashOf = (inputSchema: Record<string, unknown>) =>
      toolContentHash(new ToolCatalog([{ id: 'a', inputSchema }]).get('a')!);
    const schema = (leaf = 'the day', variant = 'zip', item = 'tag') => ({
      type: 'object',
      properties: {
        city: { type: 'string', title: 'City', description: 'where' },
        when: { type: 'object', properties: { day: { type: 'string', description: leaf } } },
        list: { type: 'array', items: { type: 'object', properties: { [item]: { type: 'string' } } } },
      },
      anyOf: [{ properties: { [variant]: { type: 'string' } } }],
    });
    const base = hashOf(schema());
    expect(hashOf(schema())).toBe(base);
    expect(hashOf(schema('the date'))).not.toBe(base);
    expect(hashOf(schema(undefined, 'postcode'))).not.toBe(base);
    expect(hashOf(schema(undefined, undefined, 'label'))).not.toBe(base);
  });

  it('hashes a tool that is not frozen every time (its text may change)', () => {
    const tool = { ...new ToolCatalog([{ id: 'a', description: 'one' }]).get('a')! };
    const before = toolContentHash(tool);
    tool.description = 'two';
    expect(toolContentHash(tool)).not.toBe(before);
  });
});

describe('ToolIndexFeeder', () => {
  it("keeps every tool's phrase lines in one buffer, -1 between lines, in the build's term numbers", () => {
    const catalog = new ToolCatalog([
      { id: 'a', name: 'get weather', description: 'rain forecast' },
      { id: 'b', name: 'send mail', description: 'fast mail\nrich text' },
    ]);
    let feeder: ToolIndexFeeder | undefined;
    const index = buildKeywordIndex(INDEX_FIELDS.length, undefined, (builder) => {
      feeder = new ToolIndexFeeder(builder, 2);
      for (const tool of catalog) feeder.add(tool);
    });
    const { buffer, starts } = feeder!.phraseBuffer();
    expect(Array.from(starts)).toEqual([0, 5, 13]);
    const [a, b] = [buffer.subarray(0, 5), buffer.subarray(5, 13)];
    // (a built index's entry ids are its terms' positions in vocabulary order)
    const terms = index.toJSON().terms.map(([term]) => term);
    const words = (lines: Int32Array) => Array.from(lines, (id) => (id < 0 ? '|' : terms[id]));
    expect(words(a!)).toEqual(['get', 'weather', '|', 'rain', 'forecast']);
    expect(words(b!)).toEqual(['send', 'mail', '|', 'fast', 'mail', '|', 'rich', 'text']);
  });
});
