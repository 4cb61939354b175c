// The fast local upstreams of `bench gateway`: three in-process MCP servers of twenty tools each,
// with handlers that only echo, so that what the load test measures is the gateway itself.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** One upstream tool, and where the gateway serves it. */
export interface UpstreamTool {
  /** The upstream server's name (the gateway's namespace). */
  server: string;
  /** The tool's name on its server. */
  name: string;
  /** The name a gateway client loads and calls: `<server>__<name>`. */
  gatewayName: string;
  description: string;
  /** A request a client would search with to find it. */
  query: string;
}

/** Each server's subject and the things it handles; every tool is one action on one thing. */
const SERVERS: Record<string, { subject: string; things: readonly string[] }> = {
  calendar: { subject: 'calendar', things: ['event', 'reminder', 'attendee', 'room'] },
  crm: { subject: 'customer relationship', things: ['contact', 'deal', 'company', 'note'] },
  storage: { subject: 'cloud storage', things: ['file', 'folder', 'share', 'version'] },
};
const ACTIONS = ['create', 'get', 'list', 'update', 'delete'] as const;

/** The 60 tools of the three upstreams, in a fixed order. */
export const UPSTREAM_TOOLS: readonly UpstreamTool[] = Object.entries(SERVERS).flatMap(
  ([server, { subject, things }]) =>
    things.flatMap((thing) =>
      ACTIONS.map((action) => ({
        server,
        name: `${action}_${thing}`,
        gatewayName: `${server}__${action}_${thing}`,
        description: `${action[0]!.toUpperCase()}${action.slice(1)} a ${thing} in the ${subject} service.`,
        query: `${action} ${subject} ${thing}`,
      })),
    ),
);

/** The names of the upstream servers. */
export const UPSTREAM_SERVERS: readonly string[] = Object.keys(SERVERS);

const INPUT_SCHEMA: Tool['inputSchema'] = {
  type: 'object',
  properties: { id: { type: 'string', description: 'What to act on.' } },
  required: ['id'],
};

/** What a call of `tool` with `id` answers (clients check it). */
export function upstreamAnswer(tool: string, id: string): string {
  return `${tool} done: ${id}`;
}

/** An SDK server (low-level `Server`, no schema library) serving one upstream's tools. */
export function createUpstreamServer(name: string): Server {
  const tools = UPSTREAM_TOOLS.filter((tool) => tool.server === name);
  const server = new Server({ name: `bench-${name}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: INPUT_SCHEMA })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const id = String(request.params.arguments?.id ?? '');
    return { content: [{ type: 'text', text: upstreamAnswer(request.params.name, id) }] };
  });
  return server;
}
