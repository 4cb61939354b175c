import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { thrown } from '../test-utils/thrown.js';
import { agentOwnTools } from './agent-own-tools.js';

const PLACES = { registered: "createAgent's tools", direct: "the middleware's tools" };

describe('agentOwnTools', () => {
  const weather = { name: 'get_weather' };
  const clock = { name: 'get_time' };
  const session = new ToolSearchSession({
    catalog: [{ id: 'get_weather', description: 'Weather', tool: weather }],
    tools: [{ id: 'get_time', description: 'Time', tool: clock }],
    state: 'conversation',
  });

  it("leaves out the session's own objects and keeps the rest, in order, naming those with a name", () => {
    const calculator = { name: 'calculator' };
    const serverTool = { type: 'web_search' };
    const ownWeather = { name: 'get_weather' };
    expect(agentOwnTools(session, [weather, calculator, clock, serverTool, ownWeather], PLACES)).toEqual({
      tools: [calculator, serverTool, ownWeather],
      names: ['calculator', 'get_weather'],
    });
    expect(agentOwnTools(session, [], PLACES)).toEqual({ tools: [], names: [] });
  });

  it('another object named like a meta-tool or a direct tool is an InvalidOptionError naming it', () => {
    for (const name of ['search_tools', 'get_time']) {
      const error = thrown(() => agentOwnTools(session, [{ name }], PLACES));
      expect(InvalidOptionError.isInstance(error) && error.option).toBe('tools');
      expect((error as Error).message).toContain(`createAgent's tools include a tool named "${name}"`);
    }
  });
});
