import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import type { RequestContext } from '@mastra/core/request-context';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { Memory } from '@mastra/memory';
import { answer, call, load, search } from '@toolscout/conformance';
import type { ToolExecutionContext, ToolSearchEvent } from '@toolscout/core';
import type { ScriptedModel } from '@toolscout/test-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mastraModel, type RunMethod, requestContextOf, runTurn, scriptedModel } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import { ToolSearchProcessor } from './tool-search-processor.js';
import type { ToolSearchFilterArgs, ToolSearchProcessorOptions } from './tool-search-processor-options.js';

const META = ['search_tools', 'load_tool'];

function resultNames(output: unknown): string[] {
  return ((output as { results?: { name: string }[] }).results ?? []).map((result) => result.name);
}

function newAgent(
  processor: ToolSearchProcessor,
  scripted: ScriptedModel,
  extra: { tools?: Record<string, ReturnType<typeof createTool>>; memory?: Memory } = {},
) {
  return new Agent({
    id: 'assistant',
    name: 'Assistant',
    instructions: 'Find the tools you need, then use them.',
    model: mastraModel(scripted),
    inputProcessors: [processor],
    ...(extra.tools ? { tools: extra.tools } : {}),
    ...(extra.memory ? { memory: extra.memory } : {}),
  });
}

function newMemory() {
  return new Memory({ storage: new InMemoryStore(), options: { lastMessages: 40 } });
}

const methods: RunMethod[] = ['generate', 'stream'];

