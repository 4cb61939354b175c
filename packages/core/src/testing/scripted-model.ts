import { MockLanguageModelV4 } from 'ai/test';
import { parseJsonOrText } from './json-or-text.js';

/** What the model received at one call (generate or stream): prompt, tools, settings. */
export type ModelCallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
export type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
export type StreamResult = Awaited<ReturnType<MockLanguageModelV4['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;

/**
 * One model response: tool calls (which the agent loop runs, in parallel where it does), or a final
 * text answer. The same shape as `@toolscout/conformance`'s `ScriptAction`.
 */
export type ScriptAction =
  | { type: 'calls'; calls: readonly { toolName: string; input: unknown }[] }
  | { type: 'answer'; text: string };

/** A call of one tool, as a script action. */
export function callTool(toolName: string, input: unknown = {}): ScriptAction {
  return { type: 'calls', calls: [{ toolName, input }] };
}

/** A final answer, as a script action. */
export function answer(text = 'Done.'): ScriptAction {
  return { type: 'answer', text };
}

/** A tool result as the model saw it in its prompt. */
export interface SeenToolResult {
  toolCallId: string;
  toolName: string;
  /** The result, parsed from JSON text when it was JSON; for errors, the error text. */
  output: unknown;
  isError: boolean;
}

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Tool call ids are `${prefix}-1`, `${prefix}-2`, ...: give two models in one test two prefixes. */
  callIdPrefix?: string;
  /** Past the end of the script: answer `'Done.'` (`'answer'`) or fail the call (`'throw'`, the default). */
  afterScript?: 'answer' | 'throw';
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A tool result part of an AI SDK prompt (`LanguageModelV4ToolResultOutput`), as the model reads it. */
export function seenToolOutput(output: unknown): { output: unknown; isError: boolean } {
  const part = output as { type?: string; value?: unknown; reason?: string } | undefined;
  switch (part?.type) {
    case 'json':
      return { output: part.value, isError: false };
    case 'text':
      return { output: parseJsonOrText(String(part.value)), isError: false };
    case 'error-text':
    case 'error-json':
      return { output: part.value, isError: true };
    case 'execution-denied':
      return { output: part.reason ?? 'denied', isError: true };
    case 'content': {
      const texts = (part.value as { type: string; text?: string }[]).flatMap((item) =>
        item.type === 'text' && item.text !== undefined ? [item.text] : [],
      );
      return { output: parseJsonOrText(texts.join('')), isError: false };
    }
    default:
      return { output, isError: false };
  }
}

/** What a model answers at one call: tool calls with their ids, or a text. */
export type ModelAnswer =
  | { type: 'calls'; calls: readonly { toolCallId: string; toolName: string; input: unknown }[] }
  | { type: 'answer'; text: string };

/** A model's answer as the AI SDK's `doGenerate` returns it (inputs given as objects are sent as JSON). */
export function generateResultOf(answer: ModelAnswer): GenerateResult {
  if (answer.type === 'answer') {
    return {
      content: [{ type: 'text', text: answer.text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  }
  return {
    content: answer.calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** The same answer as the AI SDK's `doStream` returns it: one part per text or tool call. */
export function streamResultOf(result: GenerateResult): StreamResult {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const part of result.content) {
    if (part.type === 'text') {
      parts.push(
        { type: 'text-start', id: 'text-1' },
        { type: 'text-delta', id: 'text-1', delta: part.text },
        { type: 'text-end', id: 'text-1' },
      );
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage });
  return {
    stream: new ReadableStream<StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/**
 * A fake model for a framework's real agent loop: the AI SDK's `MockLanguageModelV4`, answering its
 * i-th call with the i-th action of the script it plays (tool calls, or a text answer), through
 * `doGenerate` and `doStream` alike. It records every call (what the model was offered and saw).
 *
 * @example
 * ```ts
 * const model = new ScriptedModel([callTool('search_tools', { query: 'weather' }), answer()]);
 * await generateText({ model: model.mock, tools, stopWhen: stepCountIs(5), prompt: 'Weather?' });
 * model.offered(); // [['search_tools', 'load_tool'], [...]]
 * ```
 */
export class ScriptedModel {
  readonly mock: MockLanguageModelV4;
  /** Every call since the script started, in order. */
  calls: ModelCallOptions[] = [];
  /** The ids of the tool calls the script made, in order. */
  callIds: string[] = [];
  #script: readonly ScriptAction[];
  #nextCallId = 0;
  readonly #prefix: string;
  readonly #afterScript: 'answer' | 'throw';

  constructor(script: readonly ScriptAction[] = [], options: ScriptedModelOptions = {}) {
    this.#script = script;
    this.#prefix = options.callIdPrefix ?? 'call';
    this.#afterScript = options.afterScript ?? 'throw';
    this.mock = new MockLanguageModelV4({
      doGenerate: async (call) => this.#generate(call),
      doStream: async (call) => this.#stream(call),
    });
  }

  /** Starts a new turn with a new script (calls and call ids recorded anew). */
  play(script: readonly ScriptAction[]): void {
    this.#script = script;
    this.calls = [];
    this.callIds = [];
  }

  /** Scripted actions the model has not played yet. */
  get remaining(): number {
    return Math.max(0, this.#script.length - this.calls.length);
  }

  /** The function tool names offered at each call, in the order offered. */
  offered(): string[][] {
    return this.calls.map((call) =>
      (call.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.name] : [])),
    );
  }

  /** The tool descriptions offered at one call, by name. */
  descriptions(call: number): Record<string, string> {
    const tools = this.calls[call]?.tools ?? [];
    return Object.fromEntries(
      tools.flatMap((tool) => (tool.type === 'function' ? [[tool.name, tool.description ?? '']] : [])),
    );
  }

  /** The results of the script's tool calls as the model saw them in its prompts, in call order. */
  results(): SeenToolResult[] {
    const ours = new Set(this.callIds);
    const seen = new Map<string, SeenToolResult>();
    for (const call of this.calls) {
      for (const message of call.prompt) {
        if (message.role !== 'tool') continue;
        for (const part of message.content) {
          if (part.type !== 'tool-result' || !ours.has(part.toolCallId) || seen.has(part.toolCallId)) continue;
          seen.set(part.toolCallId, {
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            ...seenToolOutput(part.output),
          });
        }
      }
    }
    return this.callIds.flatMap((id) => seen.get(id) ?? []);
  }

  /** The tool results in the prompt of one call (its last tool message). */
  lastToolResults(call: number): SeenToolResult[] {
    const prompt = this.calls[call]?.prompt ?? [];
    const message = [...prompt].reverse().find((item) => item.role === 'tool');
    if (message?.role !== 'tool') return [];
    return message.content.flatMap((part) =>
      part.type === 'tool-result'
        ? [{ toolCallId: part.toolCallId, toolName: part.toolName, ...seenToolOutput(part.output) }]
        : [],
    );
  }

  #next(call: ModelCallOptions): ScriptAction {
    const action = this.#script[this.calls.length];
    this.calls.push(call);
    if (action) return action;
    if (this.#afterScript === 'answer') return answer();
    throw new Error(
      `The scripted model was called ${this.calls.length} times, but its script has ${this.#script.length} actions.`,
    );
  }

  #generate(call: ModelCallOptions): GenerateResult {
    const action = this.#next(call);
    if (action.type === 'answer') return generateResultOf(action);
    const calls = action.calls.map((item) => {
      const toolCallId = `${this.#prefix}-${++this.#nextCallId}`;
      this.callIds.push(toolCallId);
      return { ...item, toolCallId };
    });
    return generateResultOf({ type: 'calls', calls });
  }

  #stream(call: ModelCallOptions): StreamResult {
    return streamResultOf(this.#generate(call));
  }
}
