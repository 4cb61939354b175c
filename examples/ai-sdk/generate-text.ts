// toolscout with the AI SDK's generateText: the model starts with search_tools and load_tool instead
// of the whole catalog. Offline with a scripted mock model; with AI_GATEWAY_API_KEY set, a real one.
import { createToolSearch } from '@toolscout/ai-sdk';
import { answer, callTool, ScriptedModel } from '@toolscout/core/testing';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';

const tools = {
  get_weather: tool({
    description: 'Get the current weather (temperature, conditions) for a city.',
    inputSchema: z.object({ city: z.string().describe('City name, e.g. Paris') }),
    execute: async ({ city }) => ({ city, temperatureC: 18, conditions: 'sunny' }),
  }),
  send_email: tool({
    description: 'Send an email message to a recipient.',
    inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    execute: async () => ({ sent: true }),
  }),
  convert_currency: tool({
    description: 'Convert an amount of money from one currency to another.',
    inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
    execute: async ({ amount }) => ({ amount: amount * 1.08 }),
  }),
  // ... hundreds more
};

// The mock plays what a model would do: search, load, call, answer.
const scripted = new ScriptedModel([
  callTool('search_tools', { query: 'weather' }),
  callTool('load_tool', { toolName: 'get_weather' }),
  callTool('get_weather', { city: 'Paris' }),
  answer('It is sunny in Paris, 18 °C.'),
]);
const model = process.env.AI_GATEWAY_API_KEY ? 'openai/gpt-5-mini' : scripted.mock;

const search = createToolSearch({ catalog: tools }); // once, at start-up

const result = await generateText({
  model,
  prompt: 'What is the weather in Paris?',
  stopWhen: stepCountIs(8),
  runtimeContext: { threadId: 'thread-42' }, // loaded tools are kept per thread
  ...search,
});

for (const step of result.steps) {
  console.log(step.toolCalls.map((call) => `${call.toolName}(${JSON.stringify(call.input)})`).join(', ') || '(answer)');
}
console.log(result.text);