describe.each(methods)('ToolSearchProcessor in a Mastra agent (%s)', (method) => {
  it('searches, loads and calls a tool; the request context reaches the filter and the tool', async () => {
    const { tools, runs } = createMastraTools();
    const asked: ToolSearchFilterArgs[] = [];
    const processor = new ToolSearchProcessor({
      tools,
      search: { topK: 3 },
      filter: (args) => {
        asked.push(args);
        return true;
      },
    });
    const scripted = scriptedModel();
    const currentTime = createTool({
      id: 'current_time',
      description: 'The current time.',
      inputSchema: z.object({}),
      execute: async () => ({ time: '12:00' }),
    });
    const agent = newAgent(processor, scripted, { tools: { current_time: currentTime } });
    const requestContext = requestContextOf({ tenant: 'acme', mastra__threadId: `thread-basic-${method}` });

    await runTurn(agent, scripted, {
      method,
      prompt: 'What will the weather be in Oslo?',
      requestContext,
      script: [
        search('weather forecast for a city'),
        load('get_forecast'),
        call('get_forecast', { city: 'Oslo' }),
        answer(),
      ],
    });

    const offered = scripted.offered();
    expect(offered[0]).toEqual([...META, 'current_time']);
    expect(offered[1]).toEqual([...META, 'current_time']); // loaded tools appear from the next step
    expect(offered[2]).toEqual([...META, 'current_time', 'get_forecast']);
    expect(offered[3]).toEqual([...META, 'current_time', 'get_forecast']);
    const forecast = scripted.calls[2]!.tools!.find((tool) => tool.name === 'get_forecast') as { inputSchema: unknown };
    expect(forecast.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: {}, days: {} },
      required: ['city'],
    });

    const [searched, loaded, called] = scripted.results();
    expect(resultNames(searched!.output)[0]).toBe('get_forecast');
    expect(Object.keys((searched!.output as { results: object[] }).results[0]!)).toEqual([
      'name',
      'description',
      'score',
    ]);
    expect(loaded!.output).toEqual({
      success: true,
      message: 'Tool "get_forecast" loaded successfully. It will be available on your next turn.',
      toolName: 'get_forecast',
    });
    expect(called).toMatchObject({ toolName: 'get_forecast', isError: false, output: { city: 'Oslo', days: 3 } });
    // The session validated the input (zod default applied) and the tool saw Mastra's context.
    expect(runs).toEqual([
      { toolId: 'get_forecast', input: { city: 'Oslo', days: 3 }, tenant: 'acme', toolCallId: scripted.callIds[2] },
    ]);
    const callPhase = asked.find((args) => args.phase === 'call');
    // The policy is asked with the arguments as the model sent them, before validation.
    expect(callPhase).toMatchObject({
      toolName: 'get_forecast',
      threadId: `thread-basic-${method}`,
      input: { city: 'Oslo' },
    });
    expect(callPhase?.requestContext?.get('tenant')).toBe('acme');
    expect(callPhase?.tool).toBe(tools.getForecast);
  });

  it('hands an async filter the signal that aborts when it stops waiting (filterTimeoutMs)', async () => {
    const { tools } = createMastraTools();
    const signals: (AbortSignal | undefined)[] = [];
    const processor = new ToolSearchProcessor({
      tools,
      filterTimeoutMs: 50,
      filter: ({ signal }) => {
        signals.push(signal);
        return new Promise<boolean>(() => {}); // never answers
      },
    });
    const scripted = scriptedModel();
    await runTurn(newAgent(processor, scripted), scripted, {
      method,
      prompt: 'Weather?',
      requestContext: requestContextOf({ mastra__threadId: `thread-signal-${method}` }),
      script: [search('weather'), answer()],
    });
    expect(resultNames(scripted.results()[0]!.output)).toEqual([]); // fails closed
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
  });

  it('auto-loads what search_tools finds (search.autoLoad)', async () => {
    const { tools, runs } = createMastraTools();
    const processor = new ToolSearchProcessor({ tools, search: { autoLoad: true, topK: 2 } });
    const scripted = scriptedModel();
    const agent = newAgent(processor, scripted);
    await runTurn(agent, scripted, {
      method,
      prompt: 'Convert 10 EUR to USD',
      requestContext: requestContextOf({ mastra__threadId: `thread-auto-${method}` }),
      script: [
        search('convert currency exchange rate'),
        call('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }),
        answer(),
      ],
    });
    const offered = scripted.offered();
    expect(offered[0]).toEqual(['search_tools']);
    // Every hit was loaded: Mastra's auto-load result, with no `loaded` list.
    const output = scripted.results()[0]!.output as { results: { name: string }[]; message: string };
    expect(output.results.map((result) => result.name)).toContain('convert_currency');
    expect(output.message).toMatch(/^Found and loaded \d+ tool\(s\): .*convert_currency/);
    expect(offered[1]![0]).toBe('search_tools');
    expect(offered[1]).toContain('convert_currency');
    expect(offered[1]).not.toContain('load_tool');
    expect(runs.map((run) => run.toolId)).toEqual(['convert_currency']);
  });

  it("storage: 'context' keeps a load across two turns on one memory thread, and across a restart", async () => {
    const memory = newMemory();
    const thread = { thread: `thread-context-${method}`, resource: 'user-1' };
    const first = createMastraTools();
    const firstScripted = scriptedModel();
    const firstAgent = newAgent(new ToolSearchProcessor({ tools: first.tools, storage: 'context' }), firstScripted, {
      memory,
    });
    await runTurn(firstAgent, firstScripted, {
      method,
      prompt: 'I will need translations.',
      memory: thread,
      script: [load('translate_text'), answer()],
    });
    expect(firstScripted.offered()[1]).toEqual([...META, 'translate_text']);

    // A new processor and agent (a restart): nothing in memory but the conversation itself.
    const second = createMastraTools();
    const secondScripted = scriptedModel();
    const secondAgent = newAgent(new ToolSearchProcessor({ tools: second.tools, storage: 'context' }), secondScripted, {
      memory,
    });
    await runTurn(secondAgent, secondScripted, {
      method,
      prompt: 'Translate hello into French.',
      memory: thread,
      script: [call('translate_text', { text: 'hello', language: 'French' }), answer()],
    });
    expect(secondScripted.offered()[0]).toEqual([...META, 'translate_text']);
    expect(secondScripted.results()[0]).toMatchObject({ toolName: 'translate_text', isError: false });
    expect(second.runs.map((run) => run.toolId)).toEqual(['translate_text']);

    // Another thread of the same memory has loaded nothing.
    await runTurn(secondAgent, secondScripted, {
      method,
      prompt: 'Hello',
      memory: { thread: `thread-context-other-${method}`, resource: 'user-1' },
      script: [answer()],
    });
    expect(secondScripted.offered()[0]).toEqual(META);
  });

  it("storage: 'in-memory' keeps a load per memory thread until clearState", async () => {
    const memory = newMemory();
    const thread = { thread: `thread-memory-${method}`, resource: 'user-2' };
    const { tools } = createMastraTools();
    const processor = new ToolSearchProcessor({ tools, ttl: 60_000 });
    const scripted = scriptedModel();
    const agent = newAgent(processor, scripted, { memory });
    await runTurn(agent, scripted, {
      method,
      prompt: 'Weather tools please',
      memory: thread,
      script: [load('get_weather'), answer()],
    });
    await runTurn(agent, scripted, {
      method,
      prompt: 'Weather in Rome',
      memory: thread,
      script: [call('get_weather', { city: 'Rome' }), answer()],
    });
    expect(scripted.offered()[0]).toEqual([...META, 'get_weather']);
    expect(scripted.results()[0]).toMatchObject({ isError: false, output: { city: 'Rome' } });
    expect(processor.getStateStats()).toMatchObject({ threadCount: 1, oldestAccessTime: expect.any(Number) });

    await processor.clearState(thread.thread, thread.resource);
    await runTurn(agent, scripted, { method, prompt: 'Again', memory: thread, script: [answer()] });
    expect(scripted.offered()[0]).toEqual(META);
    expect(processor.getStateStats()).toEqual({ threadCount: 0, oldestAccessTime: null });
  });

  it("keeps the caller's activeTools for the agent's own tools, and adds its own", async () => {
    const { tools } = createMastraTools();
    const scripted = scriptedModel();
    const own = (id: string) =>
      createTool({ id, description: `The ${id} tool.`, inputSchema: z.object({}), execute: async () => ({ id }) });
    const agent = newAgent(new ToolSearchProcessor({ tools }), scripted, {
      tools: { current_time: own('current_time'), shutdown: own('shutdown') },
    });
    await runTurn(agent, scripted, {
      method,
      prompt: 'Weather',
      requestContext: requestContextOf({ mastra__threadId: `thread-active-${method}` }),
      options: { activeTools: ['current_time'] },
      script: [load('get_weather'), call('get_weather', { city: 'Lima' }), answer()],
    });
    expect(scripted.offered()[0]).toEqual([...META, 'current_time']);
    expect(scripted.offered()[1]).toEqual([...META, 'current_time', 'get_weather']);
    expect(scripted.results()[1]).toMatchObject({ isError: false, output: { city: 'Lima' } });
  });

  it("keeps the agent's own tool over a catalog tool of the same name (direct tools win)", async () => {
    const { tools, runs } = createMastraTools();
    const scripted = scriptedModel();
    const ownRuns: unknown[] = [];
    const sendEmail = createTool({
      id: 'send_email',
      description: "The agent's own mailer.",
      inputSchema: z.object({ to: z.string() }),
      execute: async (input) => {
        ownRuns.push(input);
        return { sent: true };
      },
    });
    const agent = newAgent(new ToolSearchProcessor({ tools }), scripted, { tools: { send_email: sendEmail } });
    await runTurn(agent, scripted, {
      method,
      prompt: 'Email bob',
      requestContext: requestContextOf({ mastra__threadId: `thread-own-${method}` }),
      script: [search('send an email'), load('send_email'), call('send_email', { to: 'bob@example.com' }), answer()],
    });
    for (const offered of scripted.offered()) expect(offered).toEqual([...META, 'send_email']);
    expect(scripted.descriptions(2).send_email).toBe("The agent's own mailer.");
    const [found, loaded, sent] = scripted.results();
    expect(resultNames(found!.output)).not.toContain('send_email');
    expect(loaded!.output).toMatchObject({ success: true, toolName: 'send_email' });
    expect(sent).toMatchObject({ isError: false, output: { sent: true } });
    expect(ownRuns).toEqual([{ to: 'bob@example.com' }]);
    expect(runs).toEqual([]);
  });
});

