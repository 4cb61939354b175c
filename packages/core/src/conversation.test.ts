import { describe, expect, it } from 'vitest';
import { type ConversationEntry, loadedNamesFromConversation, unwrapToolOutput } from './conversation.js';

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
