import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ConformanceHarness, Transcript } from '@toolscout/conformance';
import { parseJsonOrText } from '@toolscout/test-kit/json';
import {
  type McpConnectable,
  type McpConnectionOptions,
  McpToolSearchServer,
  type McpToolSearchServerOptions,
} from '../src/mcp-tool-search-server.js';

/** A real MCP `Client` connected in memory to a search server (or a gateway). */
export async function connectInMemory(
  target: McpConnectable,
  connection: McpConnectionOptions = {},
  options: ClientOptions = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await target.connect(serverSide, connection);
  const client = new Client({ name: 'toolscout-test-client', version: '1.0.0' }, options);
  await client.connect(clientSide);
  return client;
}

/** The meta-tools of the default mode, `search-load`, as `tools/list` shows them. */
export const META = ['search_tools', 'load_tool'];

/** Calls a tool through a real client. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The names a client's `tools/list` shows. */
export async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

/** The text a tool result carries (its text parts, joined). */
export function resultText(result: CallToolResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** What the model saw of a result: JSON text parsed, other text as it is. */
function modelView(result: CallToolResult): unknown {
  const text = resultText(result);
  return result.isError ? text : parseJsonOrText(text);
}

/** One exchange of the harness's history (MCP itself keeps no conversation). */
export interface McpHarnessExchange {
  toolName: string;
  input: unknown;
  result: CallToolResult;
}

/**
 * The conformance harness for MCP: an {@link McpToolSearchServer} and, per thread, one client
 * session of a real MCP `Client` over `InMemoryTransport`. The scripted "model" calls `tools/list`
 * before each step (what it is offered) and `tools/call` for each scripted call. A thread is a client
 * session: loaded tools live in the server, per session, so the history (the exchanges so far) is a
 * record only and cannot restore a session.
 */
export function createMcpHarness(): ConformanceHarness {
  return {
    createAgent(setup) {
      const server = new McpToolSearchServer({
        catalog: setup.tools,
        tools: setup.directTools,
        ...(setup.options as Omit<McpToolSearchServerOptions, 'catalog'>),
      });
      const sessions = new Map<string, Promise<Client>>();
      const sessionFor = (threadId: string | undefined, context: unknown) => {
        if (threadId === undefined) return connectInMemory(server, { context });
        let session = sessions.get(threadId);
        if (!session) {
          session = connectInMemory(server, { threadId, context });
          sessions.set(threadId, session);
        }
        return session;
      };
      return {
        async run(turn): Promise<Transcript> {
          if (turn.history !== undefined && !Array.isArray(turn.history)) {
            throw new TypeError('The MCP harness takes the history it returned from an earlier turn.');
          }
          const history: McpHarnessExchange[] = [...((turn.history as McpHarnessExchange[] | undefined) ?? [])];
          const transcript: Transcript = { steps: [], results: [], history };
          const client = await sessionFor(turn.threadId, turn.context);
          for (const action of turn.script) {
            const { tools } = await client.listTools();
            transcript.steps.push({
              offered: tools.map((tool) => tool.name),
              descriptions: Object.fromEntries(tools.map((tool) => [tool.name, tool.description ?? ''])),
              // MCP's system channel: the server's instructions in `initialize`, which clients give the model.
              system: client.getInstructions(),
            });
            if (action.type === 'answer') break;
            // Parallel calls go out together, as a client sends one model response's calls.
            const results = await Promise.all(
              action.calls.map(
                (call) =>
                  client.callTool({
                    name: call.toolName,
                    arguments: call.input as Record<string, unknown>,
                  }) as Promise<CallToolResult>,
              ),
            );
            action.calls.forEach((call, index) => {
              const result = results[index]!;
              history.push({ toolName: call.toolName, input: call.input, result });
              transcript.results.push({
                toolName: call.toolName,
                output: modelView(result),
                isError: result.isError === true,
              });
            });
          }
          if (turn.threadId === undefined) await client.close();
          return transcript;
        },
      };
    },
  };
}
