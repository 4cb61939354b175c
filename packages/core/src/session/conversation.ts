import { InvalidArgumentError } from '../errors.js';
import { DEFAULT_MAX_TOOLS_PER_THREAD } from '../stores/loaded-tool-store.js';
import { describeValue, isRecord } from '../values.js';

/**
 * The conversation in a framework-neutral form: the tool calls and tool results an adapter extracts
 * from its framework's messages, and the user's messages (their text, for `preselect`), oldest
 * first. Other messages do not matter to tool search.
 */
export type ConversationEntry =
  | { type: 'tool-call'; toolCallId?: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId?: string; toolName: string; output: unknown }
  | { type: 'user-message'; text: string };

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

/** The strings of a result's own list field (an inherited one, e.g. through `__proto__`, is not the result's). */
function ownStrings(record: Record<string, unknown>, field: string): string[] {
  const value = Object.hasOwn(record, field) ? record[field] : undefined;
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string');
}

/** The names a load-recording result lists (`loaded`, then `alreadyLoaded`), or none when it is not one. */
function recordedNames(entry: unknown, recording: ReadonlySet<unknown>): string[] {
  if (!isRecord(entry) || entry.type !== 'tool-result' || !recording.has(entry.toolName)) return [];
  const output = unwrapToolOutput(entry.output);
  if (!isRecord(output)) return [];
  return [...ownStrings(output, 'loaded'), ...ownStrings(output, 'alreadyLoaded')];
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
 *
 * The conversation comes from the client, so anything is expected in it: entries that are not tool
 * results, non-string names and lists inherited through a prototype are ignored. Each result counts
 * as one add to a store capped at `maxTools` (default 256, as `InMemoryLoadedToolStore`): a result
 * whose new names would go beyond it adds none of them. Throws `InvalidArgumentError` (argument
 * `conversation`) when `conversation` is neither an array nor undefined.
 */
export function loadedNamesFromConversation(
  conversation: readonly ConversationEntry[] | undefined,
  tools: LoadRecordingTools,
  maxTools: number = DEFAULT_MAX_TOOLS_PER_THREAD,
): string[] {
  if (conversation === undefined) return [];
  if (!Array.isArray(conversation)) {
    throw new InvalidArgumentError(
      'conversation',
      `The conversation must be an array of tool calls and results (ConversationEntry[]), got ${describeValue(conversation)}. Pass the adapter's converted messages, or leave it out.`,
    );
  }
  // A set keeps its names in the order they were first added: the load order.
  const loaded = new Set<string>();
  const recording = new Set<unknown>([tools.load, tools.autoLoadSearch, tools.discover].filter(Boolean));
  for (const entry of conversation as readonly unknown[]) {
    const fresh = new Set<string>();
    for (const name of recordedNames(entry, recording)) {
      if (!loaded.has(name)) fresh.add(name);
      if (loaded.size + fresh.size > maxTools) break;
    }
    if (loaded.size + fresh.size > maxTools) continue;
    for (const name of fresh) loaded.add(name);
  }
  return [...loaded];
}
