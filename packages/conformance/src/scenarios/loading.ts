import { expect } from 'vitest';
import { createFixtureCatalog } from '../fixtures.js';
import { answer, call, load, resultNames, search, text } from '../harness.js';
import { META, offered, resultOf, type ScenarioContext } from './context.js';

/** The model's way to the catalog: search and load in every mode, and the mistakes it corrects. */
export function loadingScenarios({ scenario, agentWith, needs, mode }: ScenarioContext): void {
  scenario('search, load, call', true, async () => {
    const { agent, executions } = await agentWith();
    const transcript = await agent.run({
      prompt: 'What is the weather in Paris?',
      threadId: 'thread-basic',
      script: [search('weather in a city'), load('get_weather'), call('get_weather', { city: 'Paris' }), answer()],
    });
    expect(offered(transcript, 0)).toEqual(META);
    expect(resultNames(resultOf(transcript, 0).output)).toContain('get_weather');
    const searchResult = resultOf(transcript, 0).output as { results: Record<string, unknown>[]; message: string };
    expect(Object.keys(searchResult.results[0]!)).toEqual(['name', 'description', 'score']);
    expect(typeof searchResult.message).toBe('string');
    const loadResult = resultOf(transcript, 1).output as Record<string, unknown>;
    // Mastra's single form: `load_tool({ toolName })` answers { success, message, toolName }.
    expect(loadResult).toEqual({ success: true, message: expect.stringContaining('loaded'), toolName: 'get_weather' });
    expect(offered(transcript, 1)).toEqual(META); // loaded tools appear from the next step
    expect(offered(transcript, 2)).toEqual([...META, 'get_weather']);
    expect(resultOf(transcript, 2)).toMatchObject({ toolName: 'get_weather', isError: false });
    expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Paris' } }]);
    expect(offered(transcript, 3)).toEqual([...META, 'get_weather']);
  });

  scenario('a search result is not a load', true, async () => {
    const { agent } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Find weather tools',
      threadId: 'thread-search-only',
      script: [search('weather'), answer()],
    });
    expect(resultNames(resultOf(transcript, 0).output)).toContain('get_weather');
    expect(offered(transcript, 1)).toEqual(META);
  });

  scenario('a search result is not a load (conversation strategy)', needs('history'), async () => {
    // mastra-ai/mastra#19145: with state derived from the messages, a search result counted as a load.
    const setup = { options: { state: 'conversation' as const } };
    const first = await agentWith(setup);
    const turn1 = await first.agent.run({
      prompt: 'Find weather tools',
      threadId: 'thread-search-only-conversation',
      script: [search('weather'), answer()],
    });
    expect(resultNames(resultOf(turn1, 0).output)).toContain('get_weather');
    expect(offered(turn1, 1)).toEqual(META);
    const second = await agentWith(setup);
    const turn2 = await second.agent.run({
      prompt: 'And now?',
      threadId: 'thread-search-only-conversation',
      history: turn1.history,
      script: [answer()],
    });
    expect(offered(turn2, 0)).toEqual(META);
  });

  scenario('auto-load', mode('auto-load'), async () => {
    const { agent, executions } = await agentWith({ options: { mode: 'auto-load', search: { limit: 2 } } });
    const transcript = await agent.run({
      prompt: 'Convert 10 EUR to USD',
      threadId: 'thread-auto',
      script: [
        search('convert currency exchange rate'),
        call('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }),
        answer(),
      ],
    });
    expect(offered(transcript, 0)).toEqual(['search_tools']);
    // Every hit was loaded: Mastra's result, which lists the hits and says they are loaded.
    const output = resultOf(transcript, 0).output as { results: { name: string }[]; message: string };
    expect(resultNames(output)).toContain('convert_currency');
    expect(output.message).toMatch(/^Found and loaded \d+ tool\(s\): .*convert_currency/);
    expect(output).not.toHaveProperty('loaded');
    expect(offered(transcript, 1).slice(0, 1)).toEqual(['search_tools']);
    expect(offered(transcript, 1)).toContain('convert_currency');
    expect(offered(transcript, 1)).not.toContain('load_tool');
    expect(executions).toEqual([{ toolId: 'convert_currency', input: { amount: 10, from: 'EUR', to: 'USD' } }]);
  });

  scenario('catalog mode', mode('catalog'), async () => {
    const { agent, executions, tools } = await agentWith({ options: { mode: 'catalog' } });
    const transcript = await agent.run({
      prompt: 'Translate hello into French',
      threadId: 'thread-catalog',
      script: [
        call('discover_tools', { toolNames: ['translate_text'] }),
        call('translate_text', { text: 'hello', language: 'French' }),
        call('discover_tools', { toolNames: tools.map((tool) => tool.id).filter((id) => id !== 'translate_text') }),
        answer(),
      ],
    });
    expect(offered(transcript, 0)).toEqual(['discover_tools']);
    const listing = transcript.steps[0]!.descriptions.discover_tools ?? '';
    for (const tool of tools) expect(listing).toContain(tool.id);
    const discovered = resultOf(transcript, 0).output as { tools: { name: string; inputSchema: unknown }[] };
    expect(discovered.tools[0]).toMatchObject({
      name: 'translate_text',
      inputSchema: { required: ['text', 'language'] },
    });
    expect(offered(transcript, 1)).toEqual(['discover_tools', 'translate_text']);
    expect(executions).toEqual([{ toolId: 'translate_text', input: { text: 'hello', language: 'French' } }]);
    // Every tool discovered: the discovery tool is gone.
    expect(offered(transcript, 3)).not.toContain('discover_tools');
    expect(offered(transcript, 3)).toHaveLength(tools.length);
  });

  scenario('catalog mode without lazy tools', mode('catalog'), async () => {
    const fixture = createFixtureCatalog();
    const { agent } = await agentWith({
      tools: fixture.tools.slice(0, 2).map((tool) => ({ ...tool, pinned: true })),
      options: { mode: 'catalog' },
    });
    const transcript = await agent.run({ prompt: 'Hi', threadId: 'thread-no-lazy', script: [answer()] });
    expect(offered(transcript, 0)).toEqual(['get_weather', 'get_forecast']);
  });

  scenario('proxy mode', mode('proxy'), async () => {
    const { agent, executions } = await agentWith({ options: { mode: 'proxy' } });
    const transcript = await agent.run({
      prompt: 'Email bob',
      threadId: 'thread-proxy',
      script: [
        search('send an email'),
        call('describe_tool', { toolName: 'send_email' }),
        call('call_tool', {
          toolName: 'send_email',
          arguments: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
        }),
        call('call_tool', { toolName: 'send_email', arguments: { to: 'bob@example.com' } }),
        answer(),
      ],
    });
    const meta = ['search_tools', 'describe_tool', 'call_tool'];
    for (const step of transcript.steps) expect(step.offered).toEqual(meta);
    expect(resultNames(resultOf(transcript, 0).output)).toContain('send_email');
    expect(resultOf(transcript, 1).output).toMatchObject({
      name: 'send_email',
      inputSchema: { required: ['to', 'subject', 'body'] },
    });
    expect(resultOf(transcript, 2)).toMatchObject({ isError: false });
    expect(resultOf(transcript, 3).isError).toBe(true);
    expect(text(resultOf(transcript, 3).output)).toContain('subject');
    expect(executions).toEqual([
      { toolId: 'send_email', input: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' } },
    ]);
  });

  scenario('loading several, some not found', true, async () => {
    const { agent } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Weather and email',
      threadId: 'thread-several',
      script: [load(['get_weather', 'no_such_tool', 'send_email']), load(['get_weather']), answer()],
    });
    expect(resultOf(transcript, 0).output).toMatchObject({
      success: false,
      loaded: ['get_weather', 'send_email'],
      notFound: ['no_such_tool'],
    });
    // Mastra's list form leaves empty lists out.
    expect(resultOf(transcript, 1).output).toEqual({
      success: true,
      message: 'Already loaded: get_weather',
      loadedCount: 0,
      alreadyLoaded: ['get_weather'],
    });
    expect(offered(transcript, 2)).toEqual([...META, 'get_weather', 'send_email']);
  });

  scenario('undiscovered tool call self-corrects', true, async () => {
    const { agent, executions } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Weather in Oslo',
      threadId: 'thread-undiscovered',
      script: [
        call('get_weather', { city: 'Oslo' }),
        load('get_weather'),
        call('get_weather', { city: 'Oslo' }),
        answer(),
      ],
    });
    const first = resultOf(transcript, 0);
    expect(first.isError).toBe(true);
    expect(text(first.output)).toContain('load_tool');
    expect(text(first.output)).toContain('get_weather');
    expect(resultOf(transcript, 2).isError).toBe(false);
    expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Oslo' } }]);
  });

  scenario('unknown tool call gets suggestions', true, async () => {
    const { agent, executions } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Weather',
      threadId: 'thread-unknown',
      script: [call('get_wether', { city: 'Rome' }), load('get_wether'), answer()],
    });
    const first = resultOf(transcript, 0);
    expect(first.isError).toBe(true);
    expect(text(first.output)).toContain('get_weather');
    expect(resultOf(transcript, 1).output).toMatchObject({ success: false, toolName: 'get_wether' });
    expect(text(resultOf(transcript, 1).output)).toContain('get_weather');
    expect(executions).toEqual([]);
  });
}
