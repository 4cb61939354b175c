import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import type { LoadedToolStore, ToolSearchEvent } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { parseJsonOrText } from '@toolscout/test-kit';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createFixtureTools } from '../test-utils/fixture-tools.js';
import { RecordingFakeModel } from '../test-utils/recording-fake-model.js';
import { LangChainToolSearch, toolSearchMiddleware } from './langchain-tool-search.js';
import { LOADED_TOOLS_STATE_KEY, loadedToolsOf } from './loaded-tools-state.js';

const META = ['search_tools', 'load_tool'];

function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function parsed(message: ToolMessage | undefined): unknown {
  expect(message).toBeDefined();
  return parseJsonOrText(message!.text);
}

/** The ToolMessages the model saw at a call: those in the messages it was sent. */
function seenAt(model: RecordingFakeModel, call: number): ToolMessage[] {
  const record = model.calls[call];
  expect(record, `model call ${call}`).toBeDefined();
  return toolMessages(record!.messages);
}

describe('toolSearchMiddleware with createAgent', () => {
  it('offers the meta-tools beside the agent’s own tools, then the loaded tool, run with its ToolRuntime', async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'weather in a city' }, id: 'call-search' }])
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' }, id: 'call-load' }])
      .respondWithTools([
        { name: 'get_weather', args: { city: 'Paris' }, id: 'call-weather' },
        { name: 'calculator', args: { a: 1, b: 2 }, id: 'call-calc' },
      ])
      .respond(new AIMessage('Sunny in Paris, and 1 + 2 = 3.'));
    const agent = createAgent({
      model,
      tools: [fixture.calculator],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog })],
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage('Weather in Paris? Also add 1 and 2.')] },
      { configurable: { thread_id: 'thread-1' }, context: { userId: 'u-1' } },
    );

    // What the model was offered at each of its four calls.
    expect(model.offeredNames).toEqual([
      ['calculator', ...META],
      ['calculator', ...META],
      ['calculator', ...META, 'get_weather'],
      ['calculator', ...META, 'get_weather'],
    ]);
    const weatherDefinition = model.offered[2]!.find((definition) => definition.name === 'get_weather');
    expect(weatherDefinition).toMatchObject({
      description: 'Get the current weather (temperature, wind, conditions) for a city.',
      parameters: { properties: { city: { type: 'string' } }, required: ['city'] },
    });
    expect(model.offered[0]!.find((definition) => definition.name === 'search_tools')!.parameters).toMatchObject({
      required: ['query'],
    });

    // What it saw: the search results, the load confirmation, then both tool results.
    const searchResult = parsed(seenAt(model, 1).at(-1)) as { results: { name: string }[] };
    expect(searchResult.results.map((hit) => hit.name)).toContain('get_weather');
    expect(parsed(seenAt(model, 2).at(-1))).toMatchObject({ success: true, toolName: 'get_weather' });
    const lastSeen = seenAt(model, 3);
    expect(lastSeen.slice(-2).map((message) => [message.name, message.text, message.status])).toEqual([
      ['get_weather', 'Sunny and 21°C in Paris.', 'success'],
      ['calculator', '3', 'success'],
    ]);

    // The loaded catalog tool ran once, as LangChain runs tools: with the tool call id and the context.
    // (The two parallel calls may finish in either order.)
    expect(fixture.runs).toHaveLength(2);
    expect(fixture.runs).toEqual(
      expect.arrayContaining([
        { tool: 'get_weather', input: { city: 'Paris' }, toolCallId: 'call-weather', context: { userId: 'u-1' } },
        { tool: 'calculator', input: { a: 1, b: 2 }, toolCallId: undefined, context: undefined },
      ]),
    );
    expect((result.messages.at(-1) as AIMessage).text).toBe('Sunny in Paris, and 1 + 2 = 3.');
    // ...and with the agent state in its runtime.
    const runtimeState = fixture.runtimes[0]!.state as { messages: BaseMessage[] };
    expect(runtimeState.messages[0]!.text).toBe('Weather in Paris? Also add 1 and 2.');
  });

  it('gives every mistake and failure back to the model as a ToolMessage with status error', async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([
        { name: 'get_forecast', args: { city: 'Rome', days: 3 }, id: 'call-unloaded' },
        { name: 'get_forcast', args: { city: 'Rome' }, id: 'call-typo' },
      ])
      .respondWithTools([
        { name: 'load_tool', args: { toolNames: ['get_forecast', 'export_report'] }, id: 'call-load' },
      ])
      .respondWithTools([
        { name: 'get_forecast', args: { city: 'Rome', days: 'three' }, id: 'call-bad-args' },
        { name: 'export_report', args: { quarter: 'Q3' }, id: 'call-fails' },
        { name: 'load_tool', args: {}, id: 'call-empty-load' },
      ])
      .respondWithTools([{ name: 'get_forecast', args: { city: 'Rome', days: 2 }, id: 'call-fixed' }])
      .respond(new AIMessage('Mild for two days; the report export is down.'));
    const agent = createAgent({ model, tools: [], middleware: [toolSearchMiddleware({ catalog: fixture.catalog })] });

    const result = await agent.invoke(
      { messages: [new HumanMessage('Forecast for Rome and export Q3')] },
      { configurable: { thread_id: 'errors' } },
    );

    const byId = new Map(toolMessages(result.messages).map((message) => [message.tool_call_id, message]));
    const unloaded = byId.get('call-unloaded')!;
    expect(unloaded.status).toBe('error');
    expect(unloaded.text).toBe(
      'Tool "get_forecast" is not loaded. Call load_tool with {"toolName":"get_forecast"} first, then call it again.',
    );
    expect(byId.get('call-typo')!.status).toBe('error');
    expect(byId.get('call-typo')!.text).toContain('Did you mean: get_forecast');
    const badArgs = byId.get('call-bad-args')!;
    expect(badArgs.status).toBe('error');
    expect(badArgs.text).toMatch(/^Invalid arguments for tool "get_forecast": days: /);
    expect(byId.get('call-fails')).toMatchObject({ status: 'error' });
    expect(byId.get('call-fails')!.text).toBe('Tool "export_report" failed: the report service is down');
    // An empty load is the model's mistake, answered as Mastra does: a result that says what to give.
    expect(byId.get('call-empty-load')!.status).toBe('success');
    expect(JSON.parse(byId.get('call-empty-load')!.text)).toEqual({
      success: false,
      message: 'You must provide either toolName (string) or toolNames (array) to load.',
    });
    expect(byId.get('call-fixed')).toMatchObject({ status: 'success' });
    // The bad call never reached the tool; the fixed one did.
    expect(fixture.runs.map((run) => [run.tool, run.input])).toEqual([
      ['export_report', { quarter: 'Q3' }],
      ['get_forecast', { city: 'Rome', days: 2 }],
    ]);
    expect(model.offeredNames[2]).toEqual([...META, 'get_forecast', 'export_report']);
    expect((result.messages.at(-1) as AIMessage).text).toBe('Mild for two days; the report export is down.');
  });

  it('judges parallel calls against the tools the model was offered, not a sibling’s load', async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([
        { name: 'load_tool', args: { toolName: 'get_weather' }, id: 'call-load' },
        { name: 'get_weather', args: { city: 'Oslo' }, id: 'call-too-early' },
      ])
      .respondWithTools([{ name: 'get_weather', args: { city: 'Oslo' }, id: 'call-weather' }])
      .respond(new AIMessage('Sunny in Oslo.'));
    const agent = createAgent({ model, tools: [], middleware: [toolSearchMiddleware({ catalog: fixture.catalog })] });

    const result = await agent.invoke(
      { messages: [new HumanMessage('Weather in Oslo')] },
      { configurable: { thread_id: 'parallel' } },
    );

    const byId = new Map(toolMessages(result.messages).map((message) => [message.tool_call_id, message]));
    expect(byId.get('call-too-early')).toMatchObject({ status: 'error' });
    expect(byId.get('call-too-early')!.text).toContain('is not loaded');
    expect(byId.get('call-weather')).toMatchObject({ status: 'success' });
    expect(model.offeredNames).toEqual([META, [...META, 'get_weather'], [...META, 'get_weather']]);
    expect(fixture.runs.map((run) => run.toolCallId)).toEqual(['call-weather']);
  });

  describe.each(['memory', 'conversation', 'agent-state'] as const)(
    'state %s: two invoke calls on one thread (MemorySaver)',
    (state) => {
      it('keeps the loaded tool for the next turn of the thread, and only there', async () => {
        const fixture = createFixtureTools();
        const model = new RecordingFakeModel()
          // Turn 1 on thread A: load, answer.
          .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' }, id: 'a1' }])
          .respond(new AIMessage({ id: 'answer-a1', content: 'Loaded.' }))
          // Turn 2 on thread A: the tool is offered from the first call.
          .respondWithTools([{ name: 'get_weather', args: { city: 'Rome' }, id: 'a2' }])
          .respond(new AIMessage({ id: 'answer-a2', content: 'Sunny in Rome.' }))
          // Turn 1 on thread B: nothing loaded there.
          .respond(new AIMessage({ id: 'answer-b1', content: 'Hello.' }));
        const agent = createAgent({
          model,
          tools: [],
          middleware: [toolSearchMiddleware({ catalog: fixture.catalog, state })],
          checkpointer: new MemorySaver(),
        });
        const threadA = { configurable: { thread_id: 'thread-A' } };

        await agent.invoke({ messages: [new HumanMessage('Get the weather tool ready')] }, threadA);
        const second = await agent.invoke({ messages: [new HumanMessage('Weather in Rome?')] }, threadA);
        await agent.invoke({ messages: [new HumanMessage('Hi')] }, { configurable: { thread_id: 'thread-B' } });

        expect(model.offeredNames).toEqual([
          META, // A, turn 1: before the load
          [...META, 'get_weather'], // A, turn 1: after it
          [...META, 'get_weather'], // A, turn 2: still loaded
          [...META, 'get_weather'],
          META, // B: its own thread
        ]);
        expect(toolMessages(second.messages).at(-1)).toMatchObject({ name: 'get_weather', status: 'success' });
        expect(second.messages).toHaveLength(8); // both turns, from the checkpointer
        expect(fixture.runs.map((run) => run.input)).toEqual([{ city: 'Rome' }]);
        expect(loadedToolsOf(second)).toEqual(state === 'agent-state' ? ['get_weather'] : []);
      });
    },
  );

  it('agent-state: the checkpointer restores loaded tools in a new process; memory does not', async () => {
    const checkpointer = new MemorySaver();
    const thread = { configurable: { thread_id: 'restart' } };
    const firstModel = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolNames: ['get_weather', 'send_email'] }, id: 'load' }])
      .respond(new AIMessage({ id: 'first-answer', content: 'Ready.' }));
    const first = createAgent({
      model: firstModel,
      tools: [],
      middleware: [toolSearchMiddleware({ catalog: createFixtureTools().catalog, state: 'agent-state' })],
      checkpointer,
    });
    const turn1 = await first.invoke({ messages: [new HumanMessage('Prepare')] }, thread);
    expect(turn1[LOADED_TOOLS_STATE_KEY]).toEqual(['get_weather', 'send_email']);

    // A new agent and a new session (a restarted process), the same checkpointer.
    const secondModel = new RecordingFakeModel().respond(new AIMessage({ id: 'second-answer', content: 'Hi again.' }));
    const second = createAgent({
      model: secondModel,
      tools: [],
      middleware: [toolSearchMiddleware({ catalog: createFixtureTools().catalog, state: 'agent-state' })],
      checkpointer,
    });
    await second.invoke({ messages: [new HumanMessage('Go on')] }, thread);
    expect(secondModel.offeredNames).toEqual([[...META, 'get_weather', 'send_email']]);

    const memoryModel = new RecordingFakeModel().respond(new AIMessage({ id: 'memory-answer', content: 'Hi.' }));
    const memoryAgent = createAgent({
      model: memoryModel,
      tools: [],
      middleware: [toolSearchMiddleware({ catalog: createFixtureTools().catalog })],
      checkpointer,
    });
    await memoryAgent.invoke({ messages: [new HumanMessage('Go on')] }, thread);
    expect(memoryModel.offeredNames).toEqual([META]);
  });

  it('agent-state: tools can be pre-loaded through the agent input, still under the policy', async () => {
    const model = new RecordingFakeModel().respond(new AIMessage('Ready.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        toolSearchMiddleware({
          catalog: createFixtureTools().catalog,
          state: 'agent-state',
          filter: ({ phase, toolId }) => !(phase === 'active' && toolId === 'send_email'),
        }),
      ],
    });
    await agent.invoke({
      messages: [new HumanMessage('Hi')],
      [LOADED_TOOLS_STATE_KEY]: ['translate_text', 'send_email', 'no_such_tool'],
    });
    expect(model.offeredNames).toEqual([[...META, 'translate_text']]);
  });

  it('lets a catalog tool interrupt for a human and resume, through the session', async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'delete_repository' }, id: 'load' }])
      .respondWithTools([{ name: 'delete_repository', args: { repo: 'acme/old' }, id: 'delete' }])
      .respond(new AIMessage('Deleted acme/old.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog })],
      checkpointer: new MemorySaver(),
    });
    const thread = { configurable: { thread_id: 'hitl' } };

    const paused = await agent.invoke({ messages: [new HumanMessage('Delete acme/old')] }, thread);
    expect(paused.__interrupt__?.[0]?.value).toEqual({ action: 'delete_repository', repo: 'acme/old' });
    expect(toolMessages(paused.messages).map((message) => message.name)).toEqual(['load_tool']);
    expect(fixture.runs).toEqual([]);

    const resumed = await agent.invoke(new Command({ resume: 'approve' }), thread);
    expect(toolMessages(resumed.messages).at(-1)).toMatchObject({ name: 'delete_repository', status: 'success' });
    expect(toolMessages(resumed.messages).at(-1)!.text).toBe('Deleted acme/old.');
    expect(fixture.runs).toEqual([
      {
        tool: 'delete_repository',
        input: { repo: 'acme/old', decision: 'approve' },
        toolCallId: 'delete',
        context: undefined,
      },
    ]);
    expect(model.offeredNames).toEqual([META, [...META, 'delete_repository'], [...META, 'delete_repository']]);
  });

  it('proxy mode: call_tool runs a LangChain catalog tool, and the result answers the call_tool call', async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([
        {
          name: 'call_tool',
          args: { toolName: 'translate_text', arguments: { text: 'hello', language: 'French' } },
          id: 'proxy',
        },
      ])
      .respond(new AIMessage('Bonjour.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog, mode: 'proxy' })],
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage('Translate hello to French')] },
      { context: { locale: 'fr' } },
    );

    expect(model.offeredNames).toEqual([
      ['search_tools', 'describe_tool', 'call_tool'],
      ['search_tools', 'describe_tool', 'call_tool'],
    ]);
    expect(toolMessages(result.messages)).toHaveLength(1);
    expect(toolMessages(result.messages)[0]).toMatchObject({
      name: 'call_tool',
      tool_call_id: 'proxy',
      status: 'success',
    });
    expect(toolMessages(result.messages)[0]!.text).toBe('[French] hello');
    expect(fixture.runs).toEqual([
      {
        tool: 'translate_text',
        input: { text: 'hello', language: 'French' },
        toolCallId: 'proxy',
        context: { locale: 'fr' },
      },
    ]);
  });

  it('shares one session through a LangChainToolSearch: telemetry sees the thread and the resource id', async () => {
    const events: ToolSearchEvent[] = [];
    const search = new LangChainToolSearch({
      catalog: createFixtureTools().catalog,
      resourceId: (config) => (config.context as { userId?: string } | undefined)?.userId,
      onEvent: (event) => events.push(event),
    });
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'send_email' }, id: 'load' }])
      .respond(new AIMessage('Ready.'));
    const agent = createAgent({ model, tools: [], middleware: [toolSearchMiddleware(search)] });

    await agent.invoke(
      { messages: [new HumanMessage('Email')] },
      { configurable: { thread_id: 't-7' }, context: { userId: 'alice' } },
    );

    const load = events.find((event) => event.type === 'load');
    expect(load).toMatchObject({ threadId: 't-7', resourceId: 'alice', loaded: ['send_email'] });
    expect(await search.session.loadedTools({ threadId: 't-7', resourceId: 'alice' })).toHaveLength(1);
    expect(await search.session.loadedTools({ threadId: 't-7', resourceId: 'bob' })).toHaveLength(0);
  });

  it('refuses an agent tool that clashes with a direct tool or a meta-tool, naming it', async () => {
    const fixture = createFixtureTools();
    const impostor = createFixtureTools().getWeather; // same name, another object
    const agent = createAgent({
      model: new RecordingFakeModel().respond(new AIMessage('never')),
      tools: [impostor],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog.slice(1), tools: [fixture.getWeather] })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('Hi')] })).rejects.toThrow(
      /createAgent's tools include a tool named "get_weather"/,
    );
    const renamed = createAgent({
      model: new RecordingFakeModel().respond(new AIMessage('never')),
      tools: [fixture.calculator],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog, metaTools: { search: { name: 'calculator' } } })],
    });
    await expect(renamed.invoke({ messages: [new HumanMessage('Hi')] })).rejects.toThrow(
      /createAgent's tools include a tool named "calculator", and a toolscout meta-tool has that name/,
    );
  });

  it('accepts a catalog tool also registered with the agent, offering it only once loaded', async () => {
    const fixture = createFixtureTools();
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' }, id: 'load' }])
      .respond(new AIMessage('Ready.'));
    const agent = createAgent({
      model,
      tools: [fixture.getWeather],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog })],
    });
    await agent.invoke({ messages: [new HumanMessage('Hi')] });
    expect(model.offeredNames).toEqual([META, [...META, 'get_weather']]);
  });

  it('turns a failing state store into an error the model reads, not a crash of the agent', async () => {
    const store: LoadedToolStore = {
      get: async () => [],
      add: async () => {
        throw new Error('connection refused');
      },
      remove: async () => {},
      clear: async () => {},
      clearAll: async () => {},
    };
    const model = new RecordingFakeModel()
      .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' }, id: 'load' }])
      .respond(new AIMessage('The tool store is unavailable.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [toolSearchMiddleware({ catalog: createFixtureTools().catalog, state: store })],
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Weather')] },
      { configurable: { thread_id: 'store-down' } },
    );
    expect(toolMessages(result.messages)[0]).toMatchObject({ status: 'error', name: 'load_tool' });
    expect(toolMessages(result.messages)[0]!.text).toBe('Tool "load_tool" could not run: connection refused');
    expect((result.messages.at(-1) as AIMessage).text).toBe('The tool store is unavailable.');
  });

  it('rejects bad options with errors that name the option', () => {
    expect(() => toolSearchMiddleware({} as never)).toThrow(/catalog must be a ToolCatalog or an iterable/);
    expect(() => toolSearchMiddleware({ catalog: [], resourceId: 'alice' } as never)).toThrow(
      /resourceId must be a function/,
    );
    expect(() => toolSearchMiddleware({ catalog: [], state: 'disk' } as never)).toThrow(/state must be/);
    expect(() => toolSearchMiddleware(undefined as never)).toThrow(/needs options with a catalog/);
    const search = new LangChainToolSearch({ catalog: [], state: 'agent-state' });
    expect(() => search.toolNode()).toThrow(/agent-state/);
  });

  it('throws InvalidOptionError naming each bad option, its own and core’s alike', async () => {
    const bad: [string, Record<string, unknown> | undefined][] = [
      ['options', undefined],
      ['catalog', {}],
      ['catalog', { catalog: 42 }],
      ['tools', { catalog: [], tools: 'calculator' }],
      ['state', { catalog: [], state: 'disk' }],
      ['state', { catalog: [], state: null }],
      ['resourceId', { catalog: [], resourceId: 'alice' }],
      ['name', { catalog: [], name: '' }],
      ['name', { catalog: [], name: 7 }],
      ['mode', { catalog: [], mode: 'everything' }],
      ['filterTimeoutMs', { catalog: [], filterTimeoutMs: -1 }],
    ];
    for (const [option, options] of bad) {
      const error = thrown(() => toolSearchMiddleware(options as never));
      expect(InvalidOptionError.isInstance(error), `${option}: ${String(error)}`).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
    }
    expect(() => toolSearchMiddleware({ catalog: [], state: 'disk' } as never)).toThrow(
      /state must be 'memory', 'conversation', 'agent-state' or a LoadedToolStore; got a string/,
    );
    const agentState = new LangChainToolSearch({ catalog: [], state: 'agent-state' });
    const error = await agentState.toolsFor([]).catch((reason: unknown) => reason);
    expect(InvalidOptionError.isInstance(error) && error.option).toBe('state');
  });

  it('names the middleware after the name option', () => {
    expect(toolSearchMiddleware({ catalog: createFixtureTools().catalog }).name).toBe('toolscout');
    expect(toolSearchMiddleware({ catalog: createFixtureTools().catalog, name: 'tools-b' }).name).toBe('tools-b');
  });

  it.each([
    ['auto-load', [{ name: 'search_tools', args: { query: 'weather in a city' }, id: 'find' }]],
    ['catalog', [{ name: 'discover_tools', args: { toolNames: ['get_weather'] }, id: 'find' }]],
  ] as const)('agent-state, %s mode: the tools a meta-tool loaded go to the agent state', async (mode, calls) => {
    const model = new RecordingFakeModel()
      .respondWithTools([...calls])
      .respond(new AIMessage({ id: 'answer', content: 'Ready.' }));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        toolSearchMiddleware({
          catalog: createFixtureTools().catalog,
          state: 'agent-state',
          mode,
          search: { limit: 1 },
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather')] });
    expect(loadedToolsOf(result)).toEqual(['get_weather']);
    expect(model.offeredNames[1]).toContain('get_weather');
  });
});

/** What a function threw (fails the test when it returns). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
