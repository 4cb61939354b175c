// @toolscout/tanstack-ai/testing: a scripted TanStack AI text adapter, to run `chat()` offline in
// tests and examples (TanStack AI ships no test adapter).
import type { AnyTextAdapter, JSONSchema, ModelMessage, StreamChunk, TextOptions } from '@tanstack/ai';

/**
 * One model response: tool calls, or a final text answer (the shape of `@toolscout/core/testing`'s
 * and `@toolscout/conformance`'s `ScriptAction`, kept here so this entry needs neither).
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

/** What the model received at one call: the tools offered (as JSON Schema), the system prompts and the messages. */
export interface ScriptedCallRecord {
  tools: { name: string; description: string; inputSchema?: JSONSchema }[];
  systemPrompts: string[];
  messages: ModelMessage[];
}

let runCount = 0;

/** The chunks of one model response playing `action`: tool calls (`finishReason: tool_calls`) or an answer. */
function* chunksOf(action: ScriptAction, id: string): Generator<StreamChunk> {
  const timestamp = Date.now();
  const base = { timestamp, threadId: id, runId: id };
  yield { type: 'RUN_STARTED', ...base } as StreamChunk;
  if (action.type === 'answer') {
    yield { type: 'TEXT_MESSAGE_START', timestamp, messageId: `${id}-text`, role: 'assistant' } as StreamChunk;
    yield { type: 'TEXT_MESSAGE_CONTENT', timestamp, messageId: `${id}-text`, delta: action.text } as StreamChunk;
    yield { type: 'TEXT_MESSAGE_END', timestamp, messageId: `${id}-text` } as StreamChunk;
    yield { type: 'RUN_FINISHED', ...base, finishReason: 'stop' } as StreamChunk;
    return;
  }
  for (const [index, call] of action.calls.entries()) {
    const toolCallId = `${id}-call${index}`;
    const name = call.toolName;
    yield { type: 'TOOL_CALL_START', timestamp, toolCallId, toolCallName: name, toolName: name, index } as StreamChunk;
    yield { type: 'TOOL_CALL_ARGS', timestamp, toolCallId, delta: JSON.stringify(call.input ?? {}) } as StreamChunk;
    yield { type: 'TOOL_CALL_END', timestamp, toolCallId } as StreamChunk;
  }
  yield { type: 'RUN_FINISHED', ...base, finishReason: 'tool_calls' } as StreamChunk;
}

/**
 * A TanStack AI text adapter that plays a script, one action per `chatStream` call, and records what
 * each call received. TanStack AI ships no test adapter; this is the smallest `TextAdapter` the real
 * `chat()` loop runs.
 */
export class ScriptedAdapter {
  readonly calls: ScriptedCallRecord[] = [];
  private readonly queue: ScriptAction[] = [];

  /** Queues the actions of a turn. */
  play(script: readonly ScriptAction[]): void {
    this.queue.push(...script);
  }

  /** Actions queued and not yet played. */
  get pending(): number {
    return this.queue.length;
  }

  /** The adapter object `chat({ adapter })` takes. */
  readonly adapter: AnyTextAdapter = {
    kind: 'text',
    name: 'scripted',
    model: 'scripted-model',
    '~types': {} as AnyTextAdapter['~types'],
    chatStream: (options: TextOptions) => this.stream(options),
    structuredOutput: () => Promise.reject(new Error('The scripted adapter has no structured output.')),
  };

  private async *stream(options: TextOptions): AsyncIterable<StreamChunk> {
    this.calls.push({
      tools: (options.tools ?? []).map(({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema: inputSchema as JSONSchema | undefined,
      })),
      systemPrompts: (options.systemPrompts ?? []).map((prompt) =>
        typeof prompt === 'string' ? prompt : prompt.content,
      ),
      messages: structuredClone(options.messages) as ModelMessage[],
    });
    const action = this.queue.shift();
    if (action === undefined)
      throw new Error(`The scripted adapter was called ${this.calls.length} times; its script is done.`);
    yield* chunksOf(action, `scripted${++runCount}`);
  }
}
