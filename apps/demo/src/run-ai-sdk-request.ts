import type { AISDKToolSearch } from '@toolscout/ai-sdk';
import { createToolSearch } from '@toolscout/ai-sdk';
import type { ToolDescriptor } from '@toolscout/core';
import { generateText, type LanguageModel, stepCountIs, type Tool } from 'ai';
import { type ModelCallRecord, type RequestTrace, traceFromRecords } from './request-trace.js';
import type { HistoryEntry } from './scripted-agent.js';
import { recordingModel, ScriptedLanguageModel } from './scripted-language-model.js';

/** What a real model is told; the scripted model needs no instructions. */
export const AGENT_INSTRUCTIONS =
  'You have a large catalog of tools that are not loaded yet. Find the tool for the request with ' +
  'search_tools, load the best match with load_tool, call it with arguments that fit its schema, ' +
  'then answer in one or two sentences. Files live in this folder: ';

/** Options of {@link runAISDKRequest}. */
export interface AISDKRequestOptions {
  /** The tool search the agent spreads into `generateText`. */
  search: AISDKToolSearch;
  /** Where path arguments point. */
  filesDir: string;
  /** The conversation thread: loaded tools are kept per thread. */
  threadId: string;
  /** A real model; without one, the scripted `MockLanguageModelV4`. */
  model?: LanguageModel;
  /** Model steps at most. Default 6 (8 with a real model). */
  maxSteps?: number;
  /** Tells the run to stop. */
  signal?: AbortSignal;
}

/** The AI SDK tool search over the demo's catalog. */
export function createAISDKSearch(tools: readonly ToolDescriptor[]): AISDKToolSearch {
  return createToolSearch({ catalog: tools as Iterable<ToolDescriptor<Tool>> });
}

/**
 * One request through the AI SDK: `generateText` with `createToolSearch` spread in, the thread id in
 * the runtime context, and the scripted `MockLanguageModelV4` (or a real model, recorded the same way).
 */
export async function runAISDKRequest(request: string, options: AISDKRequestOptions): Promise<RequestTrace> {
  const { search, filesDir, threadId } = options;
  let records: ModelCallRecord[];
  let model: LanguageModel;
  if (options.model === undefined) {
    const scripted = new ScriptedLanguageModel({ filesDir, idPrefix: `ai-sdk-${threadId}` });
    records = scripted.records;
    model = scripted.mock;
  } else {
    records = [];
    model = recordingModel(options.model as Exclude<LanguageModel, string>, records);
  }
  const result = await generateText({
    model,
    ...(options.model === undefined ? {} : { system: `${AGENT_INSTRUCTIONS}${filesDir}` }),
    prompt: request,
    stopWhen: stepCountIs(options.maxSteps ?? (options.model === undefined ? 6 : 8)),
    runtimeContext: { threadId },
    abortSignal: options.signal,
    ...search,
  });
  // The results of the last step's calls, which no later model call saw.
  const finalHistory: HistoryEntry[] = result.steps.flatMap((step) =>
    step.content.flatMap((part): HistoryEntry[] => {
      if (part.type === 'tool-result') {
        return [
          {
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            output: part.output,
            isError: false,
          },
        ];
      }
      if (part.type === 'tool-error') {
        const error = part.error instanceof Error ? part.error.message : String(part.error);
        return [
          { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, output: error, isError: true },
        ];
      }
      return [];
    }),
  );
  return traceFromRecords('ai-sdk', request, records, finalHistory);
}
