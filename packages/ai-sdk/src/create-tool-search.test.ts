import { ToolCatalog, type ToolSearchEvent } from '@toolscout/core';
import { InvalidOptionError, InvalidToolError, ToolCallFailedError } from '@toolscout/core/errors';
import { answer, callTool, ScriptedModel } from '@toolscout/test-kit';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  stepCountIs,
  streamText,
  type Tool,
  ToolLoopAgent,
  tool,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixtureTools } from '../test-utils/fixture-tools.js';
import { invalidOptionOf } from '../test-utils/invalid-option.js';
import { createToolSearch } from './create-tool-search.js';
import { fromAISDKTool, fromAISDKTools } from './from-ai-sdk-tool.js';

const META = ['search_tools', 'load_tool'];

describe('createToolSearch with generateText', () => {
  it('offers the meta-tools, then each loaded tool from the next step, and runs the calls', async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([
      callTool('search_tools', { query: 'weather in a city' }),
      callTool('load_tool', { toolName: 'get_weather' }),
      callTool('get_weather', { city: 'Paris' }),
      answer('It is 21°C and sunny in Paris.'),
    ]);
    const result = await generateText({
      model: model.mock,
      prompt: 'What is the weather in Paris?',
      stopWhen: stepCountIs(10),
      runtimeContext: { threadId: 'thread-1' },
      ...search,
    });

    expect(model.offered()).toEqual([META, META, [...META, 'get_weather'], [...META, 'get_weather']]);
    const found = model.lastToolResults(1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ toolName: 'search_tools', isError: false });
    expect((found[0]!.output as { results: { name: string }[] }).results[0]!.name).toBe('get_weather');
    expect(model.lastToolResults(2)[0]).toMatchObject({
      toolName: 'load_tool',
      output: { success: true, toolName: 'get_weather' },
    });
    expect(model.lastToolResults(3)[0]).toEqual({
      toolCallId: expect.any(String),
      toolName: 'get_weather',
      isError: false,
      output: { city: 'Paris', temperature: 21, conditions: 'sunny' },
    });
    // The AI SDK tool ran once, with the AI SDK's own call options.
    expect(executions).toEqual([{ name: 'get_weather', input: { city: 'Paris' }, toolCallId: 'call-3' }]);
    expect(result.text).toBe('It is 21°C and sunny in Paris.');
    // What the model is shown of a loaded tool: its description and its input schema.
    const offered = model.calls[2]!.tools!.find((entry) => entry.name === 'get_weather');
    expect(offered).toMatchObject({
      type: 'function',
      description: 'Get the current weather (temperature, wind, conditions) for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });

  it('keeps loads of parallel calls in one step, and offers tools in load order (a stable prefix)', async () => {
    const { tools } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'send_email' }),
      {
        type: 'calls',
        calls: [
          { toolName: 'load_tool', input: { toolName: 'get_weather' } },
          { toolName: 'load_tool', input: { toolNames: ['send_email', 'convert_currency'] } },
        ],
      },
      answer(),
    ]);
    await generateText({
      model: model.mock,
      prompt: 'Many things',
      stopWhen: stepCountIs(10),
      runtimeContext: { threadId: 't' },
      ...search,
    });
    expect(model.offered()).toEqual([
      META,
      [...META, 'send_email'],
      [...META, 'send_email', 'get_weather', 'convert_currency'],
    ]);
    const [first, second] = model.lastToolResults(2);
    expect(first!.output).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(second!.output).toMatchObject({ loaded: ['convert_currency'], alreadyLoaded: ['send_email'] });
  });

  it('shows the model the session error for a tool that is not loaded, under the name it called, and it recovers', async () => {
    const { tools, executions } = fixtureTools();
    const events: ToolSearchEvent[] = [];
    const search = createToolSearch({ catalog: tools, onEvent: (event) => events.push(event) });
    const model = new ScriptedModel([
      callTool('get_weather', { city: 'Oslo' }),
      callTool('load_tool', { toolName: 'get_weather' }),
      callTool('get_weather', { city: 'Oslo' }),
      answer(),
    ]);
    const result = await generateText({
      model: model.mock,
      prompt: 'Weather in Oslo',
      stopWhen: stepCountIs(10),
      ...search,
    });

    expect(model.offered()[0]).toEqual(META);
    expect(model.lastToolResults(1)).toEqual([
      {
        toolCallId: expect.any(String),
        toolName: 'get_weather',
        isError: true,
        output:
          'Tool "get_weather" is not loaded. Call load_tool with {"toolName":"get_weather"} first, then call it again.',
      },
    ]);
    expect(model.offered()[2]).toEqual([...META, 'get_weather']);
    expect(executions).toEqual([{ name: 'get_weather', input: { city: 'Oslo' }, toolCallId: 'call-3' }]);
    // The failed call is kept in the history as the model made it.
    const firstCall = result.steps[0]!.content.find((part) => part.type === 'tool-call');
    expect(firstCall).toMatchObject({ toolName: 'get_weather', input: { city: 'Oslo' }, invalid: true });
    expect(events.some((event) => event.type === 'self-correction' && event.kind === 'not-loaded')).toBe(true);
  });

  it('suggests the right name for a misspelt tool', async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([callTool('get_wether', { city: 'Rome' }), answer()]);
    await generateText({ model: model.mock, prompt: 'Weather', stopWhen: stepCountIs(5), ...search });
    const [result] = model.lastToolResults(1);
    expect(result).toMatchObject({ toolName: 'get_wether', isError: true });
    expect(result!.output).toMatch(/^Tool "get_wether" is not available\. Did you mean: get_weather/);
    expect(executions).toEqual([]);
  });

  it('still shows the session error when experimental_refineToolInput is not spread', async () => {
    const { tools } = fixtureTools();
    const { experimental_refineToolInput: _left, ...rest } = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([callTool('send_email', { to: 'a@b.c' }), answer()]);
    await generateText({ model: model.mock, prompt: 'Email', stopWhen: stepCountIs(5), ...rest });
    const [result] = model.lastToolResults(1);
    expect(result!.isError).toBe(true);
    expect(result!.output).toContain('Tool "send_email" is not loaded. Call load_tool');
  });

  it('reports invalid arguments and a failing tool to the model, and the loop goes on', async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([
      callTool('load_tool', { toolNames: ['get_forecast', 'fetch_stock_price'] }),
      callTool('get_forecast', { city: 'Rome', days: 'three' }),
      callTool('fetch_stock_price', { ticker: 'ACME' }),
      callTool('get_forecast', { city: 'Rome', days: 3 }),
      answer('Three days of sun.'),
    ]);
    const result = await generateText({ model: model.mock, prompt: 'Forecast', stopWhen: stepCountIs(10), ...search });
    const [invalid] = model.lastToolResults(2);
    expect(invalid).toMatchObject({ toolName: 'get_forecast', isError: true });
    expect(invalid!.output).toMatch(
      /^Invalid arguments for tool "get_forecast": days: .+Fix these fields and call it again\.$/,
    );
    const [failed] = model.lastToolResults(3);
    expect(failed).toEqual({
      toolCallId: expect.any(String),
      toolName: 'fetch_stock_price',
      isError: true,
      output: 'Tool "fetch_stock_price" failed: exchange API unreachable',
    });
    expect(executions.map((execution) => [execution.name, execution.input])).toEqual([
      ['fetch_stock_price', { ticker: 'ACME' }],
      ['get_forecast', { city: 'Rome', days: 3 }],
    ]);
    expect(result.text).toBe('Three days of sun.');
    // Callbacks see a ToolCallFailedError carrying the session's reason and the original error.
    const toolError = result.steps[2]!.content.find((part) => part.type === 'tool-error');
    expect(ToolCallFailedError.isInstance(toolError?.error)).toBe(true);
    expect((toolError!.error as ToolCallFailedError).reason).toBe('execution-failed');
    expect(((toolError!.error as ToolCallFailedError).cause as Error).message).toBe('exchange API unreachable');
  });

  it('hides what the policy refuses and lets the policy read the runtime context', async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({
      catalog: tools,
      filter: ({ toolId, phase, context }) =>
        !(toolId === 'delete_repository' && phase === 'load' && (context as { role?: string }).role !== 'admin'),
    });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'delete_repository' }),
      callTool('delete_repository', { repo: 'a/b' }),
      answer(),
    ]);
    await generateText({
      model: model.mock,
      prompt: 'Delete',
      stopWhen: stepCountIs(5),
      runtimeContext: { role: 'guest' },
      ...search,
    });
    expect(model.lastToolResults(1)[0]!.output).toMatchObject({
      success: false,
      toolName: 'delete_repository',
      message: expect.stringMatching(/^Tool "delete_repository" not found\./),
    });
    expect(model.offered()[1]).toEqual(META);
    expect(model.lastToolResults(2)[0]!.output).toMatch(/^Tool "delete_repository" is not available\./);
    expect(executions).toEqual([]);

    const admin = new ScriptedModel([callTool('load_tool', { toolName: 'delete_repository' }), answer()]);
    await generateText({
      model: admin.mock,
      prompt: 'Delete',
      stopWhen: stepCountIs(5),
      runtimeContext: { role: 'admin' },
      ...search,
    });
    expect(admin.offered()[1]).toEqual([...META, 'delete_repository']);
  });

  it('keeps two concurrent generations apart', async () => {
    const { tools } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const a = new ScriptedModel(
      [callTool('load_tool', { toolName: 'get_weather' }), callTool('get_weather', { city: 'Oslo' }), answer()],
      { callIdPrefix: 'a' },
    );
    const b = new ScriptedModel(
      [callTool('load_tool', { toolName: 'send_email' }), callTool('get_weather', { city: 'Oslo' }), answer()],
      { callIdPrefix: 'b' },
    );
    await Promise.all([
      generateText({
        model: a.mock,
        prompt: 'A',
        stopWhen: stepCountIs(5),
        runtimeContext: { threadId: 'a' },
        ...search,
      }),
      generateText({
        model: b.mock,
        prompt: 'B',
        stopWhen: stepCountIs(5),
        runtimeContext: { threadId: 'b' },
        ...search,
      }),
    ]);
    expect(a.offered()).toEqual([META, [...META, 'get_weather'], [...META, 'get_weather']]);
    expect(b.offered()).toEqual([META, [...META, 'send_email'], [...META, 'send_email']]);
    expect(a.lastToolResults(2)[0]!.isError).toBe(false);
    expect(b.lastToolResults(2)[0]!.output).toMatch(/^Tool "get_weather" is not loaded\./);
  });
});

