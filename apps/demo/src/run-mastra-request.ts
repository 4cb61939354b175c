import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { MASTRA_THREAD_ID_KEY, RequestContext } from '@mastra/core/request-context';
import type { ToolDescriptor } from '@toolscout/core';
import { type MastraTool, ToolSearchProcessor } from '@toolscout/mastra';
import { type RequestTrace, traceFromRecords } from './request-trace.js';
import { ScriptedLanguageModel } from './scripted-language-model.js';

/** Options of {@link runMastraRequest}. */
export interface MastraRequestOptions {
  /** The processor over the demo's catalog (one for every request, as in an app). */
  processor: ToolSearchProcessor;
  /** Where path arguments point. */
  filesDir: string;
  /** The conversation thread (`mastra__threadId`): loaded tools are kept per thread. */
  threadId: string;
  /** Model steps at most. Default 6. */
  maxSteps?: number;
  /** Tells the run to stop. */
  signal?: AbortSignal;
}

/** toolscout's `ToolSearchProcessor` over the demo's catalog. */
export function createMastraProcessor(tools: readonly ToolDescriptor[]): ToolSearchProcessor {
  return new ToolSearchProcessor({ tools: tools as Iterable<ToolDescriptor<MastraTool>> });
}

/**
 * One request through a real Mastra `Agent` with the `ToolSearchProcessor` as its input processor
 * and the scripted `MockLanguageModelV4` as its model.
 */
export async function runMastraRequest(request: string, options: MastraRequestOptions): Promise<RequestTrace> {
  const scripted = new ScriptedLanguageModel({ filesDir: options.filesDir, idPrefix: `mastra-${options.threadId}` });
  const agent = new Agent({
    id: 'toolscout-demo',
    name: 'toolscout demo agent',
    instructions: 'Find the tool for the request with search_tools, load it with load_tool, then call it.',
    // Mastra 1.71's types expect a V4 model's doGenerate to return a stream; it calls doGenerate for generate.
    model: scripted.mock as unknown as MastraModelConfig,
    inputProcessors: [options.processor],
  });
  const requestContext = new RequestContext();
  requestContext.set(MASTRA_THREAD_ID_KEY, options.threadId);
  const output = await agent.generate(request, {
    maxSteps: options.maxSteps ?? 6,
    requestContext,
    abortSignal: options.signal,
  });
  if (output.error) throw output.error;
  return traceFromRecords('mastra', request, scripted.records);
}
