import { describe, expect, it } from 'vitest';
import { type HistoryEntry, nextModelAction, type ToolDefinition } from './scripted-agent.js';

const meta: ToolDefinition[] = [
  { name: 'search_tools', description: 'Search the catalog', inputSchema: { type: 'object' } },
  { name: 'load_tool', description: 'Load a tool', inputSchema: { type: 'object' } },
];
const options = { filesDir: '/tmp/files' };
const request = 'What is the sum of 2 and 3?';

function searched(results: { name: string; score: number }[]): HistoryEntry {
  return {
    toolCallId: 'c1',
    toolName: 'search_tools',
    input: { query: request },
    output: { results, message: `Found ${results.length} tool(s).` },
    isError: false,
  };
}

const loaded: HistoryEntry = {
  toolCallId: 'c2',
  toolName: 'load_tool',
  input: { toolName: 'math__sum' },
  output: { success: true, message: 'Tool "math__sum" loaded successfully.', toolName: 'math__sum' },
  isError: false,
};

const sum: ToolDefinition = {
  name: 'math__sum',
  description: 'Adds two numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};

describe('nextModelAction', () => {
  it('searches with the user’s words first', () => {
    expect(nextModelAction({ request, tools: meta, history: [] }, options)).toEqual({
      type: 'call',
      toolName: 'search_tools',
      input: { query: request },
    });
  });

  it('loads the top hit, whatever it is', () => {
    const history = [
      searched([
        { name: 'weather__forecast', score: 0.9 },
        { name: 'math__sum', score: 0.8 },
      ]),
    ];
    expect(nextModelAction({ request, tools: meta, history }, options)).toEqual({
      type: 'call',
      toolName: 'load_tool',
      input: { toolName: 'weather__forecast' },
    });
  });

  it('reads a search result that came as MCP text content or JSON text', () => {
    const mcp = {
      ...searched([]),
      output: { content: [{ type: 'text', text: JSON.stringify({ results: [{ name: 'math__sum', score: 1 }] }) }] },
    };
    expect(nextModelAction({ request, tools: meta, history: [mcp] }, options)).toMatchObject({
      input: { toolName: 'math__sum' },
    });
  });

  it('calls the loaded tool, once offered, with arguments filled from its schema', () => {
    const history = [searched([{ name: 'math__sum', score: 1 }]), loaded];
    expect(nextModelAction({ request, tools: [...meta, sum], history }, options)).toEqual({
      type: 'call',
      toolName: 'math__sum',
      input: { a: 2, b: 3 },
    });
  });

  it('answers with the result, and says when the call failed', () => {
    const ok: HistoryEntry = {
      toolCallId: 'c3',
      toolName: 'math__sum',
      input: { a: 2, b: 3 },
      output: { content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] },
      isError: false,
    };
    const history = [searched([{ name: 'math__sum', score: 1 }]), loaded];
    expect(nextModelAction({ request, tools: [...meta, sum], history: [...history, ok] }, options)).toEqual({
      type: 'answer',
      text: 'math__sum answered: The sum of 2 and 3 is 5.',
    });
    const failed = { ...ok, output: { content: [{ type: 'text', text: 'boom' }], isError: true } };
    expect(nextModelAction({ request, tools: [...meta, sum], history: [...history, failed] }, options)).toEqual({
      type: 'answer',
      text: 'math__sum failed: boom',
    });
  });

  it('stops with an explanation when nothing matches, or the loaded tool is not offered', () => {
    expect(nextModelAction({ request, tools: meta, history: [searched([])] }, options)).toEqual({
      type: 'answer',
      text: 'No tool in the catalog matches this request.',
    });
    const history = [searched([{ name: 'math__sum', score: 1 }]), loaded];
    expect(nextModelAction({ request, tools: meta, history }, options)).toEqual({
      type: 'answer',
      text: 'math__sum was loaded but is not offered to me.',
    });
    expect(nextModelAction({ request, tools: [], history: [] }, options)).toMatchObject({ type: 'answer' });
  });
});
