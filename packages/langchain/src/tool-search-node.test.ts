import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import {
  Command,
  type LangGraphRunnableConfig,
  MemorySaver,
  MessagesAnnotation,
  StateGraph,
} from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { createFixtureTools } from '../test-utils/fixture-tools.js';
import { RecordingFakeModel } from '../test-utils/recording-fake-model.js';
import { type LangChainStateStrategy, LangChainToolSearch } from './langchain-tool-search.js';

const META = ['search_tools', 'load_tool'];

/** A custom LangGraph agent: a model node binding `search.toolsFor(...)`, and the toolscout tool node. */
function buildGraph(search: LangChainToolSearch, model: RecordingFakeModel) {
  const callModel = async (state: typeof MessagesAnnotation.State, config: LangGraphRunnableConfig) => {
    const tools = await search.toolsFor(state.messages, config);
    const response = await model.bindTools(tools).invoke(state.messages, config);
    return { messages: [response] };
  };
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', callModel)
    .addNode('tools', search.toolNode())
    .addEdge('__start__', 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', '__end__'])
    .addEdge('tools', 'agent')
    .compile({ checkpointer: new MemorySaver() });
}

function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe('custom graph: toolsFor + toolNode', () => {
  it.each(['memory', 'conversation'] satisfies LangChainStateStrategy[])(
    'state %s: binds what the session offers at each step and keeps loads for the thread across invoke calls',
    async (state) => {
      const fixture = createFixtureTools();
      const search = new LangChainToolSearch({ catalog: fixture.catalog, state });
      const model = new RecordingFakeModel()
        .respondWithTools([{ name: 'search_tools', args: { query: 'translate text' }, id: 'search' }])
        .respondWithTools([{ name: 'load_tool', args: { toolNames: ['translate_text', 'get_weather'] }, id: 'load' }])
        .respondWithTools([
          { name: 'translate_text', args: { text: 'hello', language: 'German' }, id: 'translate' },
          { name: 'get_weather', args: {}, id: 'weather-bad' },
        ])
        .respond(new AIMessage({ id: 'answer-1', content: 'Hallo.' }))
        // Second invoke on the same thread.
        .respondWithTools([{ name: 'get_weather', args: { city: 'Berlin' }, id: 'weather' }])
        .respond(new AIMessage({ id: 'answer-2', content: 'Sunny in Berlin.' }));
      const graph = buildGraph(search, model);
      const thread = { configurable: { thread_id: 'graph-thread' }, context: { userId: 'u-2' } };

      const first = await graph.invoke({ messages: [new HumanMessage('Say hello in German')] }, thread);
      const second = await graph.invoke({ messages: [new HumanMessage('Weather in Berlin?')] }, thread);

      expect(model.offeredNames).toEqual([
        META,
        META,
        [...META, 'translate_text', 'get_weather'],
        [...META, 'translate_text', 'get_weather'],
        [...META, 'translate_text', 'get_weather'], // second invoke: still loaded
        [...META, 'translate_text', 'get_weather'],
      ]);
      const firstResults = toolMessages(first.messages);
      expect(firstResults.map((message) => [message.name, message.status])).toEqual([
        ['search_tools', 'success'],
        ['load_tool', 'success'],
        ['translate_text', 'success'],
        ['get_weather', 'error'],
      ]);
      expect(JSON.parse(firstResults[0]!.text).results[0].name).toBe('translate_text');
      expect(firstResults[3]!.text).toContain('city');
      expect(toolMessages(second.messages).at(-1)).toMatchObject({
        name: 'get_weather',
        status: 'success',
        tool_call_id: 'weather',
      });
      // Tools ran as LangGraph runs them, with the tool call id, the run context and the graph state.
      const runtimeState = fixture.runtimes[0]!.state as { messages: BaseMessage[] };
      expect(runtimeState.messages.at(-1)).toBeInstanceOf(AIMessage);
      expect(fixture.runs).toEqual([
        {
          tool: 'translate_text',
          input: { text: 'hello', language: 'German' },
          toolCallId: 'translate',
          context: { userId: 'u-2' },
        },
        { tool: 'get_weather', input: { city: 'Berlin' }, toolCallId: 'weather', context: { userId: 'u-2' } },
      ]);
    },
  );

  it('lets a catalog tool interrupt for a human and resume, and reports a failing tool, in a custom graph', async () => {
    const fixture = createFixtureTools();
    const search = new LangChainToolSearch({ catalog: fixture.catalog });
    const model = new RecordingFakeModel()
      .respondWithTools([
        { name: 'load_tool', args: { toolNames: ['delete_repository', 'export_report'] }, id: 'load' },
      ])
      .respondWithTools([
        { name: 'export_report', args: { quarter: 'Q3' }, id: 'export' },
        { name: 'delete_repository', args: { repo: 'acme/old' }, id: 'delete' },
      ])
      .respond(new AIMessage({ id: 'answer', content: 'Deleted acme/old; the export failed.' }));
    const graph = buildGraph(search, model);
    const thread = { configurable: { thread_id: 'graph-hitl' } };

    const paused = await graph.invoke({ messages: [new HumanMessage('Delete acme/old, export Q3')] }, thread);
    expect((paused as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0]?.value).toEqual({
      action: 'delete_repository',
      repo: 'acme/old',
    });
    expect(fixture.runs).toEqual([expect.objectContaining({ tool: 'export_report' })]);

    const resumed = await graph.invoke(new Command({ resume: 'approve' }), thread);
    const byId = new Map(toolMessages(resumed.messages).map((message) => [message.tool_call_id, message]));
    expect(byId.get('delete')).toMatchObject({ name: 'delete_repository', status: 'success' });
    expect(byId.get('delete')!.text).toBe('Deleted acme/old.');
    expect(byId.get('export')).toMatchObject({ name: 'export_report', status: 'error' });
    expect(byId.get('export')!.text).toBe('Tool "export_report" failed: the report service is down');
    expect(fixture.runs.at(-1)).toEqual({
      tool: 'delete_repository',
      input: { repo: 'acme/old', decision: 'approve' },
      toolCallId: 'delete',
      context: undefined,
    });
  });

  it('runs all calls of one AIMessage against one step, and only calls not yet answered', async () => {
    const fixture = createFixtureTools();
    const search = new LangChainToolSearch({ catalog: fixture.catalog, state: 'conversation' });
    const node = search.toolNode();
    const ai = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'a', name: 'load_tool', args: { toolName: 'get_weather' }, type: 'tool_call' },
        { id: 'b', name: 'load_tool', args: { toolName: 'get_weather' }, type: 'tool_call' },
        { id: 'c', name: 'get_weather', args: { city: 'Lima' }, type: 'tool_call' },
        { id: 'd', name: 'search_tools', args: { query: 'email' }, type: 'tool_call' },
      ],
    });
    const answered = new ToolMessage({ tool_call_id: 'd', name: 'search_tools', content: '{"results":[]}' });
    const update = await node.invoke({ messages: [new HumanMessage('Weather in Lima'), ai, answered] });
    expect(Array.isArray(update)).toBe(false);
    const messages = (update as { messages: ToolMessage[] }).messages;
    expect(messages.map((message) => message.tool_call_id)).toEqual(['a', 'b', 'c']);
    // Same step: the second load sees the first, and the tool is callable from the next step only.
    expect(JSON.parse(messages[0]!.text)).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(JSON.parse(messages[1]!.text)).toMatchObject({
      success: true,
      message: 'Tool "get_weather" is already loaded and available.',
    });
    expect(messages[2]).toMatchObject({ status: 'error' });
    expect(messages[2]!.text).toContain('not loaded');
    expect(fixture.runs).toEqual([]);
  });

  it('toolsFor offers the core step as LangChain tools; bad graph wiring gets a clear error', async () => {
    const search = new LangChainToolSearch({ catalog: createFixtureTools().catalog, mode: 'catalog' });
    const config = { configurable: { thread_id: 'x' } };
    const tools = await search.toolsFor([new HumanMessage('Hi')], config);
    const step = await search.session.prepareStep({ threadId: 'x' });
    expect(step.toolNames).toEqual(['discover_tools']);
    expect(tools.map((tool) => tool.name)).toEqual(['discover_tools']);
    expect(tools[0]!.description).toContain('- get_weather:');
    const node = search.toolNode();
    await expect(node.invoke({ messages: [new HumanMessage('Hi')] })).rejects.toThrow(/no AIMessage/);
    await expect(node.invoke({} as never)).rejects.toThrow(/"messages" array/);
    for (const state of [{ messages: [new HumanMessage('Hi')] }, {}, undefined]) {
      const error = await node.invoke(state as never).catch((reason: unknown) => reason);
      expect(InvalidArgumentError.isInstance(error) && error.argument).toBe('state.messages');
    }
  });
});
