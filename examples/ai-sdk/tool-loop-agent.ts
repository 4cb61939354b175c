// toolscout with the AI SDK's ToolLoopAgent, in auto-load mode: search_tools loads its hits itself,
// and the loaded tools stay with the thread across turns. Offline with a scripted mock model; with
// AI_GATEWAY_API_KEY set, a real one.
import { createToolSearch } from '@toolscout/ai-sdk';
import { answer, callTool, ScriptedModel } from '@toolscout/core/testing';
import { stepCountIs, ToolLoopAgent, tool } from 'ai';
import { z } from 'zod';

const tools = {
  convert_currency: tool({
    description: 'Convert an amount of money from one currency to another at the current rate.',
    inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
    execute: async ({ amount, from, to }) => ({ amount: Math.round(amount * 108) / 100, from, to }),
  }),
  get_weather: tool({
    description: 'Get the current weather for a city.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, conditions: 'sunny' }),
  }),
  // ... hundreds more
};

const scripted = new ScriptedModel([
  // turn 1: search (which loads the best hits), then call
  callTool('search_tools', { query: 'convert currency' }),
  callTool('convert_currency', { amount: 10, from: 'EUR', to: 'USD' }),
  answer('10 EUR is 10.80 USD.'),
  // turn 2: the tool is still loaded for this thread
  callTool('convert_currency', { amount: 20, from: 'GBP', to: 'USD' }),
  answer('20 GBP is 21.60 USD.'),
]);
const model = process.env.AI_GATEWAY_API_KEY ? 'anthropic/claude-sonnet-4.5' : scripted.mock;

const agent = new ToolLoopAgent({
  model,
  instructions: 'Find the tools you need with search_tools: its matches are loaded for you.',
  stopWhen: stepCountIs(12),
  ...createToolSearch({ catalog: tools, mode: 'auto-load', search: { limit: 3 } }),
  callOptionsSchema: z.object({ threadId: z.string() }),
  prepareCall: ({ options, ...settings }) => ({ ...settings, runtimeContext: { threadId: options.threadId } }),
});

const first = await agent.generate({ prompt: 'Convert 10 EUR to USD', options: { threadId: 't-1' } });
console.log(first.text);
const next = await agent.generate({ prompt: 'And 20 GBP?', options: { threadId: 't-1' } });
console.log(next.text);
