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
