import { createQuickJsSandbox } from '@toolscout/core/code-mode';
import { expect } from 'vitest';
import { answer, call, text } from '../harness.js';
import { EMAIL, hide, offered, resultOf, type ScenarioContext } from './context.js';

/** The code tool's name, as offered. */
const CODE_TOOL = 'run_tool_code';

/**
 * Code mode (capability `modes.code`): the model's program runs in core's sandbox, and its tool
 * calls go through the session, so the adapter needs no code of its own for it.
 */
export function codeModeScenarios({ scenario, agentWith, mode }: ScenarioContext): void {
  const codeAgent = async (options: { filter?: ReturnType<typeof hide>; timeoutMs?: number } = {}) => {
    const { filter, timeoutMs } = options;
    const code = { sandbox: await createQuickJsSandbox(), ...(timeoutMs !== undefined && { timeoutMs }) };
    return agentWith({ options: { mode: 'code', code, ...(filter && { filter }) } });
  };

  scenario('code mode: search and call in one model step', mode('code'), async () => {
    const { agent, executions } = await codeAgent();
    const transcript = await agent.run({
      prompt: 'What is the weather in Paris?',
      threadId: 'thread-code',
      script: [
        call(CODE_TOOL, {
          code: `const hits = await tools.search('weather in a city');
            const tool = hits.find((hit) => hit.id === 'get_weather');
            console.log('found', tool.id);
            return await tools.call(tool.id, { city: 'Paris' });`,
        }),
        answer(),
      ],
    });
    expect(offered(transcript, 0)).toEqual([CODE_TOOL]);
    expect(resultOf(transcript, 0)).toMatchObject({ toolName: CODE_TOOL, isError: false });
    expect(resultOf(transcript, 0).output).toEqual({
      result: { tool: 'get_weather', ok: true, input: { city: 'Paris' } },
      logs: ['found get_weather'],
    });
    expect(executions).toEqual([{ toolId: 'get_weather', input: { city: 'Paris' } }]);
    expect(transcript.steps).toHaveLength(2); // one step for the program, one for the answer
    expect(offered(transcript, 1)).toEqual([CODE_TOOL]);
  });

  scenario('code mode: a call the policy denies', mode('code'), async () => {
    const { agent, executions } = await codeAgent({ filter: hide('call', 'send_email') });
    const transcript = await agent.run({
      prompt: 'Email bob',
      threadId: 'thread-code-denied',
      script: [call(CODE_TOOL, { code: `return await tools.call('send_email', ${JSON.stringify(EMAIL)});` }), answer()],
    });
    expect(resultOf(transcript, 0).isError).toBe(true);
    expect(text(resultOf(transcript, 0).output)).toContain('Tool "send_email" is not available');
    expect(executions).toEqual([]);
  });

  scenario('code mode: a timeout is a tool error', mode('code'), async () => {
    const { agent } = await codeAgent({ timeoutMs: 100 });
    const transcript = await agent.run({
      prompt: 'Loop',
      threadId: 'thread-code-timeout',
      script: [call(CODE_TOOL, { code: 'while (true) {}' }), answer()],
    });
    expect(resultOf(transcript, 0).isError).toBe(true);
    expect(text(resultOf(transcript, 0).output)).toContain('The code ran out of time (100 ms) and was stopped.');
    expect(transcript.steps).toHaveLength(2);
  });
}
