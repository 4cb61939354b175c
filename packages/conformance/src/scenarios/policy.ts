import { TOOL_SEARCH_MODES } from '@toolscout/core';
import { expect } from 'vitest';
import { answer, call, load, resultNames, search, text } from '../harness.js';
import type { ScenarioName } from '../scenario-names.js';
import { hide, META, offered, resultOf, type ScenarioContext } from './context.js';
import { ATTEMPTS, expectGuarded, guardIn, POLICY_PHASES, type StepwiseMode } from './policy-attempts.js';

const PHASE_SCENARIOS: Readonly<Record<StepwiseMode, ScenarioName>> = {
  'search-load': 'policy: each phase refused, search-load mode',
  'auto-load': 'policy: each phase refused, auto-load mode',
  catalog: 'policy: each phase refused, catalog mode',
  proxy: 'policy: each phase refused, proxy mode',
};

/** The policy filter at every phase, in every mode: what it hides stays hidden, and it fails closed. */
export function policyScenarios({ scenario, agentWith, mode }: ScenarioContext): void {
  scenario('policy: search phase', true, async () => {
    const { agent } = await agentWith({ options: { filter: hide('search', 'createIssue'), search: { limit: 2 } } });
    const transcript = await agent.run({
      prompt: 'Open an issue',
      threadId: 'thread-policy-search',
      script: [search('github repository issue'), call('createIsue', { repo: 'a/b', title: 't' }), answer()],
    });
    const names = resultNames(resultOf(transcript, 0).output);
    expect(names).not.toContain('createIssue');
    expect(names).toHaveLength(2); // filled from lower-ranked allowed tools
    // Suggestions never name a tool the policy hides from search.
    const suggestion = resultOf(transcript, 1);
    expect(suggestion.isError).toBe(true);
    expect(text(suggestion.output)).not.toContain('createIssue');
  });

  scenario('policy: load phase', true, async () => {
    const { agent, executions } = await agentWith({ options: { filter: hide('load', 'delete_repository') } });
    const transcript = await agent.run({
      prompt: 'Delete the repo',
      threadId: 'thread-policy-load',
      script: [load('delete_repository'), call('delete_repository', { repo: 'a/b' }), answer()],
    });
    // Refused at load reads like not found (Mastra's single form), and never suggests itself.
    const refused = resultOf(transcript, 0).output as { message: string };
    expect(refused).toEqual({ success: false, message: expect.any(String), toolName: 'delete_repository' });
    expect(refused.message).toMatch(/^Tool "delete_repository" not found\./);
    expect(refused.message.split('delete_repository')).toHaveLength(2);
    expect(offered(transcript, 1)).toEqual(META);
    // Blocked reads like unknown: "not available", never "not loaded", and never suggests itself.
    const blocked = resultOf(transcript, 1);
    expect(blocked.isError).toBe(true);
    expect(text(blocked.output)).toMatch(/^Tool "delete_repository" is not available\./);
    expect(text(blocked.output).split('delete_repository')).toHaveLength(2);
    expect(text(blocked.output)).not.toContain('load_tool with');
    expect(executions).toEqual([]);
  });

  scenario('policy: active phase', true, async () => {
    const { agent } = await agentWith({
      options: {
        filter: (request) =>
          !(
            request.phase === 'active' &&
            request.toolId === 'send_email' &&
            (request.context as { role?: string } | undefined)?.role !== 'admin'
          ),
      },
    });
    const transcript = await agent.run({
      prompt: 'Email',
      threadId: 'thread-policy-active',
      context: { role: 'guest' },
      script: [load(['send_email', 'get_weather']), answer()],
    });
    expect(resultOf(transcript, 0).output).toMatchObject({ loaded: ['send_email', 'get_weather'] });
    expect(offered(transcript, 1)).toEqual([...META, 'get_weather']);
  });

  scenario('policy: call phase', true, async () => {
    const { agent, executions } = await agentWith({ options: { filter: hide('call', 'send_email') } });
    const transcript = await agent.run({
      prompt: 'Email',
      threadId: 'thread-policy-call',
      script: [load('send_email'), call('send_email', { to: 'a@b.c', subject: 's', body: 'b' }), answer()],
    });
    expect(offered(transcript, 1)).toEqual([...META, 'send_email']);
    expect(resultOf(transcript, 1).isError).toBe(true);
    expect(text(resultOf(transcript, 1).output)).toContain('not available');
    expect(executions).toEqual([]);
  });

  scenario('policy: throwing filter fails closed', true, async () => {
    const { agent, executions } = await agentWith({
      options: {
        filter: (request) => {
          if (request.toolId === 'get_weather') throw new Error('policy service down');
          return true;
        },
      },
    });
    const transcript = await agent.run({
      prompt: 'Weather',
      threadId: 'thread-policy-throw',
      script: [search('current weather city'), load('get_weather'), call('get_weather', { city: 'Rome' }), answer()],
    });
    expect(resultNames(resultOf(transcript, 0).output)).not.toContain('get_weather');
    expect(resultOf(transcript, 1).output).toMatchObject({ success: false, toolName: 'get_weather' });
    expect(resultOf(transcript, 2).isError).toBe(true);
    expect(executions).toEqual([]);
  });

  // One tool kept out in one phase at a time, tried every way the mode offers.
  // (code mode's policy: the 'code mode: a call the policy denies' scenario)
  for (const searchMode of TOOL_SEARCH_MODES.filter((each): each is StepwiseMode => each !== 'code')) {
    const supported = searchMode === 'search-load' || mode(searchMode);
    scenario(PHASE_SCENARIOS[searchMode], supported, async () => {
      for (const phase of POLICY_PHASES) {
        const { filter, asked } = guardIn(phase, 'deny');
        const { agent, executions } = await agentWith({ options: { mode: searchMode, filter } });
        const transcript = await agent.run({
          prompt: 'Email bob',
          threadId: `thread-refused-${searchMode}-${phase}`,
          script: ATTEMPTS[searchMode].script,
        });
        expectGuarded(searchMode, phase, { transcript, executions, asked });
      }
    });
  }

  scenario('policy: a filter that never answers fails closed', true, async () => {
    for (const phase of POLICY_PHASES) {
      const { filter, asked } = guardIn(phase, 'hang');
      const { agent, executions } = await agentWith({ options: { filter, filterTimeoutMs: 50 } });
      const started = Date.now();
      const transcript = await agent.run({
        prompt: 'Email bob',
        threadId: `thread-hung-policy-${phase}`,
        script: ATTEMPTS['search-load'].script,
      });
      // A guard against waiting the default 5 s (or forever) per operation; it takes well under 1 s.
      expect(Date.now() - started, phase).toBeLessThan(4_000);
      expectGuarded('search-load', phase, { transcript, executions, asked });
    }
  });
}
