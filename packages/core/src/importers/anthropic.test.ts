import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { importError } from '../test-utils/thrown.js';
import { fromAnthropicTools } from './anthropic.js';

const input_schema = {
  type: 'object',
  properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' } },
  required: ['location'],
};

describe('fromAnthropicTools', () => {
  it('reads tool definitions, keeping cache_control in metadata', () => {
    const tools = fromAnthropicTools(
      [
        { name: 'get_weather', description: 'Get the current weather', input_schema },
        {
          type: 'custom',
          name: 'get_time',
          input_schema: { type: 'object', properties: {} },
          cache_control: { type: 'ephemeral' },
        },
      ],
      { source: 'claude' },
    );
    expect(tools).toEqual([
      {
        id: 'get_weather',
        name: 'get_weather',
        description: 'Get the current weather',
        inputSchema: input_schema,
        source: 'claude',
      },
      {
        id: 'get_time',
        name: 'get_time',
        inputSchema: { type: 'object', properties: {} },
        source: 'claude',
        metadata: { cache_control: { type: 'ephemeral' } },
      },
    ]);
    expect(new ToolCatalog(tools).get('get_weather')?.jsonSchema).toEqual(input_schema);
  });

  it('reads a request body holding the tools, with an id prefix', () => {
    const tools = fromAnthropicTools({ tools: [{ name: 'a', input_schema }] }, { idPrefix: 'x__' });
    expect(tools[0]?.id).toBe('x__a');
    expect(tools[0]?.name).toBe('a');
  });

  it('names the file and field of a malformed definition', () => {
    const cases: [unknown, string][] = [
      [{ tools: {} }, 'tools.json, field "tools": expected an array of Anthropic tool definitions, got an object'],
      [['x'], 'tools.json, field "[0]": must be a tool object, got a string'],
      [[{ input_schema }], 'tools.json, field "[0].name": must be a non-empty string, got undefined'],
      [
        [{ name: 'a' }],
        'tools.json, field "[0].input_schema": is required: a JSON Schema of type "object" for the tool input',
      ],
      [
        [{ name: 'a', input_schema: { type: 'array' } }],
        'tools.json, field "[0].input_schema": must be a JSON Schema of type "object", got type "array"',
      ],
      [
        [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
        'tools.json, field "[0].type": must be "custom" or absent, got "web_search_20250305": server tools cannot be imported (they have no input_schema)',
      ],
      [
        [{ type: 'function', function: { name: 'get_weather', parameters: input_schema } }],
        'tools.json, field "[0]": is an OpenAI tool definition (type "function" with "parameters"), not an Anthropic one: read the file as OpenAI (format "openai", the CLI\'s --format openai) or leave the format out to have it detected',
      ],
      [
        [{ type: 'function', name: 'get_weather', parameters: input_schema }],
        'tools.json, field "[0]": is an OpenAI tool definition (type "function" with "parameters"), not an Anthropic one: read the file as OpenAI (format "openai", the CLI\'s --format openai) or leave the format out to have it detected',
      ],
      [
        [
          { name: 'a', input_schema },
          { name: 'a', input_schema },
        ],
        'tools.json, field "[1].name": duplicate tool id "a" (first at [0])',
      ],
    ];
    for (const [input, message] of cases) {
      expect(importError(() => fromAnthropicTools(input as unknown[], { file: 'tools.json' })).message).toBe(message);
    }
  });
});
