import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { type ConversationEntry, loadedNamesFromConversation, unwrapToolOutput } from './conversation.js';
import { ToolSearchSession } from './tool-search-session.js';

const tools = { load: 'load_tool', autoLoadSearch: undefined, discover: undefined };

function result(toolName: string, output: unknown): ConversationEntry {
  return { type: 'tool-result', toolName, output };
}

describe('loadedNamesFromConversation', () => {
  it('collects loads in the order they happened, once each', () => {
    const conversation = [
      result('load_tool', { success: true, loaded: ['b', 'a'], alreadyLoaded: [] }),
      result('load_tool', { success: true, loaded: ['c'], alreadyLoaded: ['a'] }),
    ];
    expect(loadedNamesFromConversation(conversation, tools)).toEqual(['b', 'a', 'c']);
  });

  it('never counts a plain search result as a load', () => {
    const conversation = [result('search_tools', { results: [{ name: 'a' }], message: '', loaded: ['a'] })];
    expect(loadedNamesFromConversation(conversation, tools)).toEqual([]);
    expect(loadedNamesFromConversation(conversation, { ...tools, autoLoadSearch: 'search_tools' })).toEqual(['a']);
  });

  it('reads results stored as JSON text, AI SDK output parts and MCP results', () => {
    const conversation = [
      result('load_tool', JSON.stringify({ loaded: ['a'] })),
      result('load_tool', { type: 'json', value: { loaded: ['b'] } }),
      result('load_tool', { content: [{ type: 'text', text: '{"loaded":["c"]}' }] }),
      result('load_tool', { structuredContent: { loaded: ['d'] }, content: [] }),
      result('load_tool', 'Tool failed'),
      result('load_tool', { loaded: 'not-a-list' }),
    ];
    expect(loadedNamesFromConversation(conversation, tools)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads Mastra’s load_tool forms: toolName when it succeeded, the lists of the list form', () => {
    const conversation = [
      result('load_tool', { success: true, message: 'Tool "a" loaded successfully.', toolName: 'a' }),
      result('load_tool', { success: false, message: 'Tool "x" not found.', toolName: 'x' }),
      result('load_tool', { success: true, message: 'Tool "b" is already loaded and available.', toolName: 'b' }),
      result('load_tool', { success: false, message: '', loadedCount: 1, loaded: ['c'], notFound: ['y'] }),
      result('load_tool', { success: true, message: '', loadedCount: 0, alreadyLoaded: ['d'] }),
      result('load_tool', { success: 'true', toolName: 'z' }),
    ];
    expect(loadedNamesFromConversation(conversation, tools)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads auto-load search results: every hit, or the `loaded` list when the result has one', () => {
    const autoLoad = { ...tools, autoLoadSearch: 'search_tools' };
    const conversation = [
      result('search_tools', { results: [{ name: 'a' }, { name: 'b' }], message: 'Found and loaded 2 tool(s)' }),
      result('search_tools', { results: [{ name: 'c' }, { name: 'd' }], message: '', loaded: ['d'] }),
      result('search_tools', { results: [{ name: 'e' }], message: '', loaded: [] }),
      // Written before: `loaded` and `alreadyLoaded` of an auto-load result.
      result('search_tools', { results: [{ name: 'f' }], message: '', loaded: ['f'], alreadyLoaded: ['a'] }),
      result('search_tools', { results: [{ name: 7 }, 'g', null], message: '' }),
    ];
    expect(loadedNamesFromConversation(conversation, autoLoad)).toEqual(['a', 'b', 'd', 'f']);
    // mastra-ai/mastra#19145: outside auto-load, a search result is never a load.
    expect(loadedNamesFromConversation(conversation, tools)).toEqual([]);
  });
});

describe('unwrapToolOutput', () => {
  it('leaves plain text and malformed JSON as they are', () => {
    expect(unwrapToolOutput('hello')).toBe('hello');
    expect(unwrapToolOutput('{not json')).toBe('{not json');
  });
});

describe("the 'conversation' state of a ToolSearchSession", () => {
  const catalog = Array.from({ length: 300 }, (_, i) => ({ id: `tool_${i}`, description: `Tool number ${i}.` }));

  it('offers at most 256 loaded tools, however many load results the messages hold', async () => {
    const session = new ToolSearchSession({ catalog, state: 'conversation' });
    const conversation = catalog.map(({ id }) => result('load_tool', { loaded: [id] }));
    const step = await session.prepareStep({ threadId: 't', conversation });
    expect(step.toolNames.filter((name) => name.startsWith('tool_'))).toHaveLength(256);
    session.dispose();
  });

  it('rejects a conversation that is not an array with InvalidArgumentError, out of prepareStep', async () => {
    const session = new ToolSearchSession({ catalog, state: 'conversation' });
    const conversation = { 0: result('load_tool', { loaded: ['tool_1'] }) } as unknown as ConversationEntry[];
    await expect(session.prepareStep({ threadId: 't', conversation })).rejects.toThrow(InvalidArgumentError);
    session.dispose();
  });
});
