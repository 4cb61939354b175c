// The tests' own MCP server, on the SDK's McpServer. Runs as a child process straight from this file
// (`node fixture-server.ts`, Node's type stripping), over stdio, or over Streamable HTTP with
// `--http` (it then prints its URL on stdout). Environment switches simulate faulty servers:
// FIXTURE_CRASH_ON_START=1 exits at once, FIXTURE_HANG_ON_START=1 never answers `initialize`.
// `--extras` adds what the gateway passes through besides tools (see addFixtureExtras).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, type RegisteredTool, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CreateMessageResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * The fixture server: weather, echo, pid, sleep, and tools added or removed at runtime; with
 * `extras`, also resources, prompts, completions, logging, progress and sampling.
 */
export function createFixtureServer(label: string, options: { extras?: boolean } = {}): McpServer {
  const server = new McpServer(
    { name: `fixture-${label}`, version: '1.0.0' },
    options.extras ? { capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } } } : {},
  );
  if (options.extras) addFixtureExtras(server, label);
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

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/**
 * What the gateway passes through besides tools, each under the label: a resource
 * `fixture://<label>/notes`, a template `fixture://<label>/items/{id}` (ids complete), subscriptions
 * (`touch_resource` notifies subscribers), a prompt `greet` (its `name` completes) and more at run
 * time (`add_prompt`), progress and
 * cancellation (`count_slowly`, `last_count`), sampling (`ask_model`) and logging (`log_message`).
 */
function addFixtureExtras(server: McpServer, label: string): void {
  const base = `fixture://${label}`;
  const subscribed = new Set<string>();
  let lastCount = 'none';

  server.registerResource(
    'notes',
    `${base}/notes`,
    { title: `Notes of ${label}`, description: `The notes of fixture ${label}.`, mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `notes of ${label}` }] }),
  );
  const ids = ['apple', 'apricot', 'banana'];
  server.registerResource(
    'item',
    new ResourceTemplate(`${base}/items/{id}`, {
      list: undefined,
      complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
    }),
    { description: `An item of fixture ${label}, by id.` },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `item ${String(id)} of ${label}` }] }),
  );
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  server.registerTool(
    'touch_resource',
    { description: 'Change a resource: its subscribers are told it was updated.', inputSchema: { uri: z.string() } },
    async ({ uri }) => {
      if (!subscribed.has(uri)) return text(`nobody subscribed to ${uri}`);
      await server.server.sendResourceUpdated({ uri });
      return text(`updated ${uri}`);
    },
  );

  const names = ['Ada', 'Alan', 'Grace'];
  server.registerPrompt(
    'greet',
    {
      title: `Greeting of ${label}`,
      description: 'Greet someone by name.',
      argsSchema: { name: completable(z.string(), (value) => names.filter((name) => name.startsWith(value))) },
    },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}, from ${label}` } }] }),
  );

  server.registerTool(
    'add_prompt',
    {
      description: 'Register a prompt at runtime (clients are sent prompts/list_changed).',
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      server.registerPrompt(name, { description: `The ${name} prompt.` }, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: `${name} of ${label}` } }],
      }));
      return text(`added prompt ${name}`);
    },
  );

  server.registerTool(
    'count_slowly',
    {
      description: 'Count to a number of steps, reporting progress at each step; stops when cancelled.',
      inputSchema: { steps: z.number().int().min(1).max(1000), delayMs: z.number().int().min(0).max(10_000) },
    },
    async ({ steps, delayMs }, extra) => {
      lastCount = 'running';
      for (let step = 1; step <= steps; step++) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (extra.signal.aborted) {
          lastCount = `cancelled at step ${step}`;
          return text(lastCount);
        }
        const progressToken = extra._meta?.progressToken;
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: steps, message: `step ${step}` },
          });
        }
      }
      // A pause before answering: the SDK's client drops progress that arrives just before the answer.
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      lastCount = `finished ${steps} steps`;
      return text(lastCount);
    },
  );
  server.registerTool(
    'last_count',
    { description: 'How the last count_slowly call went: running, finished or cancelled.' },
    async () => text(lastCount),
  );

  server.registerTool(
    'ask_model',
    {
      description: "Ask the client's model a question (sampling) and answer its reply.",
      inputSchema: { question: z.string() },
    },
    async ({ question }, extra) => {
      const reply = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 50 },
        },
        CreateMessageResultSchema,
      );
      return text(`${label} heard: ${reply.content.type === 'text' ? reply.content.text : reply.content.type}`);
    },
  );

  server.registerTool(
    'log_message',
    { description: 'Write a log message at a level.', inputSchema: { level: z.enum(LOG_LEVELS), text: z.string() } },
    async ({ level, text: message }) => {
      await server.sendLoggingMessage({ level, logger: 'fixture', data: message });
      return text('logged');
    },
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const labelAt = args.indexOf('--label');
  const label = (labelAt >= 0 ? args[labelAt + 1] : undefined) ?? 'fixture';
  const extras = args.includes('--extras');
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
      const server = createFixtureServer(label, { extras });
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
  const server = createFixtureServer(label, { extras });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`fixture ${label}: running on stdio (pid ${process.pid})\n`);
  process.stdin.on('end', () => process.exit(0));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
