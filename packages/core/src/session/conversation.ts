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
  const value = ownValue(record, field);
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string');
}

/** How a meta-tool's results record loads. */
type Recorder = 'load' | 'auto-load search' | 'discover';

/**
 * The names a load-recording result lists, or none when it is not one. Read in every shape this
 * session (and Mastra's processor) has written, so that threads kept before still read:
 * - `load_tool`: `toolName` when `success` is true (Mastra's single form), `loaded` and `alreadyLoaded`;
 * - an auto-load search: `loaded` (and `alreadyLoaded`) when the result has them (some hits were not
 *   loaded), else every hit of `results` (all were loaded, Mastra's form);
 * - discovery: `loaded` and `alreadyLoaded`.
 */
function recordedNames(entry: unknown, recorders: ReadonlyMap<unknown, Recorder>): string[] {
  if (!isRecord(entry) || entry.type !== 'tool-result') return [];
  const recorder = recorders.get(entry.toolName);
  const output = recorder === undefined ? undefined : unwrapToolOutput(entry.output);
  if (!isRecord(output)) return [];
  const listed = [...ownStrings(output, 'loaded'), ...ownStrings(output, 'alreadyLoaded')];
  if (recorder === 'load') {
    const single = ownValue(output, 'success') === true ? ownValue(output, 'toolName') : undefined;
    return typeof single === 'string' ? [single, ...listed] : listed;
  }
  if (recorder === 'auto-load search' && !Object.hasOwn(output, 'loaded')) {
    const results = ownValue(output, 'results');
    if (!Array.isArray(results)) return [];
    return results.flatMap((result) => {
      const name = isRecord(result) ? ownValue(result, 'name') : undefined;
      return typeof name === 'string' ? [name] : [];
    });
  }
  return listed;
}

/** A record's own field (an inherited one, e.g. through `__proto__`, is not the record's). */
function ownValue(record: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
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
 * The tool names loaded according to the conversation, in the order they were first loaded: what
 * the load results, auto-load search results and discovery results still present in the messages
 * record (see `recordedNames`: the shapes of this and earlier versions, and Mastra's). A plain
 * search result never counts as a load (mastra-ai/mastra#19145). When a load result is trimmed from
 * the messages, its tools are no longer loaded.
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
  const recorders = new Map<unknown, Recorder>();
  if (tools.discover) recorders.set(tools.discover, 'discover');
  if (tools.autoLoadSearch) recorders.set(tools.autoLoadSearch, 'auto-load search');
  if (tools.load) recorders.set(tools.load, 'load');
  for (const entry of conversation as readonly unknown[]) {
    const fresh = new Set<string>();
    for (const name of recordedNames(entry, recorders)) {
      if (!loaded.has(name)) fresh.add(name);
      if (loaded.size + fresh.size > maxTools) break;
    }
    if (loaded.size + fresh.size > maxTools) continue;
    for (const name of fresh) loaded.add(name);
  }
  return [...loaded];
}
