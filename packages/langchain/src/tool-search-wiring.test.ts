// Issue #15's wiring, through LangChain's real agent loop (createAgent, and a custom LangGraph graph)
// with its own fake chat model: the session's instructions in the system message, the user's message
// for preselect, the agent's own tools winning over catalog tools of their names, deferred tools.
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import type { ToolDescriptor } from '@toolscout/core';
import { parseJsonOrText } from '@toolscout/test-kit';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFixtureTools } from '../test-utils/fixture-tools.js';
import { RecordingFakeModel } from '../test-utils/recording-fake-model.js';
import { LangChainToolSearch, toolSearchMiddleware } from './langchain-tool-search.js';

const META = ['search_tools', 'load_tool'];
const INSTRUCTIONS =
  'To discover available tools, call search_tools with a keyword query. To add one or more tools to the conversation, call load_tool with a toolName or toolNames array. Tools must be loaded before they can be used.';

/** The system messages the model received at each of its calls. */
function systemsSeen(model: RecordingFakeModel): string[][] {
  return model.calls.map((call) =>
    call.messages.filter((message) => SystemMessage.isInstance(message)).map((message) => message.text),
  );
}

/** The ToolMessages of a run, by tool call id. */
function resultsById(messages: readonly BaseMessage[]): Map<string, ToolMessage> {
  const results = messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
  return new Map(results.map((message) => [message.tool_call_id, message]));
}

describe('instructions: the system message', () => {
  it("adds the session's instructions after the agent's own system prompt, at every model call, never to the state", async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' }, id: 'load' }])
      .respond(new AIMessage('Loaded.'));
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: 'You are a travel assistant.',
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather?')] });

    const expected = `You are a travel assistant.\n\n${INSTRUCTIONS}`;
    expect(systemsSeen(model)).toEqual([[expected], [expected]]);
    expect(result.messages.some((message: BaseMessage) => SystemMessage.isInstance(message))).toBe(false);
  });

  it('is the custom text alone without a system prompt, and nothing with instructions: false', async () => {
    const fixture = createFixtureTools();
    const told = new RecordingFakeModel().respond(new AIMessage('Hi.'));
    const custom = toolSearchMiddleware({ catalog: fixture.catalog, instructions: 'Look tools up first.' });
    await createAgent({ model: told, tools: [], middleware: [custom] }).invoke({ messages: [new HumanMessage('Hi')] });
    expect(systemsSeen(told)).toEqual([['Look tools up first.']]);

    const untold = new RecordingFakeModel().respond(new AIMessage('Hi.'));
    const silent = toolSearchMiddleware({ catalog: fixture.catalog, instructions: false });
    await createAgent({ model: untold, tools: [], systemPrompt: 'Be brief.', middleware: [silent] }).invoke({
      messages: [new HumanMessage('Hi')],
    });
    expect(systemsSeen(untold)).toEqual([['Be brief.']]);
  });
});

describe("preselect: the user's message", () => {
  it('offers the tool the user asks for at the first model call, which calls it without a search', async () => {
    const fixture = createFixtureTools();
    const email = { to: 'bob@example.com', subject: 'Hi', body: 'Hello' };
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'send_email', args: email, id: 'call-email' }])
      .respond(new AIMessage('Sent.'));
    const middleware = toolSearchMiddleware({ catalog: fixture.catalog, preselect: { limit: 1 } });
    const agent = createAgent({ model, tools: [], middleware: [middleware] });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Send an email message to Bob')] },
      { configurable: { thread_id: 'preselect' } },
    );

    expect(model.offeredNames).toEqual([
      [...META, 'send_email'],
      [...META, 'send_email'],
    ]);
    expect(resultsById(result.messages).get('call-email')).toMatchObject({ status: 'success' });
    expect(fixture.runs).toEqual([{ tool: 'send_email', input: email, toolCallId: 'call-email', context: undefined }]);
  });

  it('in a custom graph, toolsFor offers it at the first model call', async () => {
    const fixture = createFixtureTools();
    const search = new LangChainToolSearch({ catalog: fixture.catalog, preselect: { limit: 1 } });
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'translate_text', args: { text: 'hello', language: 'German' }, id: 't' }])
      .respond(new AIMessage('Hallo.'));
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state, config) => {
        const tools = await search.toolsFor(state.messages, config);
        return { messages: [await model.bindTools(tools).invoke(state.messages, config)] };
      })
      .addNode('tools', search.toolNode())
      .addEdge('__start__', 'agent')
      .addConditionalEdges('agent', toolsCondition, ['tools', '__end__'])
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver() });
    const result = await graph.invoke(
      { messages: [new HumanMessage('Translate text into another language: hello, in German')] },
      { configurable: { thread_id: 'graph-preselect' } },
    );

    expect(model.offeredNames[0]).toEqual([...META, 'translate_text']);
    expect(resultsById(result.messages).get('t')?.text).toBe('[German] hello');
  });
});

