// Issue #15: what a Mastra user relies on when swapping the import, each through a real Mastra agent
// with a scripted model: Mastra's documented behaviour, or the documented difference (README).
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { answer, call, load, search } from '@toolscout/conformance';
import type { ToolDescriptor } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import type { ScriptedModel } from '@toolscout/test-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mastraModel, requestContextOf, runTurn, scriptedModel } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import type { MastraTool } from './from-mastra-tools.js';
import { ToolSearchProcessor } from './tool-search-processor.js';

const META = ['search_tools', 'load_tool'];
const DEFAULT_INSTRUCTIONS =
  'To discover available tools, call search_tools with a keyword query. To add one or more tools to the conversation, call load_tool with a toolName or toolNames array. Tools must be loaded before they can be used.';

function agentOf(processor: ToolSearchProcessor, scripted: ScriptedModel, tools: Record<string, unknown> = {}) {
  return new Agent({
    id: 'drop-in',
    name: 'Drop-in',
    instructions: 'Be brief.',
    model: mastraModel(scripted),
    inputProcessors: [processor],
    tools: tools as never,
  });
}

const thread = (id: string) => requestContextOf({ mastra__threadId: id });
const names = (output: unknown) => ((output as { results?: { name: string }[] }).results ?? []).map((hit) => hit.name);
const systemTexts = (scripted: ScriptedModel, step: number) =>
  (scripted.calls[step]?.prompt ?? []).flatMap((message) => (message.role === 'system' ? [message.content] : []));

/** A CRM lookup tool as a request's toolset brings it; each instance records its runs under its own label. */
function crmLookup(label: string, runs: string[]) {
  return createTool({
    id: 'crm_lookup',
    description: 'Look up a customer record in the CRM by email.',
    inputSchema: z.object({ email: z.string() }),
    execute: async ({ email }) => {
      runs.push(`${label}:${email}`);
      return { customer: email };
    },
  });
}

describe('(1) includeResolvedTools: the request’s tools are searchable in that request', () => {
  it('withholds them until loaded, runs the current request’s instance, and keeps a load for the next request', async () => {
    const { tools } = createMastraTools();
    const processor = new ToolSearchProcessor({ tools, includeResolvedTools: true });
    const scripted = scriptedModel();
    const agent = agentOf(processor, scripted);
    const runs: string[] = [];
    await runTurn(agent, scripted, {
      prompt: 'Who is bob@example.com?',
      requestContext: thread('thread-resolved'),
      options: { toolsets: { crm: { crm_lookup: crmLookup('first', runs) } } },
      script: [search('crm customer lookup'), load('crm_lookup'), call('crm_lookup', { email: 'bob@x.io' }), answer()],
    });
    expect(scripted.offered()[0]).toEqual(META);
    expect(names(scripted.results()[0]!.output)).toContain('crm_lookup');
    expect(scripted.offered()[2]).toEqual([...META, 'crm_lookup']);
    expect(scripted.results()[2]).toMatchObject({ isError: false, output: { customer: 'bob@x.io' } });

    // The next request brings its own instance (other credentials, say): the load is kept, the new one runs.
    await runTurn(agent, scripted, {
      prompt: 'And alice@example.com?',
      requestContext: thread('thread-resolved'),
      options: { toolsets: { crm: { crm_lookup: crmLookup('second', runs) } } },
      script: [call('crm_lookup', { email: 'alice@x.io' }), answer()],
    });
    expect(scripted.offered()[0]).toEqual([...META, 'crm_lookup']);
    expect(runs).toEqual(['first:bob@x.io', 'second:alice@x.io']);
  });

  it('leaves the request’s tools out of other requests, and offers them as they are without the option', async () => {
    const { tools } = createMastraTools();
    const scripted = scriptedModel();
    const agent = agentOf(new ToolSearchProcessor({ tools, includeResolvedTools: true }), scripted);
    await runTurn(agent, scripted, { prompt: 'Customer?', script: [search('crm customer lookup'), answer()] });
    expect(names(scripted.results()[0]!.output)).not.toContain('crm_lookup');

    const plain = scriptedModel();
    const offering = agentOf(new ToolSearchProcessor({ tools }), plain);
    await runTurn(offering, plain, {
      prompt: 'Customer?',
      options: { toolsets: { crm: { crm_lookup: crmLookup('plain', []) } } },
      script: [answer()],
    });
    expect(plain.offered()[0]).toEqual([...META, 'crm_lookup']);
  });
});

