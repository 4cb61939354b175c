import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, countToolDefinitionTokens, serializeToolDefinition } from './token-count.js';

const weather = {
  name: 'get_weather',
  description: 'Get the current weather for a city. Returns the temperature in °C and a short summary.',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name, e.g. "Zürich"' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
  },
};

describe('countTokens', () => {
  it('counts o200k_base tokens', async () => {
    expect(await countTokens('hello world')).toBe(2);
    expect(await countTokens('')).toBe(0);
    const text = 'Tool search lets an agent load only the tools it needs — 日本語もOK, emojis 🚀 too.';
    expect(await countTokens(text)).toBe(encode(text).length);
  });

  it('counts special-token text as ordinary text instead of throwing', async () => {
    const text = 'a <|endoftext|> b';
    expect(() => encode(text)).toThrow(/special token/);
    expect(await countTokens(text)).toBe(encode(text, { disallowedSpecial: new Set() }).length);
    expect(await countTokens(text)).toBeGreaterThan(3);
  });
});

describe('serializeToolDefinition', () => {
  it('uses the function-tool JSON a provider receives', () => {
    expect(serializeToolDefinition({ name: 'ping', description: 'Ping it.', inputSchema: { type: 'object' } })).toBe(
      '{"type":"function","function":{"name":"ping","description":"Ping it.","parameters":{"type":"object"}}}',
    );
    expect(serializeToolDefinition({ name: 'ping', inputSchema: { type: 'object' } })).toBe(
      '{"type":"function","function":{"name":"ping","parameters":{"type":"object"}}}',
    );
  });
});

describe('countToolDefinitionTokens', () => {
  it('sums UTF-8 bytes and tokens of each serialised tool', async () => {
    const ping = { name: 'ping', inputSchema: { type: 'object', properties: {} } };
    const weatherJson = serializeToolDefinition(weather);
    const pingJson = serializeToolDefinition(ping);

    const size = await countToolDefinitionTokens([weather, ping]);
    expect(size.tokens).toBe(encode(weatherJson).length + encode(pingJson).length);
    // °, ü and the quotes' escapes: bytes, not UTF-16 code units.
    expect(size.bytes).toBe(Buffer.byteLength(weatherJson) + Buffer.byteLength(pingJson));
    expect(size.bytes).toBeGreaterThan(weatherJson.length + pingJson.length);
  });

  it('counts a known small definition exactly', async () => {
    const tool = { name: 'ping', inputSchema: { type: 'object' } };
    const json = '{"type":"function","function":{"name":"ping","parameters":{"type":"object"}}}';
    expect(await countToolDefinitionTokens([tool])).toEqual({ bytes: json.length, tokens: encode(json).length });
  });

  it('is zero for no tools, and grows with every tool', async () => {
    expect(await countToolDefinitionTokens([])).toEqual({ bytes: 0, tokens: 0 });
    const one = await countToolDefinitionTokens([weather]);
    const two = await countToolDefinitionTokens([weather, { ...weather, name: 'get_weather_2' }]);
    expect(two.tokens).toBeGreaterThan(one.tokens);
    expect(two.bytes).toBe(2 * one.bytes + 2);
  });
});
