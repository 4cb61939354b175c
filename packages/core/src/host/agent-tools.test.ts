import { describe, expect, it } from 'vitest';
import { agentToolsOfRequest } from './agent-tools.js';
import { RequestToolDescriptors } from './request-tool-descriptors.js';

const isMetaTool = (name: string) => name === 'search_tools';

describe('agentToolsOfRequest', () => {
  it("offers the agent's own tools and names them as hostTools; never a meta-tool's name", () => {
    const tools = { weather: { id: 'weather' }, search_tools: { id: 'mine' } };
    expect(agentToolsOfRequest(tools, isMetaTool)).toEqual({
      own: { weather: tools.weather },
      request: { hostTools: ['weather'] },
    });
    expect(agentToolsOfRequest(undefined, isMetaTool)).toEqual({ own: {}, request: { hostTools: [] } });
  });

  it('makes them searchable request tools instead when given a converter', () => {
    const searchable = new RequestToolDescriptors<unknown>((_tool, key) => ({ id: key }));
    const result = agentToolsOfRequest({ weather: {}, search_tools: {} }, isMetaTool, searchable);
    expect(result).toEqual({ own: {}, request: { tools: [{ id: 'weather' }] } });
  });
});
