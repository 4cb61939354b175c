import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { FakeBuiltModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import type { ToolDescriptor } from '@toolscout/core';
import { LangChainToolSearch, toolSearchMiddleware } from '@toolscout/langchain';
import { createAgent } from 'langchain';
import {
  type ModelCallRecord,
  parseJsonText,
  type RecordedCall,
  type RequestTrace,
  traceFromRecords,
} from './request-trace.js';
import { type HistoryEntry, nextModelAction, type ToolDefinition } from './scripted-agent.js';

/** Model calls queued for one request: more than the scripted model ever needs. */
const QUEUED_CALLS = 8;

function messageText(message: BaseMessage): string {
  return typeof message.content === 'string' ? message.content : message.text;
}

/** The tool calls and results in LangChain messages, oldest first. */
export function historyOfMessages(messages: readonly BaseMessage[]): HistoryEntry[] {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const history: HistoryEntry[] = [];
  for (const message of messages) {
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        if (call.id) calls.set(call.id, { toolName: call.name, input: call.args });
      }
    } else if (ToolMessage.isInstance(message)) {
      const call = calls.get(message.tool_call_id);
      history.push({
        toolCallId: message.tool_call_id,
        toolName: call?.toolName ?? message.name ?? '',
        input: call?.input ?? {},
        output: parseJsonText(messageText(message)),
        isError: message.status === 'error',
      });
    }
  }
  return history;
}

/**
 * The demo's scripted model as LangChain's own fake chat model (`FakeBuiltModel`, what `fakeModel()`
 * builds): each queued response is a factory that reads the messages and the tools bound for the call
 * (createAgent binds them once per model call), decides with `nextModelAction`, and records the call.
 */
export class ScriptedChatModel extends FakeBuiltModel {
  /** Every model call, in order. */
  readonly records: ModelCallRecord[] = [];
  #bound: ToolDefinition[] = [];
  #callIds = 0;

  constructor(
    readonly request: string,
    options: { filesDir: string; idPrefix: string },
  ) {
    super();
    for (let index = 0; index < QUEUED_CALLS; index++) {
      this.respond((messages) => {
        const offered = this.#bound;
        const history = historyOfMessages(messages);
        const action = nextModelAction({ request, tools: offered, history }, { filesDir: options.filesDir });
        if (action.type === 'answer') {
          this.records.push({ offered, history, action });
          return new AIMessage({ content: action.text });
        }
        const call: RecordedCall = {
          toolCallId: `${options.idPrefix}-${++this.#callIds}`,
          toolName: action.toolName,
          input: action.input,
        };
        this.records.push({ offered, history, action: { type: 'calls', calls: [call] } });
        return new AIMessage({
          content: '',
          tool_calls: [{ id: call.toolCallId, name: call.toolName, args: action.input, type: 'tool_call' }],
        });
      });
    }
  }

  override bindTools(tools: Parameters<FakeBuiltModel['bindTools']>[0]): ReturnType<FakeBuiltModel['bindTools']> {
    // As a provider integration converts them: name, description, JSON Schema parameters.
    this.#bound = tools.map((tool) => {
      const { function: definition } = convertToOpenAITool(tool as BindToolsInput);
      return {
        name: definition.name,
        description: definition.description ?? '',
        inputSchema: (definition.parameters ?? {}) as ToolDefinition['inputSchema'],
      };
    });
    return super.bindTools(tools);
  }
}

/** Options of {@link runLangChainRequest}. */
export interface LangChainRequestOptions {
  /** The tool search over the demo's catalog, given to the middleware (one for every request). */
  search: LangChainToolSearch;
  /** Where path arguments point. */
  filesDir: string;
  /** The conversation thread (`configurable.thread_id`): loaded tools are kept per thread. */
  threadId: string;
  /** Tells the run to stop. */
  signal?: AbortSignal;
}

/** toolscout's LangChain tool search over the demo's catalog. */
export function createLangChainSearch(tools: readonly ToolDescriptor[]): LangChainToolSearch {
  return new LangChainToolSearch({ catalog: [...tools] });
}

/**
 * One request through LangChain v1's `createAgent` with `toolSearchMiddleware` and the scripted
 * fake chat model.
 */
export async function runLangChainRequest(request: string, options: LangChainRequestOptions): Promise<RequestTrace> {
  const model = new ScriptedChatModel(request, {
    filesDir: options.filesDir,
    idPrefix: `langchain-${options.threadId}`,
  });
  const agent = createAgent({ model, tools: [], middleware: [toolSearchMiddleware(options.search)] });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: request }] },
    { configurable: { thread_id: options.threadId }, recursionLimit: 25, signal: options.signal },
  );
  return traceFromRecords('langchain', request, model.records, historyOfMessages(result.messages));
}
