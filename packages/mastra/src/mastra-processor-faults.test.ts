// Faults of Mastra's own ToolSearchProcessor (@mastra/core 1.71) that this one must not have. Each
// scenario below reproduces with Mastra's processor; every test runs it against this adapter, through
// a real Mastra agent.
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { Memory } from '@mastra/memory';
import { answer, call, load, search } from '@toolscout/conformance';
import { DuplicateToolError } from '@toolscout/core/errors';
import type { ScriptedModel } from '@toolscout/test-kit';
import { tool as aiTool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mastraModel, requestContextOf, runTurn, scriptedModel } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import { ToolSearchProcessor } from './tool-search-processor.js';

const META = ['search_tools', 'load_tool'];

function resultNames(output: unknown): string[] {
  return ((output as { results?: { name: string }[] }).results ?? []).map((result) => result.name);
}

function agentWith(processor: ToolSearchProcessor, scripted: ScriptedModel, memory?: Memory) {
  return new Agent({
    id: 'faults',
    name: 'Faults',
    instructions: 'Use tools.',
    model: mastraModel(scripted),
    inputProcessors: [processor],
    ...(memory ? { memory } : {}),
  });
}

function threadContext(threadId: string) {
  return requestContextOf({ mastra__threadId: threadId });
}

function simpleTool(id: string, description: string, runs: string[]) {
  return createTool({
    id,
    description,
    inputSchema: z.object({}),
    execute: async () => {
      runs.push(id);
      return { ran: id };
    },
  });
}

describe("faults of Mastra's ToolSearchProcessor, run against this adapter", () => {
  it("does not count a search result as a load with storage: 'context' (mastra-ai/mastra#19145)", async () => {
    const { tools } = createMastraTools();
    const memory = new Memory({ storage: new InMemoryStore(), options: { lastMessages: 40 } });
    const scripted = scriptedModel();
    const agent = agentWith(new ToolSearchProcessor({ tools, storage: 'context' }), scripted, memory);
    const thread = { thread: 'thread-19145', resource: 'user' };

    await runTurn(agent, scripted, {
      prompt: 'Find weather tools',
      memory: thread,
      script: [search('weather'), answer()],
    });
    expect(resultNames(scripted.results()[0]!.output)).toContain('get_weather');
    expect(scripted.offered()[1]).toEqual(META);

    // The search result is now in the thread's messages, recalled from memory: still not a load.
    await runTurn(agent, scripted, { prompt: 'And now?', memory: thread, script: [answer()] });
    expect(scripted.offered()[0]).toEqual(META);
  });

  it('rejects two tools that share an id instead of loading one for the other', () => {
    const runs: string[] = [];
    const attempt = () =>
      new ToolSearchProcessor({
        tools: {
          billingInvoice: simpleTool('send', 'Send an invoice to a customer.', runs),
          accountDeletion: simpleTool('send', 'Send an account deletion request.', runs),
        },
      });
    expect(attempt).toThrow(DuplicateToolError);
    expect(attempt).toThrow(/"send".*billingInvoice.*accountDeletion/);
  });

  it('loads exactly the tool search found when one tool id is another tool key', async () => {
    // Mastra's processor indexes `b` (the invoice tool's id) but load_tool('b') takes the tool under
    // the key `b`: the account deletion tool.
    const runs: string[] = [];
    const processor = new ToolSearchProcessor({
      tools: {
        a: simpleTool('b', 'Send an invoice to a customer.', runs),
        b: simpleTool('c', 'Delete a customer account for good.', runs),
      },
    });
    const scripted = scriptedModel();
    await runTurn(agentWith(processor, scripted), scripted, {
      prompt: 'Invoice the customer',
      requestContext: threadContext('thread-crossover'),
      script: [search('invoice'), load('b'), call('b', {}), answer()],
    });
    expect(resultNames(scripted.results()[0]!.output)).toEqual(['b']);
    const offered = scripted.calls[2]!.tools!.find((tool) => tool.name === 'b') as { description?: string };
    expect(offered.description).toBe('Send an invoice to a customer.');
    expect(scripted.offered()[2]).not.toContain('c');
    expect(runs).toEqual(['b']);
  });

  it('ranks the tool whose id is the query first, even at topK: 1', async () => {
    const runs: string[] = [];
    const processor = new ToolSearchProcessor({
      tools: {
        get_weather: simpleTool('get_weather', 'Get the current weather for a city.', runs),
        get_weather_forecast: simpleTool(
          'get_weather_forecast',
          'Get the weather forecast: weather for the next days, weather alerts, get weather trends.',
          runs,
        ),
      },
      search: { topK: 1 },
    });
    const scripted = scriptedModel();
    await runTurn(agentWith(processor, scripted), scripted, {
      prompt: 'Current weather',
      requestContext: threadContext('thread-topk'),
      script: [search('get_weather'), search('get_weather_forecast'), answer()],
    });
    const [exact, longer] = scripted.results();
    expect(resultNames(exact!.output)).toEqual(['get_weather']);
    expect(resultNames(longer!.output)).toEqual(['get_weather_forecast']);
  });

  it('keeps a tool without an id: it is known by its key, found, loaded and run', async () => {
    const seen: unknown[] = [];
    const translate = aiTool({
      description: 'Translate text into another language.',
      inputSchema: z.object({ text: z.string(), language: z.string() }),
      execute: async (input, options) => {
        seen.push({ input, toolCallId: options.toolCallId, hasMessages: Array.isArray(options.messages) });
        return { translation: `[${input.language}] ${input.text}` };
      },
    });
    const processor = new ToolSearchProcessor({ tools: { translate } });
    const scripted = scriptedModel();
    await runTurn(agentWith(processor, scripted), scripted, {
      prompt: 'Say hello in French',
      requestContext: threadContext('thread-no-id'),
      script: [
        search('translate text'),
        load('translate'),
        call('translate', { text: 'hello', language: 'French' }),
        answer(),
      ],
    });
    const [found, , ran] = scripted.results();
    expect(resultNames(found!.output)).toEqual(['translate']);
    expect(ran).toMatchObject({ isError: false, output: { translation: '[French] hello' } });
    expect(seen).toEqual([
      { input: { text: 'hello', language: 'French' }, toolCallId: scripted.callIds[2], hasMessages: true },
    ]);
  });

  it('finds createIssue for "create issue" (camelCase is split)', async () => {
    const runs: string[] = [];
    const processor = new ToolSearchProcessor({
      tools: {
        createIssue: simpleTool('createIssue', 'Open a new ticket in a GitHub repository.', runs),
        listRepos: simpleTool('listRepos', 'List the repositories of an organisation.', runs),
      },
    });
    const scripted = scriptedModel();
    await runTurn(agentWith(processor, scripted), scripted, {
      prompt: 'Create an issue',
      requestContext: threadContext('thread-camel'),
      script: [search('create issue'), answer()],
    });
    expect(resultNames(scripted.results()[0]!.output)[0]).toBe('createIssue');
  });
});
