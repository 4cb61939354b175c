/**
 * The conversation in a framework-neutral form: the tool calls and tool results an adapter extracts
 * from its framework's messages, oldest first. Other messages do not matter to tool search.
 */
export type ConversationEntry =
  | { type: 'tool-call'; toolCallId?: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId?: string; toolName: string; output: unknown };

/**
 * Unwraps a tool result as frameworks store it: a JSON string, an AI SDK output part
 * (`{ type: 'json' | 'text', value }`), an MCP result (`structuredContent`, or a text content part
 * holding JSON), or the plain object.
 */
export function unwrapToolOutput(output: unknown): unknown {
  let value = output;
  for (let depth = 0; depth < 4; depth++) {
    if (typeof value === 'string') {
      const text = value.trim();
      if (!text.startsWith('{') && !text.startsWith('[')) return value;
      try {
        value = JSON.parse(text);
      } catch {
        return output;
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    if ((record.type === 'json' || record.type === 'text') && 'value' in record) {
      value = record.value;
      continue;
    }
    if (record.structuredContent !== undefined && typeof record.structuredContent === 'object') {
      value = record.structuredContent;
      continue;
    }
    if (Array.isArray(record.content) && record.content.length === 1) {
      const part = record.content[0] as Record<string, unknown> | undefined;
      if (part?.type === 'text' && typeof part.text === 'string') {
        value = part.text;
        continue;
      }
    }
    return value;
  }
  return value;
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string');
}

/** The meta-tool names whose results record loads, as the session names them. */
export interface LoadRecordingTools {
  /** `load_tool` (search-load mode). */
  load?: string;
  /** `search_tools` when it loads its hits (auto-load mode). */
  autoLoadSearch?: string;
  /** The discovery tool (catalog mode). */
  discover?: string;
}

/**
 * The tool names loaded according to the conversation, in the order they were first loaded: the
 * `loaded` and `alreadyLoaded` lists of load results, of auto-load search results and of discovery
 * results still present in the messages. A plain search result never counts as a load. When a load
 * result is trimmed from the messages, its tools are no longer loaded.
 */
export function loadedNamesFromConversation(
  conversation: readonly ConversationEntry[] | undefined,
  tools: LoadRecordingTools,
): string[] {
  const loaded: string[] = [];
  const seen = new Set<string>();
  if (!conversation) return loaded;
  const recording = new Set([tools.load, tools.autoLoadSearch, tools.discover].filter(Boolean));
  for (const entry of conversation) {
    if (entry.type !== 'tool-result' || !recording.has(entry.toolName)) continue;
    const output = unwrapToolOutput(entry.output);
    if (typeof output !== 'object' || output === null) continue;
    const record = output as Record<string, unknown>;
    for (const name of [...stringList(record.loaded), ...stringList(record.alreadyLoaded)]) {
      if (!seen.has(name)) {
        seen.add(name);
        loaded.push(name);
      }
    }
  }
  return loaded;
}
