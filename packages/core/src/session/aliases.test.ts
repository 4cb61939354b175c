// load_tool by a tool's other name (issue #15 item 2): Mastra's record keys that differ from `tool.id`.
import { describe, expect, it } from 'vitest';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import type { ToolDescriptor } from '../types.js';
import type { ConversationEntry } from './conversation.js';
import type { ToolSearchSessionOptions } from './session-options.js';
import { ToolSearchSession } from './tool-search-session.js';

function tools(runs: unknown[] = []): ToolDescriptor[] {
  return [
    {
      id: 'github_create_issue',
      aliases: ['createIssue'],
      description: 'Create an issue in a GitHub repository.',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      execute: (input) => {
        runs.push(input);
        return { created: true };
      },
    },
    { id: 'get_weather', description: 'Get the current weather for a city.' },
  ];
}

function sessionOf(options: Partial<ToolSearchSessionOptions> = {}, runs: unknown[] = []) {
  return new ToolSearchSession({ catalog: tools(runs), ...options });
}

describe('aliases', () => {
  it('loads a tool by its alias and offers it under that name; calls by it run the tool', async () => {
    const runs: unknown[] = [];
    const session = sessionOf({}, runs);
    const step = await session.prepareStep({ threadId: 't' });
    expect(await step.execute('load_tool', { toolName: 'createIssue' })).toMatchObject({
      ok: true,
      loaded: ['createIssue'],
      output: { success: true, toolName: 'createIssue', message: expect.stringContaining('"createIssue" loaded') },
    });
    const next = await session.prepareStep({ threadId: 't' });
    expect(next.toolNames).toEqual(['search_tools', 'load_tool', 'createIssue']);
    expect(next.tools[2]).toMatchObject({ kind: 'loaded', tool: { id: 'github_create_issue' } });
    expect(await next.execute('createIssue', { title: 'Bug' })).toMatchObject({
      ok: true,
      toolId: 'github_create_issue',
    });
    expect(runs).toEqual([{ title: 'Bug' }]);
  });

  it('offers one tool once: a later load under its other name answers "already loaded"', async () => {
    const session = sessionOf();
    const step = await session.prepareStep({ threadId: 't' });
    await step.execute('load_tool', { toolName: 'createIssue' });
    // In the same step and in the next.
    for (const current of [step, await session.prepareStep({ threadId: 't' })]) {
      expect(await current.execute('load_tool', { toolName: 'github_create_issue' })).toEqual({
        ok: true,
        output: {
          success: true,
          message: 'Tool "github_create_issue" is already loaded and available as "createIssue".',
          toolName: 'createIssue',
        },
      });
      expect(await current.execute('load_tool', { toolNames: ['github_create_issue'] })).toMatchObject({
        output: { alreadyLoaded: ['createIssue'] },
      });
    }
    expect((await session.prepareStep({ threadId: 't' })).toolNames).toEqual([
      'search_tools',
      'load_tool',
      'createIssue',
    ]);
  });

  it('keeps the first name in every state strategy: store, conversation, host-kept list', async () => {
    const store = new InMemoryLoadedToolStore();
    const stored = sessionOf({ state: store });
    await (await stored.prepareStep({ threadId: 't' })).execute('load_tool', { toolNames: ['createIssue'] });
    expect(await store.get('t')).toEqual(['createIssue']);
    // A restart over the same store.
    expect((await sessionOf({ state: store }).prepareStep({ threadId: 't' })).toolNames).toContain('createIssue');

    const session = sessionOf({ state: 'conversation' });
    const conversation: ConversationEntry[] = [];
    const step = await session.prepareStep({ threadId: 'c', conversation });
    for (const toolName of ['createIssue', 'github_create_issue']) {
      const outcome = await step.execute('load_tool', { toolName });
      conversation.push({
        type: 'tool-result',
        toolName: 'load_tool',
        output: outcome.ok ? outcome.output : undefined,
      });
    }
    expect((await session.prepareStep({ threadId: 'c', conversation })).toolNames).toEqual([
      'search_tools',
      'load_tool',
      'createIssue',
    ]);

    const kept = await session.prepareStep({ loaded: ['createIssue', 'github_create_issue'] });
    expect(kept.toolNames).toEqual(['search_tools', 'load_tool', 'createIssue']);
  });

  it('search keeps showing the tool’s own name; suggestions may come from the search', async () => {
    const step = await sessionOf().prepareStep({ threadId: 't' });
    const outcome = await step.execute('search_tools', { query: 'create issue' });
    expect(outcome).toMatchObject({ output: { results: [{ name: 'github_create_issue' }] } });
    // Calling the alias before loading it is "not loaded", with the load call that fixes it.
    expect(await step.execute('createIssue', { title: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not-loaded' },
    });
  });
});
