// Direct tools win (issue #15 item 3): the host's own tools (`StepRequest.hostTools`) and the
// session's `tools` option are never replaced, duplicated or hidden by a catalog tool of their name.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import { ToolSearchSession } from './tool-search-session.js';

function tools(): ToolDescriptor[] {
  return [
    { id: 'weather', description: 'Get the current weather for a city (catalog).', pinned: false },
    { id: 'get_forecast', aliases: ['forecast'], description: 'Get a multi-day weather forecast.' },
    { id: 'get_time', description: 'Get the current time.', pinned: true },
    { id: 'send_email', description: 'Send an email to a recipient.' },
  ];
}

describe('host tools win', () => {
  it('a catalog tool named like a host tool is never offered, found or loaded at that step', async () => {
    const session = new ToolSearchSession({ catalog: tools() });
    const hostTools = ['weather', 'forecast', 'get_time'];
    const step = await session.prepareStep({ threadId: 't', hostTools });
    // The pinned catalog tool is the host's at this step.
    expect(step.toolNames).toEqual(['search_tools', 'load_tool']);
    const found = await step.execute('search_tools', { query: 'weather forecast' });
    expect(found).toMatchObject({ ok: true, output: { results: [] } });
    expect(await step.execute('load_tool', { toolName: 'weather' })).toEqual({
      ok: true,
      output: { success: true, message: 'Tool "weather" is already loaded and available.', toolName: 'weather' },
    });
    // By id, the catalog tool whose alias the host offers: available under the host's name.
    expect(await step.execute('load_tool', { toolNames: ['get_forecast', 'send_email'] })).toMatchObject({
      output: { success: true, loaded: ['send_email'], alreadyLoaded: ['forecast'] },
    });
    const next = await session.prepareStep({ threadId: 't', hostTools });
    expect(next.toolNames).toEqual(['search_tools', 'load_tool', 'send_email']);
  });

  it('only at the steps that have them: without host tools the catalog tool is found and loaded', async () => {
    const session = new ToolSearchSession({ catalog: tools() });
    const step = await session.prepareStep({ threadId: 't' });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'get_time']);
    await step.execute('load_tool', { toolName: 'weather' });
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toContain('weather');
    // A host that offers it later keeps its own tool: the loaded catalog tool steps aside.
    expect((await session.prepareStep({ threadId: 't', hostTools: ['weather'] })).toolNames).not.toContain('weather');
  });

  it('the session’s own direct tools win too: load_tool answers they are available', async () => {
    const session = new ToolSearchSession({
      catalog: [{ id: 'get_forecast', aliases: ['save_note'], description: 'Forecast.' }],
      tools: [{ id: 'save_note', description: 'Save a note.' }],
    });
    const step = await session.prepareStep({ threadId: 't' });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'save_note']);
    expect(await step.execute('load_tool', { toolName: 'save_note' })).toMatchObject({
      output: { success: true, toolName: 'save_note' },
    });
    const next = await session.prepareStep({ threadId: 't' });
    expect(next.toolNames).toEqual(['search_tools', 'load_tool', 'save_note']);
    expect(next.tools[2]).toMatchObject({ kind: 'direct' });
    // A direct tool with a catalog tool's id is refused when the session is made.
    expect(() => new ToolSearchSession({ catalog: tools(), tools: [{ id: 'weather' }] })).toThrow(/both a direct tool/);
  });

  it('refuses host tools that are not a list of names, naming the field', async () => {
    const session = new ToolSearchSession({ catalog: tools() });
    await expect(session.prepareStep({ hostTools: 'weather' as never })).rejects.toThrow(InvalidArgumentError);
    await expect(session.prepareStep({ hostTools: ['weather', 3] as never })).rejects.toThrow(
      /request\.hostTools\[1\]/,
    );
  });
});
