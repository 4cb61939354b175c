// The README's examples of instructions, preselect, deferred tools and aliases, as written there, with
// the test kit's scripted model in place of a real one.
import { answer, callTool, ScriptedModel } from '@toolscout/test-kit';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { fixtureTools } from '../test-utils/fixture-tools.js';
import { createToolSearch } from './create-tool-search.js';
import { fromAISDKTool, fromAISDKTools } from './from-ai-sdk-tool.js';

describe('README examples', () => {
  it("Instructions, and tools picked from the user's message", async () => {
    const { tools, executions } = fixtureTools();
    const email = { to: 'bob@example.com', subject: 'Hi', body: 'Hello' };
    const model = new ScriptedModel([callTool('send_email', email), answer()]);

    // preselect: the user's latest message is searched before the first step, and its best match offered.
    const search = createToolSearch({ catalog: tools, preselect: { limit: 1 } });

    await generateText({
      model: model.mock,
      instructions: 'You are a concise assistant.',
      prompt: 'Send an email message to Bob',
      stopWhen: stepCountIs(8),
      ...search,
    });

    const system = model.calls.map((call) => call.prompt.filter((message) => message.role === 'system'));
    for (const messages of system) {
      expect(messages.map((message) => message.content)).toEqual([
        'You are a concise assistant.',
        search.session.instructions,
      ]);
    }
    expect(search.session.instructions).toMatch(
      /^To discover available tools, call search_tools with a keyword query\./,
    );
    expect(model.offered()[0]).toEqual(['search_tools', 'load_tool', 'send_email']);
    expect(executions.map((execution) => execution.name)).toEqual(['send_email']);
  });

  it('Deferred tools and other names', async () => {
    const { tools, executions } = fixtureTools();
    const { get_weather: getWeather, ...others } = tools;
    const fetchToolDefinition = async (_id: string, _options: { signal: AbortSignal }) => ({
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      execute: (input: unknown) => ({ ...(input as { name: string }), email: 'bob@example.com' }),
    });

    const search = createToolSearch({
      catalog: [
        ...fromAISDKTools(others),
        fromAISDKTool('get_weather', getWeather!, { aliases: ['weather_now'] }),
        {
          id: 'crm_find_contact',
          description: 'Find a contact in the CRM by name.',
          resolve: async ({ signal }) => fetchToolDefinition('crm_find_contact', { signal }), // { inputSchema, execute }
        },
      ],
    });

    const model = new ScriptedModel([
      callTool('load_tool', { toolNames: ['crm_find_contact', 'weather_now'] }),
      callTool('crm_find_contact', { name: 'Bob' }),
      callTool('weather_now', { city: 'Oslo' }),
      answer(),
    ]);
    await generateText({ model: model.mock, prompt: 'Bob, and the weather', stopWhen: stepCountIs(6), ...search });
    expect(model.offered()[1]).toEqual(['search_tools', 'load_tool', 'crm_find_contact', 'weather_now']);
    expect(model.lastToolResults(2)[0]).toMatchObject({ output: { name: 'Bob', email: 'bob@example.com' } });
    expect(model.lastToolResults(3)[0]).toMatchObject({ toolName: 'weather_now', isError: false });
    expect(executions.map((execution) => execution.name)).toEqual(['get_weather']);
  });
});