describe('createToolSearch with streamText', () => {
  it('offers the same tools step by step while streaming', async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([
      callTool('search_tools', { query: 'convert money currency' }),
      callTool('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }),
      callTool('load_tool', { toolName: 'convert_currency' }),
      callTool('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }),
      answer('10 EUR is 10.80 USD.'),
    ]);
    const result = streamText({
      model: model.mock,
      prompt: 'Convert 10 EUR to USD',
      stopWhen: stepCountIs(10),
      runtimeContext: { threadId: 'stream-1' },
      ...search,
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);

    expect(model.mock.doGenerateCalls).toHaveLength(0);
    expect(model.offered()).toEqual([META, META, META, [...META, 'convert_currency'], [...META, 'convert_currency']]);
    expect(model.lastToolResults(2)[0]).toEqual({
      toolCallId: expect.any(String),
      toolName: 'convert_currency',
      isError: true,
      output:
        'Tool "convert_currency" is not loaded. Call load_tool with {"toolName":"convert_currency"} first, then call it again.',
    });
    expect(model.lastToolResults(4)[0]).toEqual({
      toolCallId: expect.any(String),
      toolName: 'convert_currency',
      isError: false,
      output: { amount: 10.8 },
    });
    expect(executions).toEqual([
      { name: 'convert_currency', input: { amount: 10, from: 'EUR', to: 'USD' }, toolCallId: 'call-4' },
    ]);
    expect(parts).toContain('tool-error');
    expect(await result.text).toBe('10 EUR is 10.80 USD.');
  });

  it('streams the preliminary outputs of a streaming tool, and the model reads its last one', async () => {
    const search = createToolSearch({
      catalog: {
        count_down: tool({
          description: 'Count down from a number, one step at a time.',
          inputSchema: z.object({ from: z.number() }),
          async *execute({ from }) {
            for (let n = from; n >= 0; n--) yield { remaining: n };
          },
        }),
      },
    });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'count_down' }),
      callTool('count_down', { from: 2 }),
      answer('Lift-off.'),
    ]);
    const result = streamText({ model: model.mock, prompt: 'Count down', stopWhen: stepCountIs(5), ...search });
    const outputs: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result' && part.toolName === 'count_down') outputs.push(part.output);
    }
    expect(outputs).toEqual([{ remaining: 2 }, { remaining: 1 }, { remaining: 0 }, { remaining: 0 }]);
    expect(model.lastToolResults(2)).toMatchObject([{ toolName: 'count_down', output: { remaining: 0 } }]);
  });
});

