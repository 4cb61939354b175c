import { isRecord } from '@toolscout/core/internal';
import { generateResultOf, streamResultOf } from '@toolscout/core/testing';
import type { LanguageModel, LanguageModelMiddleware } from 'ai';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { ModelCallRecord, RecordedCall } from './request-trace.js';
import { parseJsonText } from './request-trace.js';
import {
  type HistoryEntry,
  type ModelAction,
  nextModelAction,
  type ScriptedAgentOptions,
  type ToolDefinition,
} from './scripted-agent.js';

/** What an AI SDK language model (V4) receives at one call. */
export type LanguageModelCallOptions = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['params'];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV4['doStream']>>;

/** The function tools a call offers, as definitions. */
export function offeredTools(options: LanguageModelCallOptions): ToolDefinition[] {
  return (options.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [
          {
            name: tool.name,
            description: tool.description ?? '',
            inputSchema: tool.inputSchema as ToolDefinition['inputSchema'],
          },
        ]
      : [],
  );
}

/** The text of the last user message of a prompt: the request. */
export function requestOfPrompt(prompt: LanguageModelCallOptions['prompt']): string {
  const user = [...prompt].reverse().find((message) => message.role === 'user');
  if (user?.role !== 'user') return '';
  return user.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** A tool output part as the model sees it: its value, and whether it is an error. */
function seenOutput(output: unknown): { output: unknown; isError: boolean } {
  if (!isRecord(output)) return { output, isError: false };
  switch (output.type) {
    case 'json':
      return { output: output.value, isError: false };
    case 'text':
      return { output: parseJsonText(output.value), isError: false };
    case 'error-text':
    case 'error-json':
      return { output: output.value, isError: true };
    case 'execution-denied':
      return { output: output.reason ?? 'denied', isError: true };
    case 'content':
      return {
        output: {
          content: (Array.isArray(output.value) ? output.value : []).map((part) =>
            isRecord(part) && part.type === 'text' ? { type: 'text', text: part.text } : part,
          ),
        },
        isError: false,
      };
    default:
      return { output, isError: false };
  }
}

/** The tool calls and results in a prompt, oldest first (calls without a result yet are left out). */
export function historyOfPrompt(prompt: LanguageModelCallOptions['prompt']): HistoryEntry[] {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const history: HistoryEntry[] = [];
  for (const message of prompt) {
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-call') {
          calls.set(part.toolCallId, { toolName: part.toolName, input: parseJsonText(part.input) });
        }
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const call = calls.get(part.toolCallId);
        history.push({
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: call?.input ?? {},
          ...seenOutput(part.output),
        });
      }
    }
  }
  return history;
}

/**
 * The demo's scripted model as an AI SDK `MockLanguageModelV4` (from `ai/test`), for the AI SDK and
 * Mastra agents: at every call it reads the request, the tools offered and the results in its
 * prompt, decides with {@link nextModelAction}, and records the call.
 */
export class ScriptedLanguageModel {
  readonly mock: MockLanguageModelV4;
  /** Every call, in order. */
  readonly records: ModelCallRecord[] = [];
  readonly #options: ScriptedAgentOptions;
  readonly #prefix: string;
  #callIds = 0;

  constructor(options: ScriptedAgentOptions & { idPrefix: string }) {
    this.#options = options;
    this.#prefix = options.idPrefix;
    this.mock = new MockLanguageModelV4({
      provider: 'toolscout-demo',
      modelId: 'scripted',
      doGenerate: async (callOptions) => this.#generate(callOptions),
      doStream: async (callOptions) => this.#stream(callOptions),
    });
  }

  #decide(callOptions: LanguageModelCallOptions): ModelAction & { calls?: RecordedCall[] } {
    const offered = offeredTools(callOptions);
    const history = historyOfPrompt(callOptions.prompt);
    const action = nextModelAction(
      { request: requestOfPrompt(callOptions.prompt), tools: offered, history },
      this.#options,
    );
    if (action.type === 'answer') {
      this.records.push({ offered, history, action });
      return action;
    }
    const call: RecordedCall = {
      toolCallId: `${this.#prefix}-${++this.#callIds}`,
      toolName: action.toolName,
      input: action.input,
    };
    this.records.push({ offered, history, action: { type: 'calls', calls: [call] } });
    return { ...action, calls: [call] };
  }

  #generate(callOptions: LanguageModelCallOptions): GenerateResult {
    const action = this.#decide(callOptions);
    return generateResultOf(action.type === 'answer' ? action : { type: 'calls', calls: action.calls ?? [] });
  }

  #stream(callOptions: LanguageModelCallOptions): StreamResult {
    return streamResultOf(this.#generate(callOptions));
  }
}

/**
 * A real model wrapped to record each call as the scripted model records its own: the tools offered,
 * the results in the prompt, and the calls or text it answered with.
 */
export function recordingModel(model: Exclude<LanguageModel, string>, records: ModelCallRecord[]): LanguageModel {
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]['model'],
    middleware: {
      specificationVersion: 'v4',
      wrapGenerate: async ({ doGenerate, params }) => {
        const result = await doGenerate();
        const calls: RecordedCall[] = result.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [{ toolCallId: part.toolCallId, toolName: part.toolName, input: parseJsonText(part.input) }]
            : [],
        );
        const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
        records.push({
          offered: offeredTools(params),
          history: historyOfPrompt(params.prompt),
          action: calls.length > 0 ? { type: 'calls', calls } : { type: 'answer', text },
        });
        return result;
      },
    },
  });
}
