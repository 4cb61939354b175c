import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { importError } from '../test-utils/thrown.js';
import { fromOpenAITools } from './openai.js';

const parameters = {
  type: 'object',
  properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
  required: ['location', 'unit'],
  additionalProperties: false,
};

describe('fromOpenAITools', () => {
  it('reads Chat Completions function tools', () => {
    const tools = fromOpenAITools(
      [{ type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters, strict: true } }],
      { source: 'openai' },
    );
    expect(tools).toEqual([
      {
        id: 'get_weather',
        name: 'get_weather',
        description: 'Weather now',
        inputSchema: parameters,
        source: 'openai',
        metadata: { strict: true },
      },
    ]);
  });

  it('reads Responses API function tools, and a request body holding them', () => {
    const defs = [
      { type: 'function', name: 'get_weather', description: 'Weather now', parameters, strict: true },
      { type: 'function', name: 'no_args' },
    ];
    const tools = fromOpenAITools(defs);
    expect(tools[0]).toEqual({
      id: 'get_weather',
      name: 'get_weather',
      description: 'Weather now',
      inputSchema: parameters,
      metadata: { strict: true },
    });
    expect(tools[1]).toEqual({ id: 'no_args', name: 'no_args' });
    expect(fromOpenAITools({ tools: defs }, { idPrefix: 'oa__' }).map((tool) => tool.id)).toEqual([
      'oa__get_weather',
      'oa__no_args',
    ]);
    expect(new ToolCatalog(tools).get('no_args')?.jsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('reads a mix of both shapes and the legacy shape without type', () => {
    const tools = fromOpenAITools([
      { type: 'function', function: { name: 'a' } },
      { type: 'function', name: 'b' },
      { name: 'c', parameters },
    ]);
    expect(tools.map((tool) => tool.id)).toEqual(['a', 'b', 'c']);
  });

  it('names the file and field of a malformed definition', () => {
    const cases: [unknown, string][] = [
      ['tools', 'defs.json: expected an array of OpenAI function tools, got a string'],
      [{ tools: 3 }, 'defs.json, field "tools": expected an array of OpenAI function tools, got a number'],
      [[null], 'defs.json, field "[0]": must be a function tool object, got null'],
      [
        [{ type: 'web_search_preview' }],
        'defs.json, field "[0].type": must be "function", got "web_search_preview": only function tools can be imported (built-in tools have no schema)',
      ],
      [
        [{ type: 'function', function: 'get' }],
        'defs.json, field "[0].function": must be an object ({ name, description, parameters }), got a string',
      ],
      [
        [{ type: 'function', function: {} }],
        'defs.json, field "[0].function.name": must be a non-empty string, got undefined',
      ],
      [
        [{ type: 'function', function: { name: 'a', parameters: { type: 'string' } } }],
        'defs.json, field "[0].function.parameters": must be a JSON Schema of type "object", got type "string"',
      ],
      [
        { tools: [{ type: 'function', name: 'a', description: [] }] },
        'defs.json, field "tools[0].description": must be a string, got an array',
      ],
      [
        [
          { type: 'function', function: { name: 'a' } },
          { type: 'function', name: 'a' },
        ],
        'defs.json, field "[1].name": duplicate tool id "a" (first at [0].function)',
      ],
    ];
    for (const [input, message] of cases) {
      expect(importError(() => fromOpenAITools(input as unknown[], { file: 'defs.json' })).message).toBe(message);
    }
  });
});