describe('approval of a loaded tool', () => {
  const setups: { method: RunMethod; storage: NonNullable<ToolSearchProcessorOptions['storage']> }[] = [
    { method: 'stream', storage: 'in-memory' },
    { method: 'stream', storage: 'context' },
    { method: 'generate', storage: 'in-memory' },
    { method: 'generate', storage: 'context' },
  ];

  it.each(setups)('resumes with the loaded tool ($method, storage $storage)', async ({ method, storage }) => {
    const { tools, runs } = createMastraTools();
    const scripted = scriptedModel();
    const events: ToolSearchEvent[] = [];
    const processor = new ToolSearchProcessor({ tools, storage, onEvent: (event) => events.push(event) });
    const store = new InMemoryStore();
    const mastra = new Mastra({
      agents: { assistant: newAgent(processor, scripted, { memory: new Memory({ storage: store }) }) },
      storage: store,
      logger: false,
    });
    const agent = mastra.getAgent('assistant');
    const requestContext = requestContextOf({ tenant: 'acme' });
    const memory = { thread: `thread-approval-${method}-${storage}`, resource: 'user-3' };
    const script = [load('delete_repository'), call('delete_repository', { repo: 'acme/old' })];
    scripted.play(script);

    let runId: string;
    let toolCallId: string | undefined;
    if (method === 'stream') {
      const output = await agent.stream('Delete acme/old', { requestContext, memory, maxSteps: 5 });
      for await (const chunk of output.fullStream) {
        if (chunk.type === 'tool-call-approval') toolCallId = (chunk.payload as { toolCallId: string }).toolCallId;
      }
      runId = output.runId;
    } else {
      const output = await agent.generate('Delete acme/old', { requestContext, memory, maxSteps: 5 });
      expect(output.finishReason).toBe('suspended');
      toolCallId = (output.suspendPayload as { toolCallId?: string } | undefined)?.toolCallId;
      runId = output.runId!;
    }
    expect(scripted.offered()[1]).toEqual([...META, 'delete_repository']);
    expect(toolCallId).toBe(scripted.callIds[1]);
    expect(runs).toEqual([]); // waiting for approval

    scripted.play([answer('Deleted.')]);
    let text: string;
    if (method === 'stream') {
      const resumed = await agent.approveToolCall({ runId, toolCallId: toolCallId!, requestContext, memory });
      for await (const _chunk of resumed.fullStream) {
        // run to the end
      }
      text = await resumed.text;
    } else {
      const resumed = await agent.approveToolCallGenerate({ runId, toolCallId: toolCallId!, requestContext, memory });
      text = resumed.text;
    }
    expect(text).toBe('Deleted.');
    expect(runs).toEqual([{ toolId: 'delete_repository', input: { repo: 'acme/old' }, tenant: 'acme', toolCallId }]);
    const prompt = scripted.calls[0]!.prompt;
    const toolResults = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(toolResults.find((part) => part.type === 'tool-result' && part.toolCallId === toolCallId)).toMatchObject({
      output: { type: 'json', value: { deleted: 'acme/old' } },
    });
    expect(events.filter((event) => event.type === 'call')).toMatchObject([{ toolId: 'delete_repository', ok: true }]);
    // One step event per model call (two before the approval, one after): a resume is not a step.
    expect(events.filter((event) => event.type === 'step')).toHaveLength(3);
  });
});

