import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { importError } from '../test-utils/thrown.js';
import { fromMcpTools } from './mcp.js';

const listResult = {
  tools: [
    {
      name: 'get_weather',
      title: 'Weather Information Provider',
      description: 'Get current weather information for a location',
      inputSchema: {
        type: 'object',
        properties: { location: { type: 'string', description: 'City name or zip code' } },
        required: ['location'],
      },
      outputSchema: {
        type: 'object',
        properties: { temperature: { type: 'number' } },
        required: ['temperature'],
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
      _meta: { 'example.com/version': 2 },
      icons: [{ src: 'https://example.com/icon.png' }],
    },
    { name: 'ping', inputSchema: { type: 'object' } },
  ],
  nextCursor: 'abc',
};

describe('fromMcpTools', () => {
  it('maps a tools/list result, keeping title, annotations, outputSchema and _meta', () => {
    const [weather, ping] = fromMcpTools(listResult, { source: 'weather-server' });
    expect(weather).toEqual({
      id: 'get_weather',
      name: 'get_weather',
      description: 'Get current weather information for a location',
      inputSchema: listResult.tools[0]!.inputSchema,
      outputSchema: listResult.tools[0]!.outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
      source: 'weather-server',
      metadata: {
        title: 'Weather Information Provider',
        _meta: { 'example.com/version': 2 },
        icons: [{ src: 'https://example.com/icon.png' }],
      },
    });
    expect(ping).toEqual({ id: 'ping', name: 'ping', inputSchema: { type: 'object' }, source: 'weather-server' });
  });

  it('namespaces ids with idPrefix so two servers fit in one catalog', () => {
    const a = fromMcpTools(listResult, { idPrefix: 'a__', source: 'a' });
    const b = fromMcpTools(listResult, { idPrefix: 'b__', source: 'b' });
    const catalog = new ToolCatalog([...a, ...b]);
    expect(catalog.list().map((tool) => tool.id)).toEqual(['a__get_weather', 'a__ping', 'b__get_weather', 'b__ping']);
    expect(catalog.get('b__get_weather')?.name).toBe('get_weather');
    expect(catalog.get('a__get_weather')?.outputSchema).toEqual(listResult.tools[0]!.outputSchema);
  });

  it('accepts the bare array of tools', () => {
    expect(fromMcpTools([{ name: 'x' }]).map((tool) => tool.id)).toEqual(['x']);
    expect(importError(() => fromMcpTools([{ name: 3 }])).message).toBe(
      'field "[0].name": must be a non-empty string, got a number',
    );
  });

  it('names the file and field of a malformed tool', () => {
    const cases: [unknown, string][] = [
      [null, 'servers/github.json: expected an MCP tools/list result ({ "tools": [...] }), got null'],
      [{ tools: 'none' }, 'servers/github.json, field "tools": must be an array of tools, got a string'],
      [{ tools: [42] }, 'servers/github.json, field "tools[0]": must be a tool object, got a number'],
      [
        { tools: [{ description: 'x' }] },
        'servers/github.json, field "tools[0].name": must be a non-empty string, got undefined',
      ],
      [
        { tools: [{ name: 'ok' }, { name: '' }] },
        'servers/github.json, field "tools[1].name": must be a non-empty string, got an empty string',
      ],
      [
        { tools: [{ name: 'a', description: 5 }] },
        'servers/github.json, field "tools[0].description": must be a string, got a number',
      ],
      [
        { tools: [{ name: 'a', inputSchema: 'object' }] },
        'servers/github.json, field "tools[0].inputSchema": must be an object, got a string',
      ],
      [
        { tools: [{ name: 'a', inputSchema: { type: 'array' } }] },
        'servers/github.json, field "tools[0].inputSchema": must be a JSON Schema of type "object", got type "array"',
      ],
      [
        { tools: [{ name: 'a', inputSchema: { type: 'object', properties: [] } }] },
        'servers/github.json, field "tools[0].inputSchema.properties": must be an object, got an array',
      ],
      [
        { tools: [{ name: 'a', outputSchema: { type: 'string' } }] },
        'servers/github.json, field "tools[0].outputSchema": must be a JSON Schema of type "object", got type "string"',
      ],
      [
        { tools: [{ name: 'a', annotations: [] }] },
        'servers/github.json, field "tools[0].annotations": must be an object, got an array',
      ],
      [
        { tools: [{ name: 'a', title: 1 }] },
        'servers/github.json, field "tools[0].title": must be a string, got a number',
      ],
      [
        { tools: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] },
        'servers/github.json, field "tools[2].name": duplicate tool id "a" (first at tools[0])',
      ],
    ];
    for (const [input, message] of cases) {
      const error = importError(() => fromMcpTools(input as { tools: unknown[] }, { file: 'servers/github.json' }));
      expect(error.message).toBe(message);
      expect(error.location.file).toBe('servers/github.json');
    }
  });
});
