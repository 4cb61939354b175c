import { expect } from 'vitest';
import { answer, call, load, resultNames, search, text } from '../harness.js';
import { EMAIL, META, offered, resultOf, type ScenarioContext } from './context.js';

/** The options that rename the two meta-tools of `search-load`. */
const RENAMED = { search: { name: 'find_tools' }, load: { name: 'enable_tool' } };

/**
 * The tools a host brings besides the catalog: its own direct tools, and the meta-tools under names
 * of its choosing (`metaTools`).
 */
export function hostToolScenarios({ scenario, agentWith, mode }: ScenarioContext): void {
  scenario('direct tools', true, async () => {
    const { agent, executions } = await agentWith({ direct: true });
    const transcript = await agent.run({
      prompt: 'Note that I need milk, then check the weather',
      threadId: 'thread-direct',
      script: [
        call('save_note', { note: 'buy milk' }),
        search('save a note for the user'),
        call('save_note', { note: 42 }),
        load('get_weather'),
        answer(),
      ],
    });
    // Offered at every step, right after the meta-tools, and before loaded tools.
    for (const step of [0, 1, 2, 3]) expect(offered(transcript, step), `step ${step}`).toEqual([...META, 'save_note']);
    expect(offered(transcript, 4)).toEqual([...META, 'save_note', 'get_weather']);
    // Callable without loading.
    expect(resultOf(transcript, 0)).toMatchObject({ toolName: 'save_note', isError: false });
    // Never searched: the model already has it.
    expect(resultNames(resultOf(transcript, 1).output)).not.toContain('save_note');
    // Arguments checked against its schema, like a catalog tool's.
    const bad = resultOf(transcript, 2);
    expect(bad.isError).toBe(true);
    expect(text(bad.output)).toContain('note');
    expect(executions).toEqual([{ toolId: 'save_note', input: { note: 'buy milk' } }]);
  });

  scenario('renamed meta-tools', true, async () => {
    const { agent, executions } = await agentWith({ options: { metaTools: RENAMED } });
    const transcript = await agent.run({
      prompt: 'What is the weather in Paris?',
      threadId: 'thread-renamed',
      script: [
        search('weather in a city', 'find_tools'),
        call('get_weather', { city: 'Paris' }),
        load('get_weather', 'enable_tool'),
        call('get_weather', { city: 'Paris' }),
        search('send an email', 'search_tools'),
        answer(),
      ],
    });
    const renamed = ['find_tools', 'enable_tool'];
    expect(offered(transcript, 0)).toEqual(renamed);
    // The search tool's description sends the model to the load tool by its new name.
    expect(transcript.steps[0]!.descriptions.find_tools).toContain('enable_tool');
    expect(resultNames(resultOf(transcript, 0).output)).toContain('get_weather');
    // "Not loaded" names the load tool the model has, never the default one.
    const notLoaded = resultOf(transcript, 1);
    expect(notLoaded.isError).toBe(true);
    expect(text(notLoaded.output)).toContain('enable_tool');
    expect(text(notLoaded.output)).not.toContain('load_tool');
    expect(resultOf(transcript, 2).output).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(offered(transcript, 3)).toEqual([...renamed, 'get_weather']);
    expect(resultOf(transcript, 3)).toMatchObject({ toolName: 'get_weather', isError: false });
    // The default names are no tools at all.
    expect(resultOf(transcript, 4).isError).toBe(true);
    for (const step of transcript.steps) expect(step.offered).not.toContain('search_tools');
    expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Paris' } }]);
  });

  scenario('renamed meta-tools (proxy mode)', mode('proxy'), async () => {
    const metaTools = { search: { name: 'find_tools' }, describe: { name: 'show_tool' }, call: { name: 'run_tool' } };
    const { agent, executions } = await agentWith({ options: { mode: 'proxy', metaTools } });
    const transcript = await agent.run({
      prompt: 'Email bob',
      threadId: 'thread-renamed-proxy',
      script: [
        search('send an email', 'find_tools'),
        call('show_tool', { toolName: 'send_email' }),
        call('send_email', EMAIL),
        call('run_tool', { toolName: 'send_email', arguments: EMAIL }),
        answer(),
      ],
    });
    for (const step of transcript.steps) expect(step.offered).toEqual(['find_tools', 'show_tool', 'run_tool']);
    expect(transcript.steps[0]!.descriptions.find_tools).toContain('run_tool');
    expect(resultNames(resultOf(transcript, 0).output)).toContain('send_email');
    expect(resultOf(transcript, 1).output).toMatchObject({ name: 'send_email' });
    // Called directly, the tool is "not loaded", and the hint names the renamed call tool.
    expect(resultOf(transcript, 2).isError).toBe(true);
    expect(text(resultOf(transcript, 2).output)).toContain('run_tool');
    expect(text(resultOf(transcript, 2).output)).not.toContain('call_tool');
    expect(resultOf(transcript, 3).isError).toBe(false);
    expect(executions).toEqual([{ toolId: 'send_email', input: EMAIL }]);
  });
}
