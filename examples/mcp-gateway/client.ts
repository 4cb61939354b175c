// The toolscout-mcp gateway in front of the servers of servers.json, driven by the MCP SDK's client as
// an MCP host (Claude Desktop, Cursor, ...) would drive it: search, load, call. No model needed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const client = new Client({ name: 'example-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: 'npx', args: ['toolscout-mcp', '--config', 'servers.json'] }));

const names = async () => (await client.listTools()).tools.map((tool) => tool.name).join(', ');
const call = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  console.log(`${name}(${JSON.stringify(args)}) -> ${content.map((part) => part.text ?? part.type).join('')}`);
};

console.log(`tools: ${await names()}`); // search_tools, load_tool
await call('search_tools', { query: 'add a note' });
await call('load_tool', { toolName: 'notes__add_note' }); // tools are namespaced by server
console.log(`tools: ${await names()}`); // ..., notes__add_note (the gateway sent list_changed)
await call('notes__add_note', { text: 'Buy milk' });
await client.close();
