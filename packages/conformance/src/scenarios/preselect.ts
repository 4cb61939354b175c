import { expect } from 'vitest';
import { answer, call, load } from '../harness.js';
import { EMAIL, hide, META, offered, resultOf, type ScenarioContext } from './context.js';

/** One confident hit per user message, so that what is offered does not depend on close scores. */
const PRESELECT = { preselect: { limit: 1 } };

/** Preselect: the tools the user's message asks for offered at the first step, without a search. */
export function preselectScenarios({ scenario, agentWith, needs }: ScenarioContext): void {
  const userMessages = needs('userMessages');

  scenario('preselect: the tool the user asks for is offered at the first step', userMessages, async () => {
    const { agent, executions } = await agentWith({ options: PRESELECT });
    const transcript = await agent.run({
      prompt: 'Send an email message to Bob',
      threadId: 'thread-preselect',
      script: [call('send_email', EMAIL), answer()],
    });
    expect(offered(transcript, 0)).toEqual([...META, 'send_email']);
    expect(resultOf(transcript, 0).isError).toBe(false);
    expect(executions).toEqual([{ toolId: 'send_email', input: EMAIL }]);
    expect(offered(transcript, 1)).toEqual([...META, 'send_email']);
  });

  scenario('preselect: once per user message, additive across turns', needs('userMessages', 'history'), async () => {
    const { agent } = await agentWith({ options: PRESELECT });
    const turn1 = await agent.run({
      prompt: 'Send an email message to Bob',
      threadId: 'thread-additive',
      script: [load('get_weather'), answer()],
    });
    expect(offered(turn1, 1)).toEqual([...META, 'send_email', 'get_weather']);
    const turn2 = await agent.run({
      prompt: 'Convert 10 euros to dollars at the current exchange rate',
      threadId: 'thread-additive',
      history: turn1.history,
      script: [answer()],
    });
    expect(offered(turn2, 0)).toEqual([...META, 'send_email', 'get_weather', 'convert_currency']);
  });

  scenario('preselect: a failing selector preselects nothing', userMessages, async () => {
    const select = () => {
      throw new Error('the classifier is down');
    };
    const { agent } = await agentWith({ options: { preselect: { select } } });
    const transcript = await agent.run({
      prompt: 'Send an email message to Bob',
      threadId: 'thread-failing',
      script: [load('send_email'), answer()],
    });
    expect(offered(transcript, 0)).toEqual(META);
    expect(offered(transcript, 1)).toEqual([...META, 'send_email']);
  });

  scenario('preselect: the policy filter applies', userMessages, async () => {
    const { agent } = await agentWith({ options: { ...PRESELECT, filter: hide('load', 'send_email') } });
    const transcript = await agent.run({
      prompt: 'Send an email message to Bob',
      threadId: 'thread-preselect-policy',
      script: [answer()],
    });
    expect(offered(transcript, 0)).toEqual(META);
  });
}