describe('createToolSearch across turns', () => {
  it('remembers loads per thread id in its store', async () => {
    const { tools } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const first = new ScriptedModel([callTool('load_tool', { toolName: 'get_weather' }), answer('Loaded.')]);
    const turn1 = await generateText({
      model: first.mock,
      prompt: 'Weather',
      stopWhen: stepCountIs(5),
      runtimeContext: { threadId: 'th' },
      ...search,
    });

    // The second turn sends only the new message: the store knows the thread.
    const second = new ScriptedModel([callTool('get_weather', { city: 'Rome' }), answer()]);
    await generateText({
      model: second.mock,
      prompt: 'And in Rome?',
      stopWhen: stepCountIs(5),
      runtimeContext: { threadId: 'th' },
      ...search,
    });
    expect(second.offered()[0]).toEqual([...META, 'get_weather']);
    expect(second.lastToolResults(1)[0]!.isError).toBe(false);

    // Another thread starts empty.
    const other = new ScriptedModel([answer()]);
    await generateText({ model: other.mock, prompt: 'Hi', runtimeContext: { threadId: 'other' }, ...search });
    expect(other.offered()[0]).toEqual(META);
    expect(turn1.responseMessages.length).toBeGreaterThan(0);
  });

  it('derives loads from the messages with the conversation strategy, across a restart and a trim', async () => {
    const { tools } = fixtureTools();
    const first = new ScriptedModel([callTool('load_tool', { toolName: 'send_email' }), answer('Ready.')]);
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Email bob' }];
    const turn1 = await generateText({
      model: first.mock,
      messages: prompt,
      stopWhen: stepCountIs(5),
      ...createToolSearch({ catalog: tools, state: 'conversation' }),
    });
    const history: ModelMessage[] = [...prompt, ...turn1.responseMessages, { role: 'user', content: 'Send it' }];

    // A new search (a restarted server) with nothing in memory reads the load from the messages.
    const restarted = createToolSearch({ catalog: tools, state: 'conversation' });
    const second = new ScriptedModel([
      callTool('send_email', { to: 'bob@example.com', subject: 'Hi', body: 'Hello' }),
      answer(),
    ]);
    await generateText({ model: second.mock, messages: history, stopWhen: stepCountIs(5), ...restarted });
    expect(second.offered()[0]).toEqual([...META, 'send_email']);
    expect(second.lastToolResults(1)[0]).toMatchObject({ isError: false, output: { sent: true } });

    // Once the load result is trimmed from the messages, the tool is no longer loaded.
    const trimmed = history.filter((message) => message.role !== 'tool' && message.role !== 'assistant');
    const third = new ScriptedModel([answer()]);
    await generateText({ model: third.mock, messages: trimmed, ...restarted });
    expect(third.offered()[0]).toEqual(META);
  });
});

