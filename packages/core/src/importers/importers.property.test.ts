import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { ImportError, ToolscoutError } from '../errors.js';
import { anyKey, hostileJsonText, objectText, prototypePolluted } from '../test-utils/hostile-json.js';
import type { ToolDescriptor } from '../types.js';
import { fromAnthropicTools } from './anthropic.js';
import { importCatalog } from './import-catalog.js';
import { parseToolsJsonl } from './jsonl.js';
import { fromMcpTools } from './mcp.js';
import { fromOpenAITools } from './openai.js';

const RUNS = 150;

/** A schema-like value: often an object schema, sometimes wrong in one field, sometimes anything. */
const schemaText = fc.oneof(
  fc.constant('{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}'),
  fc.constant('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
  fc.constant('{"$ref":"#"}'),
  fc
    .tuple(fc.constantFrom('"object"', '"string"', '7', 'null'), hostileJsonText, hostileJsonText)
    .map(([type, properties, required]) => `{"type":${type},"properties":${properties},"required":${required}}`),
  hostileJsonText,
);

/** Text of one tool definition: the fields every format uses, well or badly typed, and hostile extras. */
const toolText = fc
  .tuple(
    fc.oneof(
      fc.string({ maxLength: 8 }).map((name) => JSON.stringify(name)),
      hostileJsonText,
    ),
    fc.subarray(['id', 'name', 'description', 'parameters', 'inputSchema', 'input_schema', 'function', 'type']),
    schemaText,
    fc.array(fc.tuple(anyKey, hostileJsonText), { maxLength: 3 }),
  )
  .map(([name, fields, schema, extras]) => {
    const entries: [string, string][] = fields.map((field) => {
      if (field === 'id' || field === 'name') return [field, name];
      if (field === 'description') return [field, '"Looks things up"'];
      if (field === 'type') return [field, '"function"'];
      if (field === 'function')
        return [
          field,
          objectText([
            ['name', name],
            ['parameters', schema],
          ]),
        ];
      return [field, schema];
    });
    return objectText([...entries, ...extras]);
  });

/** Text of a list of tools, bare or as `{ "tools": [...] }`. */
const toolsDocument = fc
  .tuple(fc.array(toolText, { maxLength: 4 }), fc.boolean())
  .map(([tools, wrapped]) => (wrapped ? `{"tools":[${tools.join(',')}]}` : `[${tools.join(',')}]`));

/** What must hold for any input: descriptors, or an ImportError that names where; nothing else. */
function importsOrExplains(read: () => ToolDescriptor[]): ToolDescriptor[] | undefined {
  try {
    return read();
  } catch (error) {
    expect(ImportError.isInstance(error), String(error)).toBe(true);
    const { location, message } = error as ImportError;
    expect(message.length).toBeGreaterThan(0);
    expect(message).not.toMatch(/\bundefined\b(?! *$)|\[object Object\]/);
    if (location.field !== undefined) expect(message).toContain(`field "${location.field}"`);
    if (location.line !== undefined) expect(message).toContain(`line ${location.line}`);
    return undefined;
  }
}

/** Descriptors from an importer enter a catalog, or fail with a ToolscoutError naming the tool. */
function catalogAcceptsOrExplains(tools: readonly ToolDescriptor[]): void {
  try {
    new ToolCatalog(tools);
  } catch (error) {
    expect(ToolscoutError.isInstance(error), String(error)).toBe(true);
    expect((error as ToolscoutError).code).toMatch(/^(invalid-tool|tool-name-conflict|duplicate-tool)$/);
  }
}

/** Keys of the raw definitions that are data: a `__proto__` key must stay a key of `metadata`. */
function metadataIsData(tools: readonly ToolDescriptor[]): void {
  for (const tool of tools) {
    if (tool.metadata === undefined) continue;
    expect(Object.getPrototypeOf(tool.metadata)).toBe(Object.prototype);
    expect((tool.metadata as Record<string, unknown>).polluted).toBeUndefined();
  }
}

afterEach(() => {
  expect(prototypePolluted()).toBe(false);
});

describe('importers: any input gives tools or an ImportError that says where', () => {
  it('reads MCP, OpenAI and Anthropic tool lists', () => {
    fc.assert(
      fc.property(toolsDocument, fc.constantFrom(fromMcpTools, fromOpenAITools, fromAnthropicTools), (text, read) => {
        const tools = importsOrExplains(() => read(JSON.parse(text), { file: 'tools.json' }));
        if (tools === undefined) return;
        metadataIsData(tools);
        catalogAcceptsOrExplains(tools);
        expect(prototypePolluted()).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads JSON Lines, one tool a line, naming the line of a mistake', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(toolText, fc.string({ maxLength: 10 })), { maxLength: 5 }), (lines) => {
        const tools = importsOrExplains(() => parseToolsJsonl(lines.join('\n'), { file: 'tools.jsonl' }));
        if (tools === undefined) return;
        metadataIsData(tools);
        catalogAcceptsOrExplains(tools);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps every field a JSON Lines tool does not map as metadata, hostile keys included', () => {
    const mapped = new Set(['id', 'name', 'description', 'parameters', 'tags', 'source']);
    fc.assert(
      fc.property(fc.array(fc.tuple(anyKey, hostileJsonText), { maxLength: 4 }), (entries) => {
        const extras = entries.filter(([key]) => !mapped.has(key));
        const line = objectText([['id', '"probe"'], ...extras]);
        const [tool] = parseToolsJsonl(line);
        const expected = [...new Set(extras.map(([key]) => key).filter((key) => !mapped.has(key)))];
        expect(Object.keys(tool!.metadata ?? {}).sort()).toEqual(expected.sort());
        metadataIsData([tool!]);
      }),
      { numRuns: RUNS },
    );
  });

  it('detects the format of any text, or says what it expected', () => {
    fc.assert(
      fc.property(fc.oneof(toolsDocument, hostileJsonText, fc.string({ maxLength: 20 })), (text) => {
        const tools = importsOrExplains(() => importCatalog(text, { file: 'catalog' }));
        if (tools !== undefined) catalogAcceptsOrExplains(tools);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps a "__proto__" field of a definition as metadata, never as a prototype', () => {
    const text = '{"id":"a","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    const [tool] = parseToolsJsonl(text);
    expect(Object.keys(tool!.metadata!)).toEqual(['__proto__', 'constructor']);
    expect((tool!.metadata as Record<string, unknown>).polluted).toBeUndefined();
    const [mcp] = fromMcpTools(JSON.parse('{"tools":[{"name":"a","__proto__":{"polluted":true}}]}'));
    expect(Object.keys(mcp!.metadata!)).toEqual(['__proto__']);
    const entry = new ToolCatalog([tool!]).get('a')!;
    expect(Object.keys(entry.metadata!)).toEqual(['__proto__', 'constructor']);
    expect((entry.metadata as Record<string, unknown>).polluted).toBeUndefined();
  });
});