describe('(3) the agent’s own tools, and the tools the processor loaded before', () => {
  it('tells the agent’s own tools from the loaded tools Mastra hands back at the next request', async () => {
    const { tools } = createMastraTools();
    const processor = new ToolSearchProcessor({ tools });
    const scripted = scriptedModel();
    const agent = agentOf(processor, scripted, { translate: tools.translateText });
    const loadedAtStep: string[][] = [];
    processor.session.subscribe((event) => {
      if (event.type === 'step') loadedAtStep.push(event.loaded);
    });
    await runTurn(agent, scripted, {
      prompt: 'Weather',
      requestContext: thread('thread-next-request'),
      script: [load('get_weather'), answer()],
    });
    loadedAtStep.length = 0;
    // Mastra adds the loaded tools to the next request's tools; they stay the session's, not the agent's.
    await runTurn(agent, scripted, {
      prompt: 'Weather again',
      requestContext: thread('thread-next-request'),
      script: [search('current weather'), answer()],
    });
    expect(scripted.offered()[0]).toEqual([...META, 'translate', 'get_weather']);
    expect(loadedAtStep[0]).toEqual(['get_weather']);
    expect(names(scripted.results()[0]!.output)).toContain('get_weather');
  });
});

describe('(2) record keys that differ from the tool id', () => {
  it('loads the tool by its key and offers it under that key; search shows the id', async () => {
    const runs: unknown[] = [];
    const issue = createTool({
      id: 'github_create_issue',
      description: 'Create an issue in a GitHub repository.',
      inputSchema: z.object({ title: z.string() }),
      execute: async (input) => {
        runs.push(input);
        return { number: 7 };
      },
    });
    const scripted = scriptedModel();
    const agent = agentOf(new ToolSearchProcessor({ tools: { createIssue: issue } }), scripted);
    await runTurn(agent, scripted, {
      prompt: 'File a bug',
      requestContext: thread('thread-key'),
      script: [
        search('create issue'),
        load('createIssue'),
        call('createIssue', { title: 'Bug' }),
        load('github_create_issue'),
        answer(),
      ],
    });
    const [found, loaded, called, again] = scripted.results();
    expect(names(found!.output)).toEqual(['github_create_issue']);
    expect(loaded!.output).toMatchObject({ success: true, toolName: 'createIssue' });
    expect(scripted.offered()[2]).toEqual([...META, 'createIssue']);
    expect(called).toMatchObject({ isError: false, output: { number: 7 } });
    expect(runs).toEqual([{ title: 'Bug' }]);
    // Difference: Mastra would offer the tool a second time under its id; toolscout offers it once.
    expect(again!.output).toMatchObject({ success: true, toolName: 'createIssue' });
    expect(scripted.offered()[4]).toEqual([...META, 'createIssue']);
  });
});

describe('(4) the system message about tool search', () => {
  it("reaches the model once per request in Mastra's words; custom text or none with `instructions`", async () => {
    const { tools } = createMastraTools();
    const scripted = scriptedModel();
    await runTurn(agentOf(new ToolSearchProcessor({ tools }), scripted), scripted, {
      prompt: 'Weather',
      script: [load('get_weather'), answer()],
    });
    for (const step of [0, 1]) {
      expect(systemTexts(scripted, step).filter((text) => text === DEFAULT_INSTRUCTIONS)).toHaveLength(1);
    }

    const auto = scriptedModel();
    await runTurn(agentOf(new ToolSearchProcessor({ tools, search: { autoLoad: true } }), auto), auto, {
      prompt: 'Weather',
      script: [answer()],
    });
    expect(systemTexts(auto, 0).join('\n')).toContain('Matching tools are loaded automatically');

    const custom = scriptedModel();
    const told = new ToolSearchProcessor({ tools, instructions: 'Search before you answer.' });
    await runTurn(agentOf(told, custom), custom, { prompt: 'Hi', script: [answer()] });
    expect(systemTexts(custom, 0)).toContain('Search before you answer.');
    const silent = scriptedModel();
    await runTurn(agentOf(new ToolSearchProcessor({ tools, instructions: false }), silent), silent, {
      prompt: 'Hi',
      script: [answer()],
    });
    expect(systemTexts(silent, 0)).toEqual(['Be brief.']);
  });
});

