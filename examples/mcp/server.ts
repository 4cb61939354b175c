// A catalog of tools served as one searchable MCP server, and the MCP SDK's client in the same
// process (over an in-memory link) to drive it as a host would: search, load, call. No model needed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolDescriptor } from '@toolscout/core';
import { McpToolSearchServer } from '@toolscout/mcp';

const tool = (id: string, description: string, execute: ToolDescriptor['execute']): ToolDescriptor => ({
  id,
  description,
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute,
});
const catalog = [
  tool('get_weather', 'Current weather for a city', (args) => `Sunny in ${(args as { city: string }).city}.`),
  tool('get_time', 'Local time in a city', () => '14:05'),
  tool('book_flight', 'Book a flight to a city', () => 'Booked.'),
];
const server = new McpToolSearchServer({ catalog }); // in a real server: server.connect(new StdioServerTransport())

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'example-client', version: '1.0.0' });
await client.connect(clientSide);

const names = async () => (await client.listTools()).tools.map((listed) => listed.name).join(', ');
const call = async (name: string, args: Record<string, unknown>) => {
  const content = (await client.callTool({ name, arguments: args })).content as { text?: string }[];
  console.log(`${name}(${JSON.stringify(args)}) -> ${content.map((part) => part.text ?? '').join('')}`);
};

console.log(`tools: ${await names()}`); // search_tools, load_tool
await call('search_tools', { query: 'weather' });
await call('load_tool', { toolName: 'get_weather' });
console.log(`tools: ${await names()}`); // ..., get_weather (the server sent list_changed)
await call('get_weather', { city: 'Paris' });
await client.close();
await server.close();
