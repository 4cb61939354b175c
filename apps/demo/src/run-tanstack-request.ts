import {
  type AnyTextAdapter,
  chat,
  type ModelMessage,
  maxIterations,
  type StreamChunk,
  type TextOptions,
} from '@tanstack/ai';
import type { ToolDescriptor } from '@toolscout/core';
import { type ToolSearchChatMiddleware, toolSearchMiddleware } from '@toolscout/tanstack-ai';
import {
  type ModelCallRecord,
  parseJsonText,
  type RecordedCall,
  type RequestTrace,
  traceFromRecords,
} from './request-trace.js';
import { type HistoryEntry, nextModelAction, type ToolDefinition } from './scripted-agent.js';

/** Model calls allowed for one request: more than the scripted model ever needs. */
const MAX_MODEL_CALLS = 8;

/** A tool message's output as the model read it: `{ error }` alone is TanStack AI's way of reporting a failed call. */
function toolOutput(content: ModelMessage['content']): { output: unknown; isError: boolean } {
  const output = parseJsonText(content);
  const error = (output as { error?: unknown } | null)?.error;
  const isError = typeof error === 'string' && Object.keys(output as object).length === 1;
  return isError ? { output: error, isError } : { output, isError };
}

/** The tool calls and results in TanStack AI messages, oldest first. */
export function historyOfModelMessages(messages: readonly ModelMessage[]): HistoryEntry[] {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const history: HistoryEntry[] = [];
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) {
      calls.set(call.id, { toolName: call.function.name, input: parseJsonText(call.function.arguments) });
    }
    if (message.role === 'tool' && message.toolCallId !== undefined) {
      const call = calls.get(message.toolCallId);
      const toolCallId = message.toolCallId;
      history.push({
        toolCallId,
        toolName: call?.toolName ?? '',
        input: call?.input ?? {},
        ...toolOutput(message.content),
      });
    }
  }
  return history;
}

/**
 * The demo's scripted model as a TanStack AI `TextAdapter` (TanStack AI ships no fake one): each
 * `chatStream` call reads the tools and messages `chat()` sends, decides with `nextModelAction`,
 * records the call and streams the tool call or the answer as AG-UI chunks.
 */
class ScriptedTextAdapter {
  /** Every model call, in order. */
  readonly records: ModelCallRecord[] = [];
  #callIds = 0;

  constructor(
    readonly request: string,
    private readonly options: { filesDir: string; idPrefix: string },
  ) {}

  readonly adapter: AnyTextAdapter = {
    kind: 'text',
    name: 'scripted',
    model: 'scripted',
    '~types': {} as AnyTextAdapter['~types'],
    chatStream: (options: TextOptions) => this.#respond(options),
    structuredOutput: () => Promise.reject(new Error('The scripted model has no structured output.')),
  };

  async *#respond(options: TextOptions): AsyncIterable<StreamChunk> {
    const offered: ToolDefinition[] = (options.tools ?? []).map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema: (inputSchema ?? {}) as ToolDefinition['inputSchema'],
    }));
    const history = historyOfModelMessages(options.messages);
    const action = nextModelAction(
      { request: this.request, tools: offered, history },
      { filesDir: this.options.filesDir },
    );
    const id = `${this.options.idPrefix}-${++this.#callIds}`;
    const base = { timestamp: Date.now(), threadId: id, runId: id };
    yield { type: 'RUN_STARTED', ...base } as StreamChunk;
    if (action.type === 'answer') {
      this.records.push({ offered, history, action });
      yield { type: 'TEXT_MESSAGE_START', timestamp: base.timestamp, messageId: id, role: 'assistant' } as StreamChunk;
      yield {
        type: 'TEXT_MESSAGE_CONTENT',
        timestamp: base.timestamp,
        messageId: id,
        delta: action.text,
      } as StreamChunk;
      yield { type: 'TEXT_MESSAGE_END', timestamp: base.timestamp, messageId: id } as StreamChunk;
      yield { type: 'RUN_FINISHED', ...base, finishReason: 'stop' } as StreamChunk;
      return;
    }
    const call: RecordedCall = { toolCallId: id, toolName: action.toolName, input: action.input };
    this.records.push({ offered, history, action: { type: 'calls', calls: [call] } });
    const toolCallId = call.toolCallId;
    yield {
      type: 'TOOL_CALL_START',
      timestamp: base.timestamp,
      toolCallId,
      toolCallName: call.toolName,
    } as StreamChunk;
    yield {
      type: 'TOOL_CALL_ARGS',
      timestamp: base.timestamp,
      toolCallId,
      delta: JSON.stringify(call.input),
    } as StreamChunk;
    yield { type: 'TOOL_CALL_END', timestamp: base.timestamp, toolCallId } as StreamChunk;
    yield { type: 'RUN_FINISHED', ...base, finishReason: 'tool_calls' } as StreamChunk;
  }
}

/** Options of {@link runTanStackRequest}. */
export interface TanStackRequestOptions {
  /** The middleware over the demo's catalog (one for every request). */
  middleware: ToolSearchChatMiddleware;
  /** Where path arguments point. */
  filesDir: string;
  /** The conversation thread (`chat({ context: { threadId } })`): loaded tools are kept per thread. */
  threadId: string;
  /** Tells the run to stop. */
  signal?: AbortSignal;
}

/** toolscout's TanStack AI middleware over the demo's catalog. */
export function createTanStackMiddleware(tools: readonly ToolDescriptor[]): ToolSearchChatMiddleware {
  return toolSearchMiddleware({ catalog: [...tools] });
}

/** One request through TanStack AI's `chat()` with `toolSearchMiddleware` and the scripted text adapter. */
export async function runTanStackRequest(request: string, options: TanStackRequestOptions): Promise<RequestTrace> {
  const model = new ScriptedTextAdapter(request, {
    filesDir: options.filesDir,
    idPrefix: `tanstack-${options.threadId}`,
  });
  const abortController = new AbortController();
  const abort = () => abortController.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', abort, { once: true });
  let messages: ModelMessage[] = [];
  try {
    await chat({
      adapter: model.adapter,
      messages: [{ role: 'user', content: request }],
      middleware: [
        options.middleware,
        {
          name: 'demo-history',
          onFinish: (ctx) => {
            messages = [...ctx.messages];
          },
        },
      ],
      context: { threadId: options.threadId },
      agentLoopStrategy: maxIterations(MAX_MODEL_CALLS),
      abortController,
      stream: false,
    });
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
  return traceFromRecords('tanstack-ai', request, model.records, historyOfModelMessages(messages));
}