describe("(5)/(6) Mastra's result shapes, and the model's empty calls as results", () => {
  it('answers in both load shapes, leaves empty lists out, and never throws for an empty call', async () => {
    const { tools } = createMastraTools();
    const scripted = scriptedModel();
    await runTurn(agentOf(new ToolSearchProcessor({ tools }), scripted), scripted, {
      prompt: 'Weather',
      requestContext: thread('thread-shapes'),
      script: [
        search(''),
        { type: 'calls', calls: [{ toolName: 'load_tool', input: { toolNames: [] } }] },
        { type: 'calls', calls: [{ toolName: 'load_tool', input: {} }] },
        load('no_such_tool'),
        load(['get_weather', 'no_such_tool']),
        load('get_weather'),
        answer(),
      ],
    });
    const outputs = scripted.results().map((result) => result.output);
    expect(scripted.results().every((result) => !result.isError)).toBe(true);
    expect(outputs[0]).toEqual({ results: [], message: 'No tools found matching "". Try different keywords.' });
    expect(outputs[1]).toEqual({ success: false, message: 'toolNames array must not be empty.' });
    expect(outputs[2]).toMatchObject({ success: false, message: expect.stringContaining('You must provide either') });
    expect(outputs[3]).toMatchObject({ success: false, toolName: 'no_such_tool' });
    expect(outputs[3]).not.toHaveProperty('loaded');
    expect(outputs[4]).toMatchObject({ success: false, loadedCount: 1, loaded: ['get_weather'] });
    expect(outputs[4]).not.toHaveProperty('alreadyLoaded');
    expect(outputs[5]).toEqual({
      success: true,
      message: 'Tool "get_weather" is already loaded and available.',
      toolName: 'get_weather',
    });
  });
});

describe('(7)/(8) documented differences', () => {
  it('rejects a Mastra minScore above 1 (raw BM25) with the fix in the message', () => {
    const { tools } = createMastraTools();
    expect(() => new ToolSearchProcessor({ tools, search: { minScore: 5 } })).toThrow(InvalidOptionError);
    expect(() => new ToolSearchProcessor({ tools, search: { minScore: 5 } })).toThrow(/try 0\.1 to 0\.3/);
  });

  it('keeps the loads of a request without a thread to that request', async () => {
    const { tools } = createMastraTools();
    const scripted = scriptedModel();
    const agent = agentOf(new ToolSearchProcessor({ tools }), scripted);
    await runTurn(agent, scripted, { prompt: 'Weather', script: [load('get_weather'), answer()] });
    expect(scripted.offered()[1]).toEqual([...META, 'get_weather']);
    await runTurn(agent, scripted, { prompt: 'Weather', script: [answer()] });
    expect(scripted.offered()[0]).toEqual(META); // Mastra shares one 'default' entry here
  });
});

describe('preselect and deferred tools', () => {
  it("offers the tool the user's message asks for at the first step, without a search", async () => {
    const { tools, runs } = createMastraTools();
    const scripted = scriptedModel();
    const processor = new ToolSearchProcessor({ tools, preselect: { limit: 1 } });
    await runTurn(agentOf(processor, scripted), scripted, {
      prompt: 'Convert 10 euros to dollars at the current exchange rate',
      requestContext: thread('thread-preselect'),
      script: [call('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }), answer()],
    });
    expect(scripted.offered()[0]).toEqual([...META, 'convert_currency']);
    expect(runs.map((run) => run.toolId)).toEqual(['convert_currency']);
  });

  it('takes a selector (an LLM classifier, say) with the user message', async () => {
    const { tools } = createMastraTools();
    const asked: string[] = [];
    const select = (message: string) => {
      asked.push(message);
      return ['translate_text'];
    };
    const scripted = scriptedModel();
    await runTurn(agentOf(new ToolSearchProcessor({ tools, preselect: { select } }), scripted), scripted, {
      prompt: 'Say hello in French',
      script: [answer()],
    });
    expect(asked).toEqual(['Say hello in French']);
    expect(scripted.offered()[0]).toEqual([...META, 'translate_text']);
  });

  it('loads a deferred tool (resolved on load, once) and runs it with the resolved executor', async () => {
    const resolved: string[] = [];
    const deferred: ToolDescriptor<MastraTool> = {
      id: 'crm_find_contact',
      description: 'Find a contact in the CRM by name.',
      resolve: async ({ toolId }) => {
        resolved.push(toolId);
        return {
          inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          execute: (input) => ({ found: input }),
        };
      },
    };
    const { tools } = createMastraTools();
    const scripted = scriptedModel();
    const processor = new ToolSearchProcessor({ tools: [...Object.values(tools), deferred] });
    await runTurn(agentOf(processor, scripted), scripted, {
      prompt: 'Find Bob',
      requestContext: thread('thread-deferred'),
      script: [
        search('find crm contact'),
        load('crm_find_contact'),
        call('crm_find_contact', { name: 'Bob' }),
        answer(),
      ],
    });
    expect(resolved).toEqual(['crm_find_contact']);
    expect(scripted.offered()[2]).toEqual([...META, 'crm_find_contact']);
    const offered = scripted.calls[2]!.tools!.find((tool) => tool.name === 'crm_find_contact') as {
      inputSchema: unknown;
    };
    expect(offered.inputSchema).toMatchObject({ required: ['name'] });
    expect(scripted.results()[2]).toMatchObject({ isError: false, output: { found: { name: 'Bob' } } });
  });
});
