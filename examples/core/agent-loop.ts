// toolscout in your own agent loop, no framework: before each model call ask the session which tools
// to offer, and let it answer each tool call. Offline: a script plays the model's part.
import { type ConversationEntry, ToolSearchSession } from '@toolscout/core';

const catalog = [
  {
    id: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (input: unknown) => ({ city: (input as { city: string }).city, temperatureC: 18, sky: 'clear' }),
  },
  {
    id: 'send_email',
    description: 'Send an email message to a recipient',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
      required: ['to', 'subject', 'body'],
    },
    execute: () => ({ sent: true }),
  },
  {
    id: 'create_issue',
    description: 'Create an issue in a GitHub repository',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    execute: (input: unknown) => ({ number: 42, title: (input as { title: string }).title }),
  },
  // ... thousands more: MCP tools, OpenAI or Anthropic function definitions, your own
];

const session = new ToolSearchSession({ catalog }); // mode 'search-load': search_tools and load_tool

// What the model decides at each step; your model client goes here.
const modelCalls = [
  { name: 'search_tools', input: { query: 'weather in a city' } },
  { name: 'load_tool', input: { toolName: 'get_weather' } },
  { name: 'get_weather', input: { city: 'Paris' } },
];

const conversation: ConversationEntry[] = [];
for (const [index, call] of modelCalls.entries()) {
  // Before every model call: the tools to offer (name, description, JSON Schema each).
  const step = await session.prepareStep({ threadId: 'thread-1', conversation });
  console.log(`step ${index}: offered ${step.tools.map((tool) => tool.name).join(', ')}`);

  // For every tool call the model makes: meta-tools, catalog tools and mistakes alike.
  const outcome = await step.execute(call.name, call.input);
  const result = outcome.ok ? outcome.output : outcome.error.message;
  console.log(`  ${call.name}(${JSON.stringify(call.input)}) -> ${JSON.stringify(result)}`);

  const toolCallId = `call-${index}`;
  conversation.push(
    { type: 'tool-call', toolCallId, toolName: call.name, input: call.input },
    { type: 'tool-result', toolCallId, toolName: call.name, output: result },
  );
}

const step = await session.prepareStep({ threadId: 'thread-1', conversation });
const tokens = await session.measureStep(step);
console.log(`tokens offered at the last step: ${tokens.offered.tokens} (the whole catalog: ${tokens.catalog.tokens})`);