describe('createToolSearch with tool approval', () => {
  it('runs an approved call in the next request, before any step, from what the messages loaded', async () => {
    const { tools, executions } = fixtureTools();
    const steps: unknown[] = [];
    const search = createToolSearch({
      catalog: { ...tools, get_weather: { ...tools.get_weather!, needsApproval: true } },
      onEvent: (event) => {
        if (event.type === 'step') steps.push(event.offered);
      },
    });
    const first = new ScriptedModel([
      callTool('load_tool', { toolName: 'get_weather' }),
      callTool('get_weather', { city: 'Oslo' }),
    ]);
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Weather in Oslo' }];
    const turn1 = await generateText({ model: first.mock, messages: prompt, stopWhen: stepCountIs(5), ...search });
    const request = turn1.finalStep.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(executions).toEqual([]);

    const second = new ScriptedModel([answer('It is sunny.')], { callIdPrefix: 'second' });
    const approval: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }],
    };
    steps.length = 0;
    await generateText({ model: second.mock, messages: [...prompt, ...turn1.responseMessages, approval], ...search });
    expect(executions).toEqual([{ name: 'get_weather', input: { city: 'Oslo' }, toolCallId: 'call-2' }]);
    // The step the approved call ran in was no model call: one `step` event, for the one model call.
    expect(steps).toEqual([[...META, 'get_weather']]);
    expect(second.lastToolResults(0)).toContainEqual({
      toolCallId: expect.any(String),
      toolName: 'get_weather',
      isError: false,
      output: { city: 'Oslo', temperature: 21, conditions: 'sunny' },
    });
  });
});

