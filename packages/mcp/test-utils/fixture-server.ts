// The tests' own MCP server, on the SDK's McpServer. Runs as a child process straight from this file
// (`node fixture-server.ts`, Node's type stripping), over stdio, or over Streamable HTTP with
// `--http` (it then prints its URL on stdout). Environment switches simulate faulty servers:
// FIXTURE_CRASH_ON_START=1 exits at once, FIXTURE_HANG_ON_START=1 never answers `initialize`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** The fixture server: weather, echo, pid, sleep, and tools added or removed at runtime. */
export function createFixtureServer(label: string): McpServer {
  const server = new McpServer({ name: `fixture-${label}`, version: '1.0.0' });
  const added = new Map<string, RegisteredTool>();

  server.registerTool(
    'weather_report',
    {
      title: 'Weather Report',
      description: 'Get the current weather report (temperature in Celsius, conditions) for a city.',
      inputSchema: { city: z.string().describe('City name, e.g. Paris') },
      outputSchema: { city: z.string(), temperatureC: z.number(), conditions: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ city }) => {
      const report = { city, temperatureC: 21, conditions: 'sunny' };
      return { ...text(JSON.stringify(report)), structuredContent: report };
    },
  );

  server.registerTool(
    'echo',
    { description: 'Echo a message back, prefixed with the fixture server label.', inputSchema: { text: z.string() } },
    async ({ text: message }) => text(`${label}: ${message}`),
  );

  server.registerTool(
    'whoami',
    {
      title: 'Process Identity',
      description: 'Tell the process id of the fixture server process.',
      outputSchema: { pid: z.number(), label: z.string() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async () => ({ ...text(String(process.pid)), structuredContent: { pid: process.pid, label } }),
  );

  server.registerTool(
    'sleep',
    {
      description: 'Wait for some milliseconds, then answer (a slow or hanging tool).',
      inputSchema: { ms: z.number().int().min(0) },
    },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return text(`slept ${ms} ms`);
    },
  );

  server.registerTool(
    'add_tool',
    {
      description: 'Register a new tool at runtime (the server then sends tools/list_changed).',
      inputSchema: { name: z.string(), description: z.string() },
    },
    async ({ name, description }) => {
      added.set(
        name,
        server.registerTool(name, { description, inputSchema: { input: z.string().optional() } }, async ({ input }) =>
          text(`${name} ran with ${input ?? 'nothing'}`),
        ),
      );
      return text(`added ${name}`);
    },
  );

  server.registerTool(
    'remove_tool',
    { description: 'Remove a tool added at runtime.', inputSchema: { name: z.string() } },
    async ({ name }) => {
      added.get(name)?.remove();
      added.delete(name);
      return text(`removed ${name}`);
    },
  );

  server.registerTool('fail', { description: 'Always answer with an error result.', inputSchema: {} }, async () => ({
    ...text('the fixture failed on purpose'),
    isError: true,
  }));

  return server;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const labelAt = args.indexOf('--label');
  const label = (labelAt >= 0 ? args[labelAt + 1] : undefined) ?? 'fixture';
  if (process.env.FIXTURE_CRASH_ON_START === '1') {
    process.stderr.write('fixture: crashing on start, as asked\n');
    process.exit(3);
  }
  if (process.env.FIXTURE_HANG_ON_START === '1') {
    process.stderr.write('fixture: hanging on start, as asked\n');
    process.stdin.resume(); // reads and ignores everything; exits when stdin closes
    process.stdin.on('end', () => process.exit(0));
    return;
  }
  if (args.includes('--http')) {
    const http = createServer(async (req, res) => {
      // Stateless: a new server and transport per request.
      const server = createFixtureServer(label);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    http.listen(0, '127.0.0.1', () => {
      const { port } = http.address() as AddressInfo;
      process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
    });
    const stop = () => http.close(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.stdin.on('end', stop);
    process.stdin.resume();
    return;
  }
  const server = createFixtureServer(label);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`fixture ${label}: running on stdio (pid ${process.pid})\n`);
  process.stdin.on('end', () => process.exit(0));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
