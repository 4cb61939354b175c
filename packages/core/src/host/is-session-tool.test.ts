import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { thrown } from '../test-utils/thrown.js';
import { isSessionTool } from './is-session-tool.js';

const PLACES = { registered: "createAgent's tools", direct: "the middleware's tools" };

describe('isSessionTool', () => {
  const weather = { kind: 'framework tool', name: 'get_weather' };
  const clock = { kind: 'framework tool', name: 'get_time' };
  const session = new ToolSearchSession({
    catalog: [{ id: 'get_weather', description: 'Weather', tool: weather }],
    tools: [{ id: 'get_time', description: 'Time', tool: clock }],
    state: 'conversation',
  });

  it("is true for the session's own objects and false for tools it does not know", () => {
    expect(isSessionTool(session, 'get_weather', weather, PLACES)).toBe(true);
    expect(isSessionTool(session, 'get_time', clock, PLACES)).toBe(true);
    expect(isSessionTool(session, 'send_email', { name: 'send_email' }, PLACES)).toBe(false);
  });

  it('another object under a name of the session is an InvalidOptionError naming the tool and the clash', () => {
    const cases: [string, string][] = [
      ['get_weather', 'a different tool in the toolscout catalog or tools'],
      ['search_tools', 'a toolscout meta-tool'],
    ];
    for (const [name, what] of cases) {
      const error = thrown(() => isSessionTool(session, name, { name }, PLACES));
      expect(InvalidOptionError.isInstance(error) && error.option).toBe('tools');
      expect((error as Error).message).toBe(
        `createAgent's tools include a tool named "${name}", and ${what} has that name. Give each tool once: in the toolscout catalog (searchable) or the middleware's tools (always offered), or rename it.`,
      );
    }
  });
});