describe('tools from other sources', () => {
  it('searches MCP tools by their server and runs them with the request context', async () => {
    // The shape an MCPClient from @mastra/mcp returns: namespaced ids, JSON Schema, mcpMetadata.
    const calls: unknown[] = [];
    const createIssue = createTool({
      id: 'tracker_open_ticket',
      description: 'Open a ticket.',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } as never,
      mcp: { annotations: { destructiveHint: false } },
      execute: async (input: unknown, context: { requestContext?: RequestContext }) => {
        calls.push({ input, tenant: context?.requestContext?.get('tenant') });
        return { content: [{ type: 'text', text: '{"ticket":7}' }] };
      },
    });
    (createIssue as unknown as { mcpMetadata: object }).mcpMetadata = { serverName: 'jira', serverVersion: '1.0.0' };
    const processor = new ToolSearchProcessor({ tools: { tracker_open_ticket: createIssue } });
    expect(processor.session.catalog.get('tracker_open_ticket')).toMatchObject({
      source: 'jira',
      annotations: { destructiveHint: false },
    });
    const scripted = scriptedModel();
    const agent = newAgent(processor, scripted);
    await runTurn(agent, scripted, {
      prompt: 'File a jira ticket',
      requestContext: requestContextOf({ tenant: 'acme', mastra__threadId: 'thread-mcp' }),
      script: [search('jira'), load('tracker_open_ticket'), call('tracker_open_ticket', { title: 'Broken' }), answer()],
    });
    expect(resultNames(scripted.results()[0]!.output)).toEqual(['tracker_open_ticket']);
    expect(scripted.results()[2]).toMatchObject({ isError: false });
    expect(calls).toEqual([{ input: { title: 'Broken' }, tenant: 'acme' }]);
  });

  it('takes toolscout descriptors, alone or around a Mastra tool', async () => {
    const { tools, runs } = createMastraTools();
    const processor = new ToolSearchProcessor({
      tools: [
        { id: 'send_email', description: tools.sendEmail.description, tags: ['mail', 'inbox'], tool: tools.sendEmail },
        {
          id: 'ping',
          description: 'Check that a host answers.',
          inputSchema: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] },
          execute: (input: unknown, context: ToolExecutionContext) => ({
            input,
            tenant: (context.context as RequestContext).get('tenant'),
          }),
        },
      ],
    });
    const scripted = scriptedModel();
    const agent = newAgent(processor, scripted);
    await runTurn(agent, scripted, {
      prompt: 'Mail bob, ping example.com',
      requestContext: requestContextOf({ tenant: 'acme', mastra__threadId: 'thread-descriptors' }),
      script: [
        search('inbox'),
        load(['send_email', 'ping']),
        call('send_email', { to: 'bob@example.com', subject: 'Hi', body: 'Hello' }),
        call('ping', { host: 'example.com' }),
        answer(),
      ],
    });
    const results = scripted.results();
    expect(resultNames(results[0]!.output)).toEqual(['send_email']);
    expect(results[3]).toMatchObject({ isError: false, output: { input: { host: 'example.com' }, tenant: 'acme' } });
    expect(runs.map((run) => [run.toolId, run.tenant])).toEqual([['send_email', 'acme']]);
  });
});
