// The README's examples as written there, with a scripted TextAdapter in place of a provider's.
import { chat, maxIterations, toolDefinition } from '@tanstack/ai';
import { answer, call, load } from '@toolscout/conformance';
import { describe, expect, it } from 'vitest';
import { createFixtureTools } from '../test-utils/fixture-tools.js';
import { ScriptedAdapter } from './testing.js';
import { toolSearchMiddleware } from './tool-search-middleware.js';

describe('README examples', () => {
  it('chat()', async () => {
    const { catalog, calculator } = createFixtureTools();
    const hundredsMoreTools = catalog.filter((tool) => tool.name !== 'get_weather');
    const scripted = new ScriptedAdapter();
    scripted.play([load('get_weather'), call('get_weather', { city: 'Paris' }), answer('Sunny.')]);

    const getWeather = toolDefinition({
      name: 'get_weather',
      description: 'Get the current weather forecast for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    }).server(async (input) => ({ city: (input as { city: string }).city, forecast: 'sunny' }));

    const toolSearch = toolSearchMiddleware({ catalog: [getWeather, ...hundredsMoreTools] }); // once, at start-up

    const stream = chat({
      adapter: scripted.adapter,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [calculator], // chat()'s own tools: always offered beside the meta-tools
      middleware: [toolSearch],
      context: { threadId: 'thread-42' }, // loaded tools are kept per thread
      agentLoopStrategy: maxIterations(8),
    });
    for await (const _chunk of stream);

    const offered = scripted.calls.map((c) => c.tools.map((tool) => tool.name));
    expect(offered[0]).toEqual(['calculator', 'search_tools', 'load_tool']);
    expect(offered[1]).toEqual(['calculator', 'search_tools', 'load_tool', 'get_weather']);
    expect(scripted.calls[2]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: '{"city":"Paris","forecast":"sunny"}',
    });
  });

  it('From lazy: true: catalog mode', async () => {
    const { catalog: tools } = createFixtureTools();
    const scripted = new ScriptedAdapter();
    scripted.play([call('discover_tools', { toolNames: ['send_email'] }), answer()]);
    const adapter = scripted.adapter;
    const messages = [{ role: 'user' as const, content: 'Email Bob' }];

    await chat({
      adapter,
      messages,
      middleware: [toolSearchMiddleware({ catalog: tools, mode: 'catalog', catalogListing: 'names' })],
      stream: false,
    });

    expect(scripted.calls[0]!.tools.map((tool) => tool.name)).toEqual(['discover_tools']);
    expect(scripted.calls[0]!.tools[0]!.description).toContain(
      'Available tools:\n- get_weather\n- send_email\n- create_invoice',
    );
    expect(scripted.calls[1]!.tools.map((tool) => tool.name)).toEqual(['discover_tools', 'send_email']);
  });
});