describe('createToolSearch with a ToolLoopAgent', () => {
  it('takes the thread id from call options through prepareCall', async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({ catalog: tools });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'get_weather' }),
      answer('Loaded.'),
      callTool('get_weather', { city: 'Lima' }),
      answer('Sunny.'),
    ]);
    const agent = new ToolLoopAgent({
      model: model.mock,
      ...search,
      callOptionsSchema: z.object({ threadId: z.string() }),
      prepareCall: ({ options, ...settings }) => ({ ...settings, runtimeContext: { threadId: options.threadId } }),
    });
    await agent.generate({ prompt: 'Load the weather tool', options: { threadId: 'agent-thread' } });
    const second = await agent.generate({ prompt: 'Weather in Lima?', options: { threadId: 'agent-thread' } });
    expect(model.offered()).toEqual([
      META,
      [...META, 'get_weather'],
      [...META, 'get_weather'],
      [...META, 'get_weather'],
    ]);
    expect(executions.map((execution) => execution.input)).toEqual([{ city: 'Lima' }]);
    expect(second.text).toBe('Sunny.');
  });
});

describe('createToolSearch: tools and options', () => {
  it('composes with your own prepareStep and repairToolCall', async () => {
    const { tools } = fixtureTools();
    const seenSteps: number[] = [];
    const search = createToolSearch({
      catalog: tools,
      prepareStep: ({ stepNumber }) => {
        seenSteps.push(stepNumber);
        // Narrow: no loading at the first step; keep a setting of our own.
        return stepNumber === 0 ? { activeTools: ['search_tools'], temperature: 0 } : { temperature: 0 };
      },
      repairToolCall: async ({ toolCall }) => ({ ...toolCall, input: JSON.stringify({ query: 'email' }) }),
    });
    const model = new ScriptedModel([callTool('search_tools', '{"query": "email'), answer()]);
    await generateText({ model: model.mock, prompt: 'Email', stopWhen: stepCountIs(5), ...search });
    expect(seenSteps).toEqual([0, 1]);
    expect(model.offered()).toEqual([['search_tools'], META]);
    expect(model.calls[0]!.temperature).toBe(0);
    // Input that is not JSON went to our repair, which fixed it.
    const [result] = model.lastToolResults(1);
    expect(result!.isError).toBe(false);
    expect((result!.output as { results: { name: string }[] }).results.map((hit) => hit.name)).toContain('send_email');
  });

  it('passes the tool context and toModelOutput of AI SDK tools through, and validates with zod once', async () => {
    const seen: unknown[] = [];
    const search = createToolSearch({
      catalog: {
        whoami: tool({
          description: 'Tell who the current user is.',
          inputSchema: z.object({ verbose: z.string().transform((value) => value === 'yes') }),
          contextSchema: z.object({ userId: z.string() }),
          execute: async (input, { context, toolCallId, messages }) => {
            seen.push({ input, context, toolCallId, messages: messages.length });
            return { userId: context.userId };
          },
          toModelOutput: ({ output }) => ({ type: 'text', value: `user ${output.userId}` }),
        }),
      },
    });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'whoami' }),
      callTool('whoami', { verbose: 'yes' }),
      answer(),
    ]);
    await generateText({
      model: model.mock,
      prompt: 'Who am I?',
      stopWhen: stepCountIs(5),
      toolsContext: { whoami: { userId: 'u-42' } },
      ...search,
    });
    expect(seen).toEqual([
      { input: { verbose: true }, context: { userId: 'u-42' }, toolCallId: 'call-2', messages: 3 },
    ]);
    expect(model.lastToolResults(2)[0]).toEqual({
      toolCallId: expect.any(String),
      toolName: 'whoami',
      isError: false,
      output: 'user u-42',
    });
    // The model saw the input side of the schema.
    const offered = model.calls[1]!.tools!.find((entry) => entry.name === 'whoami');
    expect(offered?.type === 'function' && offered.inputSchema).toMatchObject({
      properties: { verbose: { type: 'string' } },
    });
  });

  it('lists the catalog in the discovery tool of catalog mode, per step', async () => {
    const { tools } = fixtureTools();
    const search = createToolSearch({ catalog: tools, mode: 'catalog' });
    const model = new ScriptedModel([callTool('discover_tools', { toolNames: ['get_weather'] }), answer()]);
    await generateText({ model: model.mock, prompt: 'Weather', stopWhen: stepCountIs(5), ...search });
    const discovery = model.calls[0]!.tools![0]!;
    expect(discovery.name).toBe('discover_tools');
    expect(discovery.type === 'function' && discovery.description).toContain('- get_weather: Get the current weather');
    expect(model.offered()[1]).toEqual(['discover_tools', 'get_weather']);
  });

  it('names tools provider-safely and passes provider tools through, always active', async () => {
    const webSearch: Tool = {
      type: 'provider',
      id: 'mock.web_search',
      args: {},
      inputSchema: jsonSchema({ type: 'object' }),
      isProviderExecuted: true,
    };
    const search = createToolSearch({
      catalog: {
        'github.create-issue': tool({
          description: 'Create an issue in a GitHub repository.',
          inputSchema: z.object({ repo: z.string(), title: z.string() }),
          execute: async () => ({ created: true }),
        }),
      },
      tools: { web_search: webSearch },
    });
    const names = Object.keys(search.tools);
    const issueName = names.find((name) => name.startsWith('github'))!;
    expect(issueName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(search.tools.web_search).toBe(webSearch);
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'github.create-issue' }),
      callTool(issueName, { repo: 'a/b', title: 't' }),
      answer(),
    ]);
    await generateText({ model: model.mock, prompt: 'Issue', stopWhen: stepCountIs(5), ...search });
    // Every tool offered, provider tools included (the kit's offered() lists function tools only).
    expect(model.calls.map((call) => (call.tools ?? []).map((offered) => offered.name))).toEqual([
      [...META, 'web_search'],
      [...META, issueName, 'web_search'],
      [...META, issueName, 'web_search'],
    ]);
    expect(model.lastToolResults(2)[0]).toMatchObject({
      toolName: issueName,
      output: { created: true },
    });
  });

  it('follows a catalog that changes: a new spread has the new tool', async () => {
    const { tools } = fixtureTools();
    const catalog = new ToolCatalog<Tool>(fromAISDKTools(tools));
    const search = createToolSearch({ catalog: catalog });
    expect(search.tools.get_time).toBeUndefined();
    catalog.add(
      fromAISDKTool(
        'get_time',
        tool({
          description: 'Get the current time in a time zone.',
          inputSchema: z.object({ zone: z.string() }),
          execute: async () => '12:00',
        }),
        { pinned: true },
      ),
    );
    const model = new ScriptedModel([callTool('get_time', { zone: 'UTC' }), answer()]);
    await generateText({ model: model.mock, prompt: 'Time?', stopWhen: stepCountIs(5), ...search });
    expect(model.offered()[0]).toEqual([...META, 'get_time']);
    expect(model.lastToolResults(1)[0]).toEqual({
      toolCallId: expect.any(String),
      toolName: 'get_time',
      isError: false,
      output: '12:00',
    });
  });

  it('keeps session and dispose out of the spread', () => {
    const search = createToolSearch({ catalog: fixtureTools().tools });
    expect(Object.keys({ ...search }).sort()).toEqual([
      'experimental_refineToolInput',
      'prepareStep',
      'repairToolCall',
      'tools',
    ]);
    expect(search.session.catalog.size).toBe(6);
    search.dispose();
  });

  it('rejects unusable input with specific errors', () => {
    const { tools } = fixtureTools();
    const provider: Tool = {
      type: 'provider',
      id: 'mock.code',
      args: {},
      inputSchema: jsonSchema({ type: 'object' }),
      isProviderExecuted: true,
    };
    expect(() => createToolSearch({ catalog: { code: provider } })).toThrow(InvalidToolError);
    expect(() => createToolSearch({ catalog: { code: provider } })).toThrow(
      /provider tool \(mock\.code\).*tools option/,
    );
    expect(() => createToolSearch(42 as never)).toThrow(InvalidOptionError);
    expect(() => createToolSearch({ catalog: { search_tools: tools.get_weather! } })).toThrow(/like a meta-tool/);
    expect(() => createToolSearch({ catalog: tools, request: 'thread-1' as never })).toThrow(
      /request must be a function/,
    );
    expect(() => createToolSearch({ catalog: tools, tools: { get_weather: tools.get_weather! } })).toThrow(
      /both a direct tool/,
    );
    expect(() => createToolSearch({ catalog: tools, mode: 'magic' as never })).toThrow(/Unknown mode "magic"/);
    expect(invalidOptionOf(() => createToolSearch({ catalog: tools, tools: { get_weather: provider } }))).toBe('tools');
    expect(() => createToolSearch({ catalog: tools, tools: { load_tool: provider } })).toThrow(
      'The tool "load_tool" has the name of another tool; rename one.',
    );
  });

  it('takes one options object, and names each bad option in its InvalidOptionError', () => {
    const { tools } = fixtureTools();
    expect(invalidOptionOf(() => createToolSearch(null as never))).toBe('options');
    // The call of earlier versions, createToolSearch(tools): the searchable tools are `catalog` now.
    expect(invalidOptionOf(() => createToolSearch(tools as never))).toBe('catalog');
    expect(() => createToolSearch(tools as never)).toThrow(/catalog must be a record of AI SDK tools.*got undefined/);
    expect(() => createToolSearch(tools as never)).toThrow(/Give the tools as \{ catalog: tools \}/);
    expect(invalidOptionOf(() => createToolSearch({ catalog: 'tools' as never }))).toBe('catalog');
    expect(invalidOptionOf(() => createToolSearch({ catalog: tools, tools: 42 as never }))).toBe('tools');
    for (const name of ['request', 'prepareStep', 'repairToolCall', 'onStep', 'refineToolInput']) {
      expect(invalidOptionOf(() => createToolSearch({ catalog: tools, [name]: 7 }))).toBe(name);
    }
    expect(() => createToolSearch({ catalog: tools, refineToolInput: 7 as never })).toThrow(
      /refineToolInput must be a record of functions by tool name; got a number/,
    );
    expect(invalidOptionOf(() => createToolSearch({ catalog: tools, mode: 'magic' as never }))).toBe('mode');
    expect(invalidOptionOf(() => createToolSearch({ catalog: tools, search: { limit: 0 } }))).toBe('search.limit');
    expect(invalidOptionOf(() => createToolSearch({ catalog: tools, state: 'nope' as never }))).toBe('state');
  });

  it('fails the generation with a clear error when request() returns a bad thread id', async () => {
    const search = createToolSearch({ catalog: fixtureTools().tools, request: () => ({ threadId: 7 as never }) });
    const model = new ScriptedModel([answer()]);
    await expect(generateText({ model: model.mock, prompt: 'Hi', ...search })).rejects.toThrow(
      /request\(\) returned a threadId that must be a string; got a number/,
    );
    await expect(generateText({ model: model.mock, prompt: 'Hi', ...search })).rejects.toMatchObject({
      option: 'request',
    });
    const notAnObject = createToolSearch({ catalog: fixtureTools().tools, request: () => 'thread-1' as never });
    await expect(generateText({ model: model.mock, prompt: 'Hi', ...notAnObject })).rejects.toThrow(
      /request\(\) returned a value that must be an object; got a string/,
    );
  });
});

