import { expect } from 'vitest';
import { answer, load } from '../harness.js';
import type { ScenarioContext } from './context.js';

/** The start every default instruction text has (Mastra's first sentence). */
const DEFAULT_START = 'To discover available tools, call';

/** What the model is told about tool search in the framework's system channel (`instructions`). */
export function instructionScenarios({ scenario, agentWith, needs }: ScenarioContext): void {
  const instructions = needs('instructions');

  scenario('instructions: the default names the configured meta-tools', instructions, async () => {
    const metaTools = { search: { name: 'find_tools' }, load: { name: 'add_tools' } };
    const { agent } = await agentWith({ options: { metaTools } });
    const transcript = await agent.run({
      prompt: 'Weather',
      threadId: 'thread-instructions',
      script: [load('get_weather', 'add_tools'), answer()],
    });
    const expected =
      'To discover available tools, call find_tools with a keyword query. To add one or more tools to the conversation, call add_tools with a toolName or toolNames array. Tools must be loaded before they can be used.';
    expect(transcript.steps.map((step) => step.system)).toEqual([
      expect.stringContaining(expected),
      expect.stringContaining(expected),
    ]);
  });

  scenario('instructions: custom text, or none', instructions, async () => {
    const custom = await agentWith({ options: { instructions: 'Look tools up before answering.' } });
    const told = await custom.agent.run({ prompt: 'Hi', threadId: 'thread-custom', script: [answer()] });
    expect(told.steps[0]?.system).toContain('Look tools up before answering.');
    expect(told.steps[0]?.system).not.toContain(DEFAULT_START);
    const silent = await agentWith({ options: { instructions: false } });
    const untold = await silent.agent.run({ prompt: 'Hi', threadId: 'thread-none', script: [answer()] });
    expect(untold.steps[0]?.system ?? '').not.toContain(DEFAULT_START);
  });
}
