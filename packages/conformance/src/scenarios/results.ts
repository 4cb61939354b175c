import { expect } from 'vitest';
import { createFixtureCatalog } from '../fixtures.js';
import { answer, call, load, resultNames, search, text } from '../harness.js';
import { META, offered, resultOf, type ScenarioContext } from './context.js';

/**
 * What the meta-tools answer, in Mastra's shapes and words (a Mastra user's prompts and checks such
 * as `if (result.notFound)` keep working), the model's empty calls answered as results, a tool's
 * other names (aliases), and the agent's own tools winning over catalog tools of their name.
 */
export function resultScenarios({ scenario, agentWith, needs }: ScenarioContext): void {
  scenario("meta-tool results in Mastra's shapes", true, async () => {
    const { agent } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Weather and email',
      threadId: 'thread-shapes',
      script: [
        search('weather in a city'),
        load('get_weather'),
        load('get_weather'),
        load(['send_email', 'get_weather', 'no_such_tool']),
        answer(),
      ],
    });
    const found = resultOf(transcript, 0).output as { results: unknown[]; message: string };
    expect(Object.keys(found)).toEqual(['results', 'message']);
    expect(found.message).toBe(
      `Found ${found.results.length} tool(s). Use load_tool with an exact toolName or a toolNames array to make them available.`,
    );
    expect(resultOf(transcript, 1).output).toEqual({
      success: true,
      message: 'Tool "get_weather" loaded successfully. It will be available on your next turn.',
      toolName: 'get_weather',
    });
    expect(resultOf(transcript, 2).output).toEqual({
      success: true,
      message: 'Tool "get_weather" is already loaded and available.',
      toolName: 'get_weather',
    });
    expect(resultOf(transcript, 3).output).toEqual({
      success: false,
      message:
        'Loaded: send_email — available on your next turn | Already loaded: get_weather | Not found: no_such_tool',
      loadedCount: 1,
      loaded: ['send_email'],
      notFound: ['no_such_tool'],
      alreadyLoaded: ['get_weather'],
    });
    expect(offered(transcript, 4)).toEqual([...META, 'get_weather', 'send_email']);
  });

  scenario("the model's empty calls are results", true, async () => {
    const { agent, executions } = await agentWith();
    const transcript = await agent.run({
      prompt: 'Weather',
      threadId: 'thread-empty-calls',
      script: [
        search(''),
        call('load_tool', { toolNames: [] }),
        call('load_tool', {}),
        call('load_tool', { toolNames: [], toolName: 'get_weather' }),
        call('get_weather', { city: 'Rome' }),
        answer(),
      ],
    });
    expect(resultOf(transcript, 0)).toMatchObject({
      isError: false,
      output: { results: [], message: 'No tools found matching "". Try different keywords.' },
    });
    expect(resultOf(transcript, 1)).toMatchObject({
      isError: false,
      output: { success: false, message: 'toolNames array must not be empty.' },
    });
    expect(resultOf(transcript, 2)).toMatchObject({
      isError: false,
      output: { success: false, message: 'You must provide either toolName (string) or toolNames (array) to load.' },
    });
    expect(resultOf(transcript, 3)).toMatchObject({
      isError: false,
      output: { success: true, loaded: ['get_weather'] },
    });
    expect(resultOf(transcript, 4).isError).toBe(false);
    expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Rome' } }]);
  });

  scenario('a tool loaded by its alias is offered under it', needs('aliases'), async () => {
    const fixture = createFixtureCatalog({ pinned: false });
    const tools = fixture.tools.map((tool) =>
      tool.id === 'createIssue' ? { ...tool, aliases: ['open_issue'] } : tool,
    );
    const { agent, executions } = await agentWith({ fixture, tools });
    const issue = { repo: 'a/b', title: 'Bug' };
    const transcript = await agent.run({
      prompt: 'Open an issue',
      threadId: 'thread-alias',
      script: [
        search('open a github issue'),
        load('open_issue'),
        call('open_issue', issue),
        load('createIssue'),
        answer(),
      ],
    });
    // Search shows the tool's own name.
    expect(resultNames(resultOf(transcript, 0).output)).toContain('createIssue');
    expect(resultOf(transcript, 1).output).toMatchObject({ success: true, toolName: 'open_issue' });
    expect(offered(transcript, 2)).toEqual([...META, 'open_issue']);
    expect(resultOf(transcript, 2).isError).toBe(false);
    expect(executions).toEqual([{ toolId: 'createIssue', input: issue }]);
    // One tool, one offer: its other name answers "already loaded", under the name it has.
    expect(resultOf(transcript, 3).output).toMatchObject({ success: true, toolName: 'open_issue' });
    expect(text(resultOf(transcript, 3).output)).toContain('already loaded');
    expect(offered(transcript, 4)).toEqual([...META, 'open_issue']);
  });

  scenario('direct tools win', true, async () => {
    const { agent } = await agentWith({ direct: true });
    const transcript = await agent.run({
      prompt: 'Save a note',
      threadId: 'thread-direct-wins',
      script: [load('save_note'), load(['save_note', 'get_weather']), answer()],
    });
    // The model already has it: "available", never "not found", never offered twice.
    expect(resultOf(transcript, 0).output).toMatchObject({ success: true, toolName: 'save_note' });
    expect(resultOf(transcript, 1).output).toMatchObject({
      success: true,
      loaded: ['get_weather'],
      alreadyLoaded: ['save_note'],
    });
    expect(offered(transcript, 2)).toEqual([...META, 'save_note', 'get_weather']);
  });

  scenario("the agent's own tools win", needs('hostTools'), async () => {
    const fixture = createFixtureCatalog({ pinned: false });
    const own = {
      id: 'get_weather',
      description: "The agent's own weather tool.",
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: async (input: unknown) => {
        fixture.executions.push({ toolId: 'own:get_weather', input });
        return { own: true };
      },
    };
    const { agent, executions } = await agentWith({ fixture, hostTools: [own] });
    const transcript = await agent.run({
      prompt: 'Weather in Rome',
      threadId: 'thread-own-tools',
      script: [
        search('current weather in a city'),
        load('get_weather'),
        call('get_weather', { city: 'Rome' }),
        answer(),
      ],
    });
    for (const [at, step] of transcript.steps.entries()) {
      expect(
        step.offered.filter((name) => name === 'get_weather'),
        `step ${at}`,
      ).toHaveLength(1);
      expect(step.descriptions.get_weather, `step ${at}`).toBe("The agent's own weather tool.");
    }
    // Search leaves the catalog tool out; load says the model has the tool already.
    expect(resultNames(resultOf(transcript, 0).output)).not.toContain('get_weather');
    expect(resultOf(transcript, 1).output).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(executions).toEqual([{ toolId: 'own:get_weather', input: { city: 'Rome' } }]);
  });
}
