// The README examples, as written there, with LangChain's fake model in place of a real one.
import { AIMessage, SystemMessage } from '@langchain/core/messages';
import { MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import { createAgent, tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RecordingFakeModel } from '../test-utils/recording-fake-model.js';
import { LangChainToolSearch, toolSearchMiddleware } from './langchain-tool-search.js';
import { loadedToolsOf } from './loaded-tools-state.js';

const getWeather = tool(async ({ city }) => `Sunny in ${city}`, {
  name: 'get_weather',
  description: 'Current weather for a city',
  schema: z.object({ city: z.string() }),
});
const hundredsMoreTools = [
  tool(async ({ to }) => `Sent to ${to}`, {
    name: 'send_email',
    description: 'Send an email',
    schema: z.object({ to: z.string(), body: z.string() }),
  }),
];

describe('README examples', () => {
  it('createAgent', async () => {
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'weather' } }])
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' } }])
      .respondWithTools([{ name: 'get_weather', args: { city: 'Paris' } }])
      .respond(new AIMessage({ id: 'a1', content: 'Sunny in Paris.' }))
      .respondWithTools([{ name: 'get_weather', args: { city: 'Rome' } }])
      .respond(new AIMessage({ id: 'a2', content: 'Sunny in Rome.' }));

    const agent = createAgent({
      model,
      tools: [], // your always-offered tools; the catalog goes to the middleware
      middleware: [toolSearchMiddleware({ catalog: [getWeather, ...hundredsMoreTools], state: 'agent-state' })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'user-42' } };
    await agent.invoke({ messages: [{ role: 'user', content: 'Weather in Paris?' }] }, config);
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'And in Rome?' }] }, config);

    expect(result.toolscoutLoadedTools).toEqual(['get_weather']);
    expect(loadedToolsOf(result)).toEqual(['get_weather']);
    expect(model.offeredNames.at(4)).toEqual(['search_tools', 'load_tool', 'get_weather']);
    expect(result.messages.at(-1)?.text).toBe('Sunny in Rome.');
  });

  it("instructions, preselect and the agent's own tools", async () => {
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'send_email', args: { to: 'bob', body: 'Hi' } }])
      .respond(new AIMessage('Sent.'));

    const agent = createAgent({
      model,
      tools: [getWeather], // the agent's own tools: always offered, and they win over catalog tools of their names
      systemPrompt: 'You are a travel assistant.',
      middleware: [toolSearchMiddleware({ catalog: hundredsMoreTools, preselect: true })],
    });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Send an email to Bob' }] });

    const system = model.calls[0]!.messages[0]!;
    expect(SystemMessage.isInstance(system)).toBe(true);
    expect(system.text).toMatch(/^You are a travel assistant\.\n\nTo discover available tools, call search_tools/);
    expect(model.offeredNames[0]).toEqual(['get_weather', 'search_tools', 'load_tool', 'send_email']);
    expect(result.messages.at(-2)?.text).toBe('Sent to bob');
  });

  it('custom graph', async () => {
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' } }])
      .respondWithTools([{ name: 'get_weather', args: { city: 'Paris' } }])
      .respond(new AIMessage({ id: 'a1', content: 'Sunny in Paris.' }));

    const search = new LangChainToolSearch({ catalog: [getWeather, ...hundredsMoreTools] });
    const system = new SystemMessage(search.session.instructions ?? ''); // what the model is told about tool search
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state, config) => {
        const tools = await search.toolsFor(state.messages, config); // meta-tools + loaded tools
        return { messages: [await model.bindTools(tools).invoke([system, ...state.messages], config)] };
      })
      .addNode('tools', search.toolNode()) // runs every call through the session
      .addEdge('__start__', 'agent')
      .addConditionalEdges('agent', toolsCondition, ['tools', '__end__'])
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver() });

    const result = await graph.invoke(
      { messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      { configurable: { thread_id: 't1' } },
    );
    expect(model.offeredNames).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool', 'get_weather'],
      ['search_tools', 'load_tool', 'get_weather'],
    ]);
    expect(result.messages.at(-1)?.text).toBe('Sunny in Paris.');
    expect(model.calls[0]!.messages[0]!.text).toContain('To discover available tools, call search_tools');
  });
});
