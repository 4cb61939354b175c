// toolscout's ToolSearchProcessor in a Mastra agent: the model starts with search_tools and load_tool
// and loads the tools it needs. Offline with a scripted mock model; with OPENAI_API_KEY set, a real one.
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { createTool } from '@mastra/core/tools';
import { answer, callTool, ScriptedModel } from '@toolscout/core/testing';
import { ToolSearchProcessor } from '@toolscout/mastra';
import { z } from 'zod';

const getWeather = createTool({
  id: 'get_weather',
  description: 'Get the current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperatureC: 21 }),
});
const createIssue = createTool({
  id: 'create_issue',
  description: 'Open an issue in a GitHub repository.',
  inputSchema: z.object({ title: z.string() }),
  execute: async ({ title }) => ({ number: 42, title }),
});

const toolSearch = new ToolSearchProcessor({
  // searchable, loaded on demand; MCP tools too: { ...(await mcp.listTools()) } with @mastra/mcp
  tools: { get_weather: getWeather, create_issue: createIssue },
  search: { topK: 5 },
  storage: 'context', // loaded tools live in the conversation: restart-safe, no server state
});

const scripted = new ScriptedModel([
  callTool('search_tools', { query: 'open an issue' }),
  callTool('load_tool', { toolName: 'create_issue' }),
  callTool('create_issue', { title: 'The build fails' }),
  answer('Opened issue #42.'),
]);
// Mastra runs the AI SDK's V4 models, but its 1.71 types expect a V4 model's doGenerate to return a
// stream (at run time it calls doGenerate for generate, doStream for stream): a cast for the types only.
const mock = scripted.mock as unknown as MastraModelConfig;

const agent = new Agent({
  id: 'assistant',
  name: 'Assistant',
  instructions: 'Use tools.',
  model: process.env.OPENAI_API_KEY ? 'openai/gpt-5-mini' : mock,
  inputProcessors: [toolSearch],
});

const result = await agent.generate('Open an issue about the failing build', { maxSteps: 8 });
for (const step of result.steps) {
  console.log(
    step.toolCalls.map((call) => `${call.payload.toolName}(${JSON.stringify(call.payload.args)})`).join(', ') ||
      '(answer)',
  );
}
console.log(result.text);
