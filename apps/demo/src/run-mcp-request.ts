import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpSession } from './demo-catalog.js';
import { type ModelCallRecord, type RequestTrace, traceFromRecords } from './request-trace.js';
import { type HistoryEntry, nextModelAction, type ToolDefinition } from './scripted-agent.js';

/** Options of {@link runMcpRequest}. */
export interface McpRequestOptions {
  /** Where path arguments point. */
  filesDir: string;
  /** Model steps at most. Default 6. */
  maxSteps?: number;
  /** Tells the run to stop. */
  signal?: AbortSignal;
}

async function listAllTools(session: McpSession, signal?: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listTools(cursor === undefined ? undefined : { cursor }, { signal });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/**
 * One request through an MCP client session, the way an MCP host (Claude Desktop, Cursor) runs its
 * model: before each step it lists the tools (`tools/list`, again after `tools/list_changed`), the
 * scripted model picks an action from what it was offered and saw, and the host calls the tool
 * (`tools/call`). Tools loaded in the session stay loaded for later requests of the same session.
 */
export async function runMcpRequest(
  session: McpSession,
  request: string,
  options: McpRequestOptions,
): Promise<RequestTrace> {
  const maxSteps = options.maxSteps ?? 6;
  const records: ModelCallRecord[] = [];
  const history: HistoryEntry[] = [];
  let changesSeen = session.listChanged();
  let callId = 0;
  for (let step = 0; step < maxSteps; step++) {
    const tools: ToolDefinition[] = (await listAllTools(session, options.signal)).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema as ToolDefinition['inputSchema'],
    }));
    const notes: string[] = [];
    const changes = session.listChanged();
    if (changes > changesSeen) notes.push('notifications/tools/list_changed received: tools/list again');
    changesSeen = changes;
    const action = nextModelAction({ request, tools, history: [...history] }, { filesDir: options.filesDir });
    const record: ModelCallRecord = {
      offered: tools,
      history: [...history],
      action: action.type === 'answer' ? action : { type: 'calls', calls: [] },
      notes,
    };
    records.push(record);
    if (action.type === 'answer') break;
    const toolCallId = `mcp-${++callId}`;
    record.action = { type: 'calls', calls: [{ toolCallId, toolName: action.toolName, input: action.input }] };
    let output: unknown;
    let isError: boolean;
    try {
      const result = await session.client.callTool({ name: action.toolName, arguments: action.input }, undefined, {
        signal: options.signal,
        timeout: 60_000,
      });
      output = result;
      isError = result.isError === true;
    } catch (error) {
      // A protocol error (e.g. an unknown tool): the host shows the model the message.
      output = (error as Error).message;
      isError = true;
    }
    history.push({ toolCallId, toolName: action.toolName, input: action.input, output, isError });
  }
  return traceFromRecords('mcp', request, records, history);
}
