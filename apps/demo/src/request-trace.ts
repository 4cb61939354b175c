import { countToolDefinitionTokens } from '@toolscout/core';
import { type HistoryEntry, resultFailed, type ToolDefinition } from './scripted-agent.js';

/** The frameworks the demo runs, in the order it runs them. */
export const FRAMEWORKS = ['mcp', 'ai-sdk', 'mastra', 'langchain', 'tanstack-ai'] as const;
export type FrameworkId = (typeof FRAMEWORKS)[number];

/** How each framework is named in the output. */
export const FRAMEWORK_LABELS: Record<FrameworkId, string> = {
  mcp: 'MCP',
  'ai-sdk': 'AI SDK',
  mastra: 'Mastra',
  langchain: 'LangChain',
  'tanstack-ai': 'TanStack AI',
};

/** One tool call a model made. */
export interface RecordedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** One model call as recorded at the model: what it was offered and saw, and what it did. */
export interface ModelCallRecord {
  /** The tools the framework offered the model at this call. */
  offered: ToolDefinition[];
  /** The tool calls and results in the model's input at this call. */
  history: HistoryEntry[];
  /** Its tool calls (run by the framework), or its answer. */
  action: { type: 'calls'; calls: RecordedCall[] } | { type: 'answer'; text: string };
  /** Things worth showing beside the step (e.g. a `tools/list_changed` notification before it). */
  notes?: string[];
}

/** A call of a step, with the result the model saw for it. */
export interface TraceCall extends RecordedCall {
  /** Absent when the model never saw a result (the run stopped first). */
  result?: { ok: boolean; output: unknown };
}

/** One step of a request: one model call. */
export interface TraceStep {
  /** Names of the tools offered, in order. */
  offered: string[];
  /** o200k tokens of the offered tool definitions. */
  offeredTokens: number;
  calls: TraceCall[];
  /** The model's answer, at the last step. */
  answer?: string;
  /** Things worth showing beside the step. */
  notes?: string[];
}

/** What happened to one request in one framework. */
export interface RequestTrace {
  framework: FrameworkId;
  request: string;
  steps: TraceStep[];
  /** The run failed outside the model's steps (the framework threw). */
  error?: string;
}

/** The o200k tokens of a set of tool definitions (core's counter, the one `session.measureStep` uses). */
export async function definitionTokens(tools: readonly ToolDefinition[]): Promise<number> {
  return (await countToolDefinitionTokens(tools)).tokens;
}

/**
 * The trace of one request from the model calls recorded at the model: each call is a step; a tool
 * call's result is the one the model saw at a later step (matched by tool call id), or, for the
 * last step's calls, the one in `finalHistory` when given.
 */
export async function traceFromRecords(
  framework: FrameworkId,
  request: string,
  records: readonly ModelCallRecord[],
  finalHistory: readonly HistoryEntry[] = [],
): Promise<RequestTrace> {
  const seen = new Map<string, HistoryEntry>();
  for (const entry of [...records.flatMap((record) => record.history), ...finalHistory]) {
    if (!seen.has(entry.toolCallId)) seen.set(entry.toolCallId, entry);
  }
  const steps: TraceStep[] = [];
  for (const record of records) {
    const step: TraceStep = {
      offered: record.offered.map((tool) => tool.name),
      offeredTokens: await definitionTokens(record.offered),
      calls: [],
    };
    if (record.notes && record.notes.length > 0) step.notes = record.notes;
    if (record.action.type === 'answer') step.answer = record.action.text;
    else {
      step.calls = record.action.calls.map((call) => {
        const entry = seen.get(call.toolCallId);
        return entry ? { ...call, result: { ok: !resultFailed(entry), output: entry.output } } : { ...call };
      });
    }
    steps.push(step);
  }
  return { framework, request, steps };
}

/** Parses JSON text (objects and arrays); leaves other values as they are. */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}
