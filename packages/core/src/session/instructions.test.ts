import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { TOOL_SEARCH_MODES } from './meta-tools.js';
import { ToolSearchSession } from './tool-search-session.js';

const catalog = [{ id: 'get_weather', description: 'Get the weather for a city.' }];

describe('instructions', () => {
  it("search-load and auto-load tell the model what Mastra's ToolSearchProcessor tells it, word for word", () => {
    expect(new ToolSearchSession({ catalog }).instructions).toBe(
      'To discover available tools, call search_tools with a keyword query. To add one or more tools to the conversation, call load_tool with a toolName or toolNames array. Tools must be loaded before they can be used.',
    );
    expect(new ToolSearchSession({ catalog, mode: 'auto-load' }).instructions).toBe(
      'To discover available tools, call search_tools with a keyword query. Matching tools are loaded automatically and become available on your next turn — there is no separate load step. After searching, use the tool directly.',
    );
  });

  it('every mode has its own text, naming its meta-tools as configured', () => {
    const texts = new Set<string>();
    for (const mode of TOOL_SEARCH_MODES) {
      const metaTools = {
        search: { name: 'find' },
        load: { name: 'fetch' },
        discover: { name: 'peek' },
        describe: { name: 'explain' },
        call: { name: 'run' },
        code: { name: 'script' },
      };
      // (code mode needs a sandbox; the other modes ignore the option)
      const code = { sandbox: { name: 'unused', run: async () => ({ ended: 'returned' as const }) } };
      const session = new ToolSearchSession({ catalog, mode, metaTools, code });
      const text = session.instructions ?? '';
      for (const meta of session.metaTools) expect(text, mode).toContain(` ${meta.name} `);
      expect(text, mode).not.toMatch(/search_tools|load_tool|discover_tools|describe_tool|call_tool|run_tool_code/);
      texts.add(text);
    }
    expect(texts.size).toBe(TOOL_SEARCH_MODES.length);
  });

  it('are the same at every step of a session, custom text as given, none with false', async () => {
    const session = new ToolSearchSession({ catalog });
    const first = await session.prepareStep({ threadId: 't' });
    await first.execute('load_tool', { toolName: 'get_weather' });
    const second = await session.prepareStep({ threadId: 't' });
    expect(first.instructions).toBe(session.instructions);
    expect(second.instructions).toBe(session.instructions);
    const custom = new ToolSearchSession({ catalog, instructions: 'Search before you act.' });
    expect((await custom.prepareStep()).instructions).toBe('Search before you act.');
    const none = new ToolSearchSession({ catalog, instructions: false });
    expect(none.instructions).toBeUndefined();
    expect((await none.prepareStep()).instructions).toBeUndefined();
  });

  it('a bad instructions option is an InvalidOptionError naming it, saying what it got', () => {
    const cases: [unknown, string][] = [
      [true, 'got a boolean'],
      ['', 'got an empty string'],
      ['  \n', 'got an empty string'],
      ['x'.repeat(10_001), 'got a string of 10,001 characters'],
      [{ text: 'hi' }, 'got an object'],
    ];
    for (const [instructions, got] of cases) {
      const error = thrown(() => new ToolSearchSession({ catalog, instructions: instructions as never }));
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionError).option).toBe('instructions');
      expect((error as Error).message).toContain(got);
    }
  });
});