describe('createToolSearch: instructions, user messages, deferred and provider tools (issue #15)', () => {
  /** The system messages of each model call, in order. */
  const systemOf = (model: ScriptedModel) =>
    model.calls.map((call) => call.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])));

  it("tells the model about tool search after the caller's own instructions, once per step", async () => {
    const { tools } = fixtureTools();
    const search = createToolSearch({ catalog: tools, metaTools: { search: { name: 'find_tools' } } });
    const model = new ScriptedModel([callTool('load_tool', { toolName: 'get_weather' }), answer()]);
    await generateText({
      model: model.mock,
      instructions: 'You are terse.',
      prompt: 'Weather in Rome',
      stopWhen: stepCountIs(5),
      ...search,
    });
    const told = search.session.instructions!;
    expect(told).toContain('call find_tools with a keyword query');
    expect(systemOf(model)).toEqual([
      ['You are terse.', told],
      ['You are terse.', told],
    ]);
  });

  it("keeps the instructions of the caller's own prepareStep, and adds none with instructions: false", async () => {
    const { tools } = fixtureTools();
    const ownPrepareStep = () => ({ instructions: { role: 'system' as const, content: 'Step rules.' } });
    const told = createToolSearch({ catalog: tools, instructions: 'Search first.', prepareStep: ownPrepareStep });
    const model = new ScriptedModel([answer()]);
    await generateText({ model: model.mock, instructions: 'Ignored.', prompt: 'Hi', ...told });
    expect(systemOf(model)).toEqual([['Step rules.', 'Search first.']]);

    const silent = createToolSearch({ catalog: tools, instructions: false });
    const untold = new ScriptedModel([answer()]);
    await generateText({ model: untold.mock, instructions: 'You are terse.', prompt: 'Hi', ...silent });
    expect(systemOf(untold)).toEqual([['You are terse.']]);
  });

  it("offers the tool the user's message asks for at the first step (preselect), and runs it", async () => {
    const { tools, executions } = fixtureTools();
    const search = createToolSearch({ catalog: tools, preselect: { limit: 1 } });
    const email = { to: 'bob@example.com', subject: 'Hi', body: 'Hello' };
    const model = new ScriptedModel([callTool('send_email', email), answer()]);
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Send an email message to Bob' }] },
    ];
    await generateText({ model: model.mock, messages, stopWhen: stepCountIs(5), ...search });
    expect(model.offered()).toEqual([
      [...META, 'send_email'],
      [...META, 'send_email'],
    ]);
    expect(model.lastToolResults(1)[0]).toMatchObject({ toolName: 'send_email', isError: false });
    expect(executions).toEqual([{ name: 'send_email', input: email, toolCallId: 'call-1' }]);
  });

  it('loads a deferred tool, shows the model its resolved schema and runs its resolved execute', async () => {
    const { tools } = fixtureTools();
    const runs: unknown[] = [];
    let resolves = 0;
    const findContact = {
      id: 'crm_find_contact',
      description: 'Find a contact in the CRM by name.',
      resolve: async () => {
        resolves++;
        return {
          inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          execute: (input: unknown) => {
            runs.push(input);
            return { email: 'bob@example.com' };
          },
        };
      },
    };
    const search = createToolSearch({ catalog: [...fromAISDKTools(tools), findContact] });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'crm_find_contact' }),
      callTool('crm_find_contact', { name: 'Bob' }),
      answer(),
    ]);
    await generateText({
      model: model.mock,
      prompt: 'Find Bob',
      stopWhen: stepCountIs(5),
      runtimeContext: { threadId: 'thread-deferred' },
      ...search,
    });
    expect(model.offered()[1]).toEqual([...META, 'crm_find_contact']);
    const offered = model.calls[1]!.tools!.find((entry) => entry.name === 'crm_find_contact');
    expect(offered).toMatchObject({ inputSchema: { properties: { name: { type: 'string' } }, required: ['name'] } });
    expect(model.lastToolResults(2)[0]).toMatchObject({ isError: false, output: { email: 'bob@example.com' } });
    expect(runs).toEqual([{ name: 'Bob' }]);
    expect(resolves).toBe(1);
  });

  it('offers a tool loaded by its alias under it, and runs the tool', async () => {
    const { tools, executions } = fixtureTools();
    const weather = fromAISDKTool('get_weather', tools.get_weather!, { aliases: ['weather_now'] });
    const search = createToolSearch({ catalog: [weather] });
    const model = new ScriptedModel([
      callTool('load_tool', { toolName: 'weather_now' }),
      callTool('weather_now', { city: 'Oslo' }),
      answer(),
    ]);
    await generateText({ model: model.mock, prompt: 'Weather', stopWhen: stepCountIs(5), ...search });
    expect(model.offered()[1]).toEqual([...META, 'weather_now']);
    expect(model.lastToolResults(2)[0]).toMatchObject({ toolName: 'weather_now', isError: false });
    expect(executions).toEqual([{ name: 'get_weather', input: { city: 'Oslo' }, toolCallId: 'call-2' }]);
  });

  it('answers a load of a provider tool as available: the model has it already', async () => {
    const webSearch: Tool = {
      type: 'provider',
      id: 'mock.web_search',
      args: {},
      inputSchema: jsonSchema({ type: 'object' }),
      isProviderExecuted: true,
    };
    const search = createToolSearch({ catalog: fixtureTools().tools, tools: { web_search: webSearch } });
    const model = new ScriptedModel([callTool('load_tool', { toolName: 'web_search' }), answer()]);
    await generateText({ model: model.mock, prompt: 'Search the web', stopWhen: stepCountIs(5), ...search });
    expect(model.lastToolResults(1)[0]).toMatchObject({
      toolName: 'load_tool',
      output: { success: true, toolName: 'web_search' },
    });
  });
});
