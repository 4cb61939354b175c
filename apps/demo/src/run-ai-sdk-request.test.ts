import type { ToolDescriptor } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { requestOutcome } from './format-trace.js';
import { AGENT_INSTRUCTIONS, createAISDKSearch, runAISDKRequest } from './run-ai-sdk-request.js';
import { ScriptedLanguageModel } from './scripted-language-model.js';
import { TWO_TOOLS } from './test-utils/two-tools.js';

const catalog = TWO_TOOLS;

describe('runAISDKRequest', () => {
  it('runs the scripted MockLanguageModelV4 through generateText with the tool search', async () => {
    const search = createAISDKSearch(catalog);
    const trace = await runAISDKRequest('add 4 and 5', { search, filesDir: '/tmp/files', threadId: 't1' });
    expect(trace.steps.map((step) => step.offered)).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool', 'math__add'],
      ['search_tools', 'load_tool', 'math__add'],
    ]);
    expect(trace.steps[2]?.calls[0]).toMatchObject({
      toolName: 'math__add',
      input: { a: 4, b: 5 },
      result: { ok: true },
    });
    expect(trace.steps[3]?.answer).toBe('math__add answered: 4 + 5 = 9');
    expect(trace.steps[0]!.offeredTokens).toBeLessThan(trace.steps[2]!.offeredTokens);
    search.dispose();
  });

  it('records a real model the same way, and gives it the instructions (a stand-in model here: no network)', async () => {
    const search = createAISDKSearch(catalog);
    const standIn = new ScriptedLanguageModel({ filesDir: '/tmp/files', idPrefix: 'real' });
    const trace = await runAISDKRequest('add 4 and 5', {
      search,
      filesDir: '/tmp/files',
      threadId: 't2',
      model: standIn.mock,
    });
    expect(requestOutcome(trace)).toEqual({
      searched: true,
      loaded: 'math__add',
      called: 'math__add',
      callSucceeded: true,
    });
    const system = standIn.mock.doGenerateCalls[0]?.prompt[0];
    expect(system).toEqual({ role: 'system', content: `${AGENT_INSTRUCTIONS}/tmp/files` });
    expect(trace.steps.map((step) => step.calls.map((call) => call.toolName))).toEqual([
      ['search_tools'],
      ['load_tool'],
      ['math__add'],
      [],
    ]);
    search.dispose();
  });

  it('shows a failed call as it is, when the tool reports an error', async () => {
    const failing: ToolDescriptor[] = [
      {
        id: 'repo__create_issue',
        description: 'Create an issue in a repository',
        inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        execute: () => ({ content: [{ type: 'text', text: 'Authentication Failed: Bad credentials' }], isError: true }),
      },
    ];
    const search = createAISDKSearch(failing);
    const trace = await runAISDKRequest('create an issue titled "Build fails"', {
      search,
      filesDir: '/tmp/files',
      threadId: 't3',
    });
    expect(trace.steps[2]?.calls[0]).toMatchObject({ input: { title: 'Build fails' }, result: { ok: false } });
    expect(trace.steps[3]?.answer).toBe('repo__create_issue failed: Authentication Failed: Bad credentials');
    expect(requestOutcome(trace).callSucceeded).toBe(false);
    search.dispose();
  });
});