describe("the agent's own tools win", () => {
  it('over a catalog tool of the same name: offered once, never found, already available, run by LangChain', async () => {
    const fixture = createFixtureTools();
    const ownRuns: unknown[] = [];
    const ownWeather = tool(
      async (input) => {
        ownRuns.push(input);
        return 'Own weather: sunny.';
      },
      { name: 'get_weather', description: "The agent's own weather tool.", schema: z.object({ city: z.string() }) },
    );
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'current weather in a city' }, id: 'search' }])
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' }, id: 'load' }])
      .respondWithTools([{ name: 'get_weather', args: { city: 'Rome' }, id: 'weather' }])
      .respond(new AIMessage('Sunny.'));
    const middleware = toolSearchMiddleware({ catalog: fixture.catalog });
    const agent = createAgent({ model, tools: [ownWeather], middleware: [middleware] });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Weather in Rome')] },
      { configurable: { thread_id: 'own-tools' } },
    );

    for (const tools of model.offered) {
      expect(tools.filter((definition) => definition.name === 'get_weather')).toEqual([
        expect.objectContaining({ description: "The agent's own weather tool." }),
      ]);
    }
    const results = resultsById(result.messages);
    const hits = parseJsonOrText(results.get('search')!.text) as { results: { name: string }[] };
    expect(hits.results.map((hit) => hit.name)).not.toContain('get_weather');
    expect(parseJsonOrText(results.get('load')!.text)).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(results.get('weather')).toMatchObject({ status: 'success', text: 'Own weather: sunny.' });
    expect(ownRuns).toEqual([{ city: 'Rome' }]);
    expect(fixture.runs).toEqual([]);
  });
});

describe('deferred tools', () => {
  it('loads a tool whose schema and executor are resolved on load, offers the resolved schema and runs it', async () => {
    const fixture = createFixtureTools();
    const resolved: string[] = [];
    const findContact: ToolDescriptor = {
      id: 'crm_find_contact',
      description: 'Find a contact in the CRM by name.',
      resolve: async ({ toolId }) => {
        resolved.push(toolId);
        return {
          inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          execute: (input) => ({ email: 'bob@example.com', input }),
        };
      },
    };
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'crm_find_contact' }, id: 'load' }])
      .respondWithTools([{ name: 'crm_find_contact', args: { name: 'Bob' }, id: 'find' }])
      .respond(new AIMessage('bob@example.com'));
    const middleware = toolSearchMiddleware({ catalog: [...fixture.catalog, findContact] });
    const agent = createAgent({ model, tools: [], middleware: [middleware] });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Find Bob in the CRM')] },
      { configurable: { thread_id: 'deferred' } },
    );

    expect(model.offeredNames).toEqual([META, [...META, 'crm_find_contact'], [...META, 'crm_find_contact']]);
    expect(model.offered[1]!.at(-1)!.parameters).toMatchObject({ properties: { name: { type: 'string' } } });
    const found = resultsById(result.messages).get('find');
    expect(found?.status).toBe('success');
    expect(parseJsonOrText(found!.text)).toEqual({ email: 'bob@example.com', input: { name: 'Bob' } });
    expect(resolved).toEqual(['crm_find_contact']);
  });
});
