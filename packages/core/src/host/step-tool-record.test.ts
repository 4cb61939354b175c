import { describe, expect, it } from 'vitest';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { activeStepTools, stepToolRecord } from './step-tool-record.js';

describe('stepToolRecord', () => {
  it("orders meta-tools, the host's own tools (winning their names), then pinned and loaded tools", async () => {
    const session = new ToolSearchSession({
      catalog: [
        { id: 'weather', description: 'Weather in a city.' },
        { id: 'clock', description: 'The time.', pinned: true },
      ],
    });
    const step = await session.prepareStep({ hostTools: ['weather'] });
    const own = { weather: 'own weather', notes: 'own notes' };
    const tools = stepToolRecord(step, own, (offered) => `session ${offered.name}`);
    expect(tools).toEqual({
      search_tools: 'session search_tools',
      load_tool: 'session load_tool',
      weather: 'own weather',
      notes: 'own notes',
      clock: 'session clock',
    });
    expect(activeStepTools(step, Object.keys(tools), ['notes'])).toEqual([
      'search_tools',
      'load_tool',
      'notes',
      'clock',
    ]);
  });
});
