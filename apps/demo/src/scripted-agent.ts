import type { JsonSchema } from '@toolscout/core';
import { isRecord, unwrapToolOutput } from '@toolscout/core/internal';
import { fillArguments } from './fill-arguments.js';

/** A tool definition as the model received it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** One tool call the model made earlier in the request, with the result it saw. */
export interface HistoryEntry {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The result as the model saw it, unwrapped (JSON text parsed, MCP text content read). */
  output: unknown;
  /** Whether the framework marked the result as an error (or the MCP result had `isError`). */
  isError: boolean;
}

/** What the model has in front of it at one step. */
export interface ModelView {
  /** The user's request. */
  request: string;
  /** The tools offered at this step. */
  tools: readonly ToolDefinition[];
  /** The tool calls of this request so far, with their results, oldest first. */
  history: readonly HistoryEntry[];
}

/** What the model does at a step: call tools, or answer. */
export type ModelAction =
  | { type: 'call'; toolName: string; input: Record<string, unknown> }
  | { type: 'answer'; text: string };

/** Names and folders the scripted model needs. */
export interface ScriptedAgentOptions {
  /** The search meta-tool's name. Default `search_tools`. */
  searchTool?: string;
  /** The load meta-tool's name. Default `load_tool`. */
  loadTool?: string;
  /** Where path arguments point. */
  filesDir: string;
}

/** A result as one line of text: MCP text content joined, other values as compact JSON. */
export function resultText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && Array.isArray(output.content)) {
    const texts = output.content.flatMap((part) =>
      isRecord(part) && part.type === 'text' && typeof part.text === 'string'
        ? [part.text]
        : isRecord(part)
          ? [`[${String(part.type)}]`]
          : [],
    );
    if (texts.length > 0) return texts.join(' ');
  }
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

/** Whether a result failed: marked as an error by the framework, or an MCP result with `isError`. */
export function resultFailed(entry: Pick<HistoryEntry, 'output' | 'isError'>): boolean {
  return entry.isError || (isRecord(entry.output) && entry.output.isError === true);
}

/** Cuts text to one line of at most `max` characters. */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The hits of a `search_tools` result: names and scores, best first. */
export function searchHits(output: unknown): { name: string; score?: number }[] {
  const value = unwrapToolOutput(output);
  if (!isRecord(value) || !Array.isArray(value.results)) return [];
  return value.results.flatMap((hit) =>
    isRecord(hit) && typeof hit.name === 'string'
      ? [{ name: hit.name, score: typeof hit.score === 'number' ? hit.score : undefined }]
      : [],
  );
}

/**
 * The tool names a `load_tool` result reports as loaded (newly or already): the `toolName` of a
 * successful single-name load, and the `loaded` and `alreadyLoaded` lists of a list load.
 */
export function loadedNames(output: unknown): string[] {
  const value = unwrapToolOutput(output);
  if (!isRecord(value)) return [];
  const names = [value.loaded, value.alreadyLoaded].flatMap((list) =>
    Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [],
  );
  const single = value.success === true && typeof value.toolName === 'string' ? [value.toolName] : [];
  return [...single, ...names];
}

/**
 * The demo's scripted model, the same for every framework, and honest: it decides from what it has
 * in front of it (the request, the tools offered, the results it saw), never from a script written
 * for a known catalog.
 *
 * 1. `search_tools` with the user's words;
 * 2. `load_tool` with the top hit, whatever it is;
 * 3. a call of that tool, once it is offered, with arguments filled from its JSON Schema;
 * 4. an answer that summarises the result.
 *
 * When a step fails (no hits, a failed load, the tool not offered), it answers with what went wrong.
 */
export function nextModelAction(view: ModelView, options: ScriptedAgentOptions): ModelAction {
  const searchTool = options.searchTool ?? 'search_tools';
  const loadTool = options.loadTool ?? 'load_tool';
  const last = view.history.at(-1);
  if (last === undefined) {
    if (!view.tools.some((tool) => tool.name === searchTool)) {
      return { type: 'answer', text: `I was not offered ${searchTool}, so I cannot look for a tool.` };
    }
    return { type: 'call', toolName: searchTool, input: { query: view.request } };
  }
  if (last.toolName === searchTool) {
    if (resultFailed(last)) return { type: 'answer', text: `The search failed: ${oneLine(resultText(last.output))}` };
    const top = searchHits(last.output)[0];
    if (top === undefined) return { type: 'answer', text: 'No tool in the catalog matches this request.' };
    return { type: 'call', toolName: loadTool, input: { toolName: top.name } };
  }
  if (last.toolName === loadTool) {
    const wanted = isRecord(last.input) && typeof last.input.toolName === 'string' ? last.input.toolName : undefined;
    const name = loadedNames(last.output)[0] ?? wanted;
    if (resultFailed(last) || name === undefined) {
      return { type: 'answer', text: `Loading the tool failed: ${oneLine(resultText(last.output))}` };
    }
    const tool = view.tools.find((offered) => offered.name === name);
    if (tool === undefined) return { type: 'answer', text: `${name} was loaded but is not offered to me.` };
    return {
      type: 'call',
      toolName: tool.name,
      input: fillArguments(tool.inputSchema, { request: view.request, filesDir: options.filesDir }),
    };
  }
  const outcome = resultFailed(last) ? 'failed' : 'answered';
  return {
    type: 'answer',
    text: `${last.toolName} ${outcome}: ${oneLine(resultText(unwrapOutputText(last.output)), 240)}`,
  };
}

/** MCP results keep their content for the text; other JSON text is parsed. */
function unwrapOutputText(output: unknown): unknown {
  if (isRecord(output) && Array.isArray(output.content)) return output;
  return unwrapToolOutput(output);
}
