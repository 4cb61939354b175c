// A small MCP server (stdio) for the example: a notes store and a weather lookup. Your real servers
// go in servers.json instead (filesystem, GitHub, memory, ...).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes: string[] = [];
const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.registerTool(
  'add_note',
  { description: 'Save a short note.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: `Saved note ${notes.push(text)}.` }] }),
);
server.registerTool('list_notes', { description: 'List every saved note.' }, async () => ({
  content: [{ type: 'text', text: JSON.stringify(notes) }],
}));
server.registerTool(
  'weather_report',
  { description: 'Get the current weather report for a city.', inputSchema: { city: z.string() } },
  async ({ city }) => ({ content: [{ type: 'text', text: `${city}: 21 °C, sunny` }] }),
);
await server.connect(new StdioServerTransport());
