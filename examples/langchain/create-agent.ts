// toolscout's middleware in a LangChain createAgent: the model starts with search_tools and load_tool,
// and a tool it loads stays loaded on the thread. Offline with LangChain's own fake model; with
// OPENAI_API_KEY set (and @langchain/openai installed), a real one.
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { MemorySaver } from '@langchain/langgraph';
import { toolSearchMiddleware } from '@toolscout/langchain';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';

const getWeather = tool(async ({ city }) => `Sunny in ${city}`, {
  name: 'get_weather',
  description: 'Current weather for a city',
  schema: z.object({ city: z.string() }),
});
const sendEmail = tool(async ({ to }) => `Sent to ${to}`, {
  name: 'send_email',
  description: 'Send an email message to a recipient',
  schema: z.object({ to: z.string(), body: z.string() }),
});
const catalog = [getWeather, sendEmail]; // ... hundreds more

const fake = fakeModel()
  // turn 1: search, load, call, answer
  .respondWithTools([{ name: 'search_tools', args: { query: 'weather' } }])
  .respondWithTools([{ name: 'load_tool', args: { toolName: 'get_weather' } }])
  .respondWithTools([{ name: 'get_weather', args: { city: 'Paris' } }])
  .respond(new AIMessage('Sunny in Paris.'))
  // turn 2: get_weather is still loaded on this thread
  .respondWithTools([{ name: 'get_weather', args: { city: 'Rome' } }])
  .respond(new AIMessage('Sunny in Rome too.'));

const agent = createAgent({
  model: process.env.OPENAI_API_KEY ? 'openai:gpt-5-mini' : fake,
  tools: [], // your always-offered tools; the catalog goes to the middleware
  middleware: [toolSearchMiddleware({ catalog, state: 'agent-state' })],
  checkpointer: new MemorySaver(),
});
const config = { configurable: { thread_id: 'user-42' } };
const first = await agent.invoke({ messages: [{ role: 'user', content: 'Weather in Paris?' }] }, config);
console.log(first.messages.at(-1)?.text);
// The model searched, loaded get_weather and called it. On this thread it stays loaded:
const result = await agent.invoke({ messages: [{ role: 'user', content: 'And in Rome?' }] }, config);
console.log(result.messages.at(-1)?.text, result.toolscoutLoadedTools); // … ['get_weather']
