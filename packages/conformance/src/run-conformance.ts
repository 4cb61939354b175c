import { type PolicyRequest, TOOL_SEARCH_MODES, type ToolSearchMode } from '@toolscout/core';
import { DuplicateToolError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { createFixtureCatalog } from './fixtures.js';
import {
  type AgentSetup,
  answer,
  type ConformanceHarness,
  call,
  type HarnessAgent,
  load,
  parallel,
  resultNames,
  search,
  type Transcript,
  text,
} from './harness.js';
import { ATTEMPTS, expectGuarded, guardIn, POLICY_PHASES } from './policy-scenarios.js';

/** What an adapter supports; scenarios that need more are skipped, and the skip says why. */
export interface ConformanceCapabilities {
  /** The modes the adapter supports besides `search-load` (which every adapter must). */
  modes?: Partial<Record<Exclude<ToolSearchMode, 'search-load'>, boolean>>;
  /** The adapter can run a turn from a history returned by an earlier turn (and a new agent). */
  history?: boolean;
  /** The harness implements `trimHistory`. */
  trimHistory?: boolean;
}

export const SCENARIOS = [
  'search, load, call',
  'a search result is not a load',
  'a search result is not a load (conversation strategy)',
  'auto-load',
  'catalog mode',
  'catalog mode without lazy tools',
  'proxy mode',
  'loading several, some not found',
  'undiscovered tool call self-corrects',
  'unknown tool call gets suggestions',
  'policy: search phase',
  'policy: load phase',
  'policy: active phase',
  'policy: call phase',
  'policy: throwing filter fails closed',
  'policy: each phase refused, search-load mode',
  'policy: each phase refused, auto-load mode',
  'policy: each phase refused, catalog mode',
  'policy: each phase refused, proxy mode',
  'policy: a filter that never answers fails closed',
  'a huge tool name is refused, quoted cut',
  'threads are isolated',
  'conversation strategy across a restart',
  'conversation strategy after the load result is trimmed',
  'pinned tools',
  'append-only ordering',
  'bad arguments to a loaded tool',
  'duplicate ids rejected',
] as const;

export type ScenarioName = (typeof SCENARIOS)[number];

const PHASE_SCENARIOS: Readonly<Record<ToolSearchMode, ScenarioName>> = {
  'search-load': 'policy: each phase refused, search-load mode',
  'auto-load': 'policy: each phase refused, auto-load mode',
  catalog: 'policy: each phase refused, catalog mode',
  proxy: 'policy: each phase refused, proxy mode',
};

export interface ConformanceOptions {
  /** The adapter's name: tests run inside `describe("conformance: <name>")`. */
  name: string;
  harness: ConformanceHarness;
  capabilities?: ConformanceCapabilities;
  /** Scenarios to skip, with the reason. A misspelled scenario name does not compile. */
  skip?: Partial<Record<ScenarioName, string>>;
}

const META = ['search_tools', 'load_tool'];

function offered(transcript: Transcript, step: number): string[] {
  const record = transcript.steps[step];
  if (!record) throw new Error(`The transcript has ${transcript.steps.length} steps; step ${step} was expected.`);
  return record.offered;
}

function resultOf(transcript: Transcript, index: number): { toolName: string; output: unknown; isError: boolean } {
  const result = transcript.results[index];
  if (!result)
    throw new Error(`The transcript has ${transcript.results.length} results; result ${index} was expected.`);
  return result;
}

/**
 * Registers the conformance scenarios as vitest tests, inside `describe("conformance: <name>")`.
 *
 * @example
 * ```ts
 * runConformance({ name: 'my-framework', harness: createMyHarness(), capabilities: { history: true } });
 * ```
 */
export function runConformance(options: ConformanceOptions): void {
  const { harness } = options;
  const capabilities = options.capabilities ?? {};
  const mode = (name: Exclude<ToolSearchMode, 'search-load'>) => capabilities.modes?.[name] === true;

  const scenario = (name: ScenarioName, needs: boolean, body: () => Promise<void>) => {
    const reason = options.skip?.[name];
    if (reason !== undefined || !needs) it.skip(`${name}${reason ? ` (skipped: ${reason})` : ''}`, body);
    else it(name, body);
  };

  async function agentWith(setup: Partial<AgentSetup> & { pinned?: boolean } = {}) {
    const fixture = createFixtureCatalog({ pinned: setup.pinned ?? false });
    const agent: HarnessAgent = await harness.createAgent({
      tools: setup.tools ?? fixture.tools,
      directTools: setup.directTools,
      options: setup.options ?? {},
    });
    return { agent, executions: fixture.executions, tools: fixture.tools };
  }

  describe(`conformance: ${options.name}`, () => {
    scenario('search, load, call', true, async () => {
      const { agent, executions } = await agentWith();
      const transcript = await agent.run({
        prompt: 'What is the weather in Paris?',
        threadId: 'thread-basic',
        script: [search('weather in a city'), load('get_weather'), call('get_weather', { city: 'Paris' }), answer()],
      });
      expect(offered(transcript, 0)).toEqual(META);
      expect(resultNames(resultOf(transcript, 0).output)).toContain('get_weather');
      const searchResult = resultOf(transcript, 0).output as { results: Record<string, unknown>[]; message: string };
      expect(Object.keys(searchResult.results[0]!)).toEqual(['name', 'description', 'score']);
      expect(typeof searchResult.message).toBe('string');
      const loadResult = resultOf(transcript, 1).output as Record<string, unknown>;
      expect(loadResult).toMatchObject({ success: true, loaded: ['get_weather'], notFound: [] });
      expect(offered(transcript, 1)).toEqual(META); // loaded tools appear from the next step
      expect(offered(transcript, 2)).toEqual([...META, 'get_weather']);
      expect(resultOf(transcript, 2)).toMatchObject({ toolName: 'get_weather', isError: false });
      expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Paris' } }]);
      expect(offered(transcript, 3)).toEqual([...META, 'get_weather']);
    });

    scenario('a search result is not a load', true, async () => {
      const { agent } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Find weather tools',
        threadId: 'thread-search-only',
        script: [search('weather'), answer()],
      });
      expect(resultNames(resultOf(transcript, 0).output)).toContain('get_weather');
      expect(offered(transcript, 1)).toEqual(META);
    });

    scenario('a search result is not a load (conversation strategy)', capabilities.history === true, async () => {
      // mastra-ai/mastra#19145: with state derived from the messages, a search result counted as a load.
      const setup = { options: { state: 'conversation' as const } };
      const first = await agentWith(setup);
      const turn1 = await first.agent.run({
        prompt: 'Find weather tools',
        threadId: 'thread-search-only-conversation',
        script: [search('weather'), answer()],
      });
      expect(resultNames(resultOf(turn1, 0).output)).toContain('get_weather');
      expect(offered(turn1, 1)).toEqual(META);
      const second = await agentWith(setup);
      const turn2 = await second.agent.run({
        prompt: 'And now?',
        threadId: 'thread-search-only-conversation',
        history: turn1.history,
        script: [answer()],
      });
      expect(offered(turn2, 0)).toEqual(META);
    });

    scenario('auto-load', mode('auto-load'), async () => {
      const { agent, executions } = await agentWith({ options: { mode: 'auto-load', search: { limit: 2 } } });
      const transcript = await agent.run({
        prompt: 'Convert 10 EUR to USD',
        threadId: 'thread-auto',
        script: [
          search('convert currency exchange rate'),
          call('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }),
          answer(),
        ],
      });
      expect(offered(transcript, 0)).toEqual(['search_tools']);
      const output = resultOf(transcript, 0).output as { loaded: string[] };
      expect(output.loaded).toContain('convert_currency');
      expect(offered(transcript, 1).slice(0, 1)).toEqual(['search_tools']);
      expect(offered(transcript, 1)).toContain('convert_currency');
      expect(offered(transcript, 1)).not.toContain('load_tool');
      expect(executions).toEqual([{ toolId: 'convert_currency', input: { amount: 10, from: 'EUR', to: 'USD' } }]);
    });

    scenario('catalog mode', mode('catalog'), async () => {
      const { agent, executions, tools } = await agentWith({ options: { mode: 'catalog' } });
      const transcript = await agent.run({
        prompt: 'Translate hello into French',
        threadId: 'thread-catalog',
        script: [
          call('discover_tools', { toolNames: ['translate_text'] }),
          call('translate_text', { text: 'hello', language: 'French' }),
          call('discover_tools', { toolNames: tools.map((tool) => tool.id).filter((id) => id !== 'translate_text') }),
          answer(),
        ],
      });
      expect(offered(transcript, 0)).toEqual(['discover_tools']);
      const listing = transcript.steps[0]!.descriptions.discover_tools ?? '';
      for (const tool of tools) expect(listing).toContain(tool.id);
      const discovered = resultOf(transcript, 0).output as { tools: { name: string; inputSchema: unknown }[] };
      expect(discovered.tools[0]).toMatchObject({
        name: 'translate_text',
        inputSchema: { required: ['text', 'language'] },
      });
      expect(offered(transcript, 1)).toEqual(['discover_tools', 'translate_text']);
      expect(executions).toEqual([{ toolId: 'translate_text', input: { text: 'hello', language: 'French' } }]);
      // Every tool discovered: the discovery tool is gone.
      expect(offered(transcript, 3)).not.toContain('discover_tools');
      expect(offered(transcript, 3)).toHaveLength(tools.length);
    });

    scenario('catalog mode without lazy tools', mode('catalog'), async () => {
      const fixture = createFixtureCatalog();
      const { agent } = await agentWith({
        tools: fixture.tools.slice(0, 2).map((tool) => ({ ...tool, pinned: true })),
        options: { mode: 'catalog' },
      });
      const transcript = await agent.run({ prompt: 'Hi', threadId: 'thread-no-lazy', script: [answer()] });
      expect(offered(transcript, 0)).toEqual(['get_weather', 'get_forecast']);
    });

    scenario('proxy mode', mode('proxy'), async () => {
      const { agent, executions } = await agentWith({ options: { mode: 'proxy' } });
      const transcript = await agent.run({
        prompt: 'Email bob',
        threadId: 'thread-proxy',
        script: [
          search('send an email'),
          call('describe_tool', { toolName: 'send_email' }),
          call('call_tool', {
            toolName: 'send_email',
            arguments: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
          }),
          call('call_tool', { toolName: 'send_email', arguments: { to: 'bob@example.com' } }),
          answer(),
        ],
      });
      const meta = ['search_tools', 'describe_tool', 'call_tool'];
      for (const step of transcript.steps) expect(step.offered).toEqual(meta);
      expect(resultNames(resultOf(transcript, 0).output)).toContain('send_email');
      expect(resultOf(transcript, 1).output).toMatchObject({
        name: 'send_email',
        inputSchema: { required: ['to', 'subject', 'body'] },
      });
      expect(resultOf(transcript, 2)).toMatchObject({ isError: false });
      expect(resultOf(transcript, 3).isError).toBe(true);
      expect(text(resultOf(transcript, 3).output)).toContain('subject');
      expect(executions).toEqual([
        { toolId: 'send_email', input: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' } },
      ]);
    });

    scenario('loading several, some not found', true, async () => {
      const { agent } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Weather and email',
        threadId: 'thread-several',
        script: [load(['get_weather', 'no_such_tool', 'send_email']), load(['get_weather']), answer()],
      });
      expect(resultOf(transcript, 0).output).toMatchObject({
        success: false,
        loaded: ['get_weather', 'send_email'],
        notFound: ['no_such_tool'],
      });
      expect(resultOf(transcript, 1).output).toMatchObject({
        success: true,
        loaded: [],
        alreadyLoaded: ['get_weather'],
      });
      expect(offered(transcript, 2)).toEqual([...META, 'get_weather', 'send_email']);
    });

    scenario('undiscovered tool call self-corrects', true, async () => {
      const { agent, executions } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Weather in Oslo',
        threadId: 'thread-undiscovered',
        script: [
          call('get_weather', { city: 'Oslo' }),
          load('get_weather'),
          call('get_weather', { city: 'Oslo' }),
          answer(),
        ],
      });
      const first = resultOf(transcript, 0);
      expect(first.isError).toBe(true);
      expect(text(first.output)).toContain('load_tool');
      expect(text(first.output)).toContain('get_weather');
      expect(resultOf(transcript, 2).isError).toBe(false);
      expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Oslo' } }]);
    });

    scenario('unknown tool call gets suggestions', true, async () => {
      const { agent, executions } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Weather',
        threadId: 'thread-unknown',
        script: [call('get_wether', { city: 'Rome' }), load('get_wether'), answer()],
      });
      const first = resultOf(transcript, 0);
      expect(first.isError).toBe(true);
      expect(text(first.output)).toContain('get_weather');
      expect(resultOf(transcript, 1).output).toMatchObject({ success: false, notFound: ['get_wether'] });
      expect(text(resultOf(transcript, 1).output)).toContain('get_weather');
      expect(executions).toEqual([]);
    });

    const hide = (phase: PolicyRequest['phase'], toolId: string) => (request: PolicyRequest) =>
      !(request.phase === phase && request.toolId === toolId);

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
      expect(resultOf(transcript, 0).output).toMatchObject({
        success: false,
        loaded: [],
        notFound: ['delete_repository'],
      });
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
      expect(resultOf(transcript, 1).output).toMatchObject({ success: false, notFound: ['get_weather'] });
      expect(resultOf(transcript, 2).isError).toBe(true);
      expect(executions).toEqual([]);
    });

    // One tool kept out in one phase at a time, tried every way the mode offers.
    for (const searchMode of TOOL_SEARCH_MODES) {
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

    scenario('a huge tool name is refused, quoted cut', true, async () => {
      // 1 MB: what a model (or an attacker speaking for one) can send as a name.
      const huge = `get_weather_${'x'.repeat(1_048_576 - 12)}`;
      const { agent, executions } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Weather',
        threadId: 'thread-huge-name',
        script: [load(huge), load(['get_weather', huge]), call(huge, { city: 'Rome' }), answer()],
      });
      for (const index of [0, 1, 2]) {
        const result = resultOf(transcript, index);
        expect(result.isError, `result ${index}`).toBe(true);
        expect(text(result.output).length, `result ${index}`).toBeLessThan(2_000);
        expect(text(result.output), `result ${index}`).toContain('… (1048576 characters)');
        expect(text(result.output), `result ${index}`).toContain('at most 1000 characters');
      }
      expect(offered(transcript, 3)).toEqual(META);
      expect(executions).toEqual([]);
    });

    scenario('threads are isolated', true, async () => {
      const { agent } = await agentWith();
      const a = await agent.run({ prompt: 'Weather', threadId: 'thread-a', script: [load('get_weather'), answer()] });
      const b = await agent.run({ prompt: 'Email', threadId: 'thread-b', script: [load('send_email'), answer()] });
      expect(offered(a, 1)).toEqual([...META, 'get_weather']);
      expect(offered(b, 0)).toEqual(META);
      expect(offered(b, 1)).toEqual([...META, 'send_email']);
    });

    scenario('conversation strategy across a restart', capabilities.history === true, async () => {
      const setup = { options: { state: 'conversation' as const } };
      const first = await agentWith(setup);
      const turn1 = await first.agent.run({
        prompt: 'Weather',
        threadId: 'thread-restart',
        script: [load('get_weather'), answer()],
      });
      const second = await agentWith(setup); // a new agent and session: nothing in memory
      const turn2 = await second.agent.run({
        prompt: 'And in Rome?',
        threadId: 'thread-restart',
        history: turn1.history,
        script: [call('get_weather', { city: 'Rome' }), answer()],
      });
      expect(offered(turn2, 0)).toEqual([...META, 'get_weather']);
      expect(resultOf(turn2, 0).isError).toBe(false);
      expect(second.executions).toEqual([{ toolId: 'get_weather', input: { city: 'Rome' } }]);
    });

    scenario(
      'conversation strategy after the load result is trimmed',
      capabilities.history === true && capabilities.trimHistory === true,
      async () => {
        const setup = { options: { state: 'conversation' as const } };
        const first = await agentWith(setup);
        const turn1 = await first.agent.run({
          prompt: 'Weather',
          threadId: 'thread-trim',
          script: [load('get_weather'), answer()],
        });
        const trimmed = harness.trimHistory!(turn1.history, ['load_tool']);
        const turn2 = await first.agent.run({
          prompt: 'Again',
          threadId: 'thread-trim',
          history: trimmed,
          script: [answer()],
        });
        expect(offered(turn2, 0)).toEqual(META);
      },
    );

    scenario('pinned tools', true, async () => {
      const { agent } = await agentWith({ pinned: true });
      const transcript = await agent.run({
        prompt: 'Time and weather',
        threadId: 'thread-pinned',
        script: [call('get_time', { timezone: 'Europe/Paris' }), load(['get_time', 'get_weather']), answer()],
      });
      expect(offered(transcript, 0)).toEqual([...META, 'get_time']);
      expect(resultOf(transcript, 0).isError).toBe(false);
      expect(resultOf(transcript, 1).output).toMatchObject({ loaded: ['get_weather'], alreadyLoaded: ['get_time'] });
      expect(offered(transcript, 2)).toEqual([...META, 'get_time', 'get_weather']);
    });

    scenario('append-only ordering', true, async () => {
      const { agent } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Many things',
        threadId: 'thread-order',
        script: [
          load('translate_text'),
          load('convert_currency'),
          parallel(
            { toolName: 'load_tool', input: { toolName: 'get_weather' } },
            { toolName: 'load_tool', input: { toolName: 'translate_text' } },
          ),
          answer(),
        ],
      });
      expect(offered(transcript, 1)).toEqual([...META, 'translate_text']);
      expect(offered(transcript, 2)).toEqual([...META, 'translate_text', 'convert_currency']);
      expect(offered(transcript, 3)).toEqual([...META, 'translate_text', 'convert_currency', 'get_weather']);
    });

    scenario('bad arguments to a loaded tool', true, async () => {
      const { agent, executions } = await agentWith();
      const transcript = await agent.run({
        prompt: 'Forecast',
        threadId: 'thread-bad-args',
        script: [
          load('get_forecast'),
          call('get_forecast', { city: 'Rome', days: 'three' }),
          call('get_forecast', { city: 'Rome', days: 3 }),
          answer(),
        ],
      });
      const bad = resultOf(transcript, 1);
      expect(bad.isError).toBe(true);
      expect(text(bad.output)).toContain('days');
      expect(resultOf(transcript, 2).isError).toBe(false);
      expect(executions).toEqual([{ toolId: 'get_forecast', input: { city: 'Rome', days: 3 } }]);
    });

    scenario('duplicate ids rejected', true, async () => {
      const fixture = createFixtureCatalog();
      const duplicate = { ...fixture.tools[0]!, source: 'second-server' };
      const attempt = Promise.resolve().then(() =>
        harness.createAgent({ tools: [...fixture.tools, duplicate], options: {} }),
      );
      await expect(attempt).rejects.toSatisfy(
        (error: unknown) => DuplicateToolError.isInstance(error) && (error as Error).message.includes('get_weather'),
      );
    });
  });
}
