import { describe, expect, it } from 'vitest';
import { importError } from '../test-utils/thrown.js';
import { detectCatalogFormat, importCatalog } from './import-catalog.js';

const schema = { type: 'object', properties: { q: { type: 'string' } } };
const jsonl = [
  JSON.stringify({ id: 'a b', name: 'a', description: 'first', parameters: schema }),
  JSON.stringify({ id: 'c', name: 'c', description: 'second', parameters: null }),
].join('\n');
const mcp = JSON.stringify({ tools: [{ name: 'search', description: 'Find', inputSchema: schema }] }, null, 2);
const mcpRpc = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'search', inputSchema: schema }] } });
const openaiChat = JSON.stringify([{ type: 'function', function: { name: 'search', parameters: schema } }]);
const openaiResponses = JSON.stringify({
  model: 'x',
  tools: [{ type: 'function', name: 'search', parameters: schema }],
});
const anthropic = JSON.stringify([{ name: 'search', input_schema: schema }], null, 2);

describe('detectCatalogFormat', () => {
  it('tells the formats apart by content', () => {
    expect(detectCatalogFormat(jsonl)).toBe('jsonl');
    expect(detectCatalogFormat(`${jsonl.split('\n')[0]}\n`)).toBe('jsonl');
    expect(detectCatalogFormat(mcp)).toBe('mcp');
    expect(detectCatalogFormat(mcpRpc)).toBe('mcp');
    expect(detectCatalogFormat(JSON.stringify([{ name: 'x', inputSchema: schema }]))).toBe('mcp');
    expect(detectCatalogFormat(openaiChat)).toBe('openai');
    expect(detectCatalogFormat(openaiResponses)).toBe('openai');
    expect(detectCatalogFormat(anthropic)).toBe('anthropic');
    expect(detectCatalogFormat(JSON.stringify({ tools: [{ name: 'x', input_schema: schema }] }))).toBe('anthropic');
  });

  it('says why a file is not a catalog', () => {
    expect(importError(() => detectCatalogFormat('  \n', { file: 'x.json' })).message).toMatch(
      /^x\.json: is empty: expected JSON Lines/,
    );
    expect(importError(() => detectCatalogFormat('name: search', { file: 'x.yaml' })).message).toMatch(
      /^x\.yaml: is not valid JSON or JSON Lines \(.+\); expected JSON Lines/,
    );
    expect(importError(() => detectCatalogFormat('{"servers": []}', { file: 'x.json' })).message).toMatch(
      /^x\.json: is a JSON object without a "tools" array; expected/,
    );
    expect(importError(() => detectCatalogFormat('42')).message).toMatch(/^holds a number; expected/);
    expect(
      importError(() =>
        detectCatalogFormat(
          JSON.stringify([
            { name: 'a', input_schema: {} },
            { type: 'function', name: 'b' },
          ]),
        ),
      ).message,
    ).toBe('mixes tool formats: [0] is an Anthropic tool, [1] is an OpenAI tool');
  });
});

describe('importCatalog', () => {
  it('imports every format to the same descriptors', () => {
    expect(importCatalog(jsonl, { source: 'ds' }).map((tool) => [tool.id, tool.source])).toEqual([
      ['a b', 'ds'],
      ['c', 'ds'],
    ]);
    for (const text of [mcp, mcpRpc, openaiChat, openaiResponses, anthropic]) {
      const [tool] = importCatalog(text);
      expect(tool).toMatchObject({ id: 'search', name: 'search', inputSchema: schema });
    }
  });

  it('reports malformed lines and fields with the file', () => {
    const broken = `${jsonl}\n{"id": "d", "parameters": 5}`;
    expect(importError(() => importCatalog(broken, { file: 'tools.jsonl' })).message).toBe(
      'tools.jsonl, line 3, field "parameters": must be an object, got a number',
    );
    const badJsonLine = `${jsonl}\n{"id": `;
    expect(importError(() => importCatalog(badJsonLine, { file: 'tools.jsonl' })).message).toMatch(
      /^tools\.jsonl, line 3: not valid JSON/,
    );
    const badMcp = JSON.stringify({ tools: [{ name: 'ok' }, { name: 'x', inputSchema: { type: 'string' } }] });
    expect(importError(() => importCatalog(badMcp, { file: 'mcp.json' })).message).toBe(
      'mcp.json, field "tools[1].inputSchema": must be a JSON Schema of type "object", got type "string"',
    );
  });

  it('reads a forced format, and refuses JSON Lines as a document format', () => {
    expect(importCatalog(JSON.stringify([{ name: 'x' }]), { format: 'mcp' }).map((tool) => tool.id)).toEqual(['x']);
    expect(importError(() => importCatalog(JSON.stringify([{ name: 'x' }]), { format: 'anthropic' })).message).toBe(
      'field "[0].input_schema": is required: a JSON Schema of type "object" for the tool input',
    );
    expect(importCatalog(jsonl, { format: 'jsonl' })).toHaveLength(2);
    expect(importError(() => importCatalog(jsonl, { format: 'mcp', file: 't.jsonl' })).message).toBe(
      't.jsonl: is JSON Lines, not a JSON document: it cannot be read as mcp',
    );
  });
});
