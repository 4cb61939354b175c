// toolscout in TanStack AI's chat(): the middleware offers search_tools and load_tool instead of the
// whole catalog, and what the model loads from its next call on. Offline: a scripted adapter plays
// the model (TanStack AI ships no test adapter); put your provider's adapter in its place.
import { chat, maxIterations, toolDefinition } from '@tanstack/ai';
import { toolSearchMiddleware } from '@toolscout/tanstack-ai';
import { answer, callTool, ScriptedAdapter } from '@toolscout/tanstack-ai/testing';
import { z } from 'zod';

const getWeather = toolDefinition({
  name: 'get_weather',
  description: 'Get the current weather forecast for a city.',
  inputSchema: z.object({ city: z.string() }),
}).server(async ({ city }) => ({ city, forecast: 'sunny', temperatureC: 18 }));
const sendEmail = toolDefinition({
  name: 'send_email',
  description: 'Send an email message to a recipient.',
  inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
}).server(async () => ({ sent: true }));
// ... hundreds more

const toolSearch = toolSearchMiddleware({ catalog: [getWeather, sendEmail] }); // once, at start-up

const model = new ScriptedAdapter(); // your provider's adapter: openaiText('gpt-5-mini'), ...
model.play([
  callTool('search_tools', { query: 'weather forecast' }),
  callTool('load_tool', { toolName: 'get_weather' }),
  callTool('get_weather', { city: 'Paris' }),
  answer('It is sunny in Paris, 18 °C.'),
]);

const stream = chat({
  adapter: model.adapter,
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  middleware: [toolSearch],
  context: { threadId: 'thread-1' }, // loaded tools are kept per thread
  agentLoopStrategy: maxIterations(8),
});
let text = '';
for await (const chunk of stream) if (chunk.type === 'TEXT_MESSAGE_CONTENT') text += chunk.delta;

for (const [index, call] of model.calls.entries()) {
  console.log(`model call ${index}: offered ${call.tools.map((tool) => tool.name).join(', ')}`);
}
console.log(text);
