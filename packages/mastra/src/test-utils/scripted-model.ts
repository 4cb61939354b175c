import type { MastraModelConfig } from '@mastra/core/llm';
import type { ScriptAction } from '@toolscout/conformance';
import { MockLanguageModelV4 } from 'ai/test';

/** What the model received at one call (generate or stream). */
export type ModelCallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV4['doStream']>>;

/** A tool result as the model saw it in its prompt. */
export interface SeenToolResult {
  toolCallId: string;
  toolName: string;
  /** The result, parsed from JSON text when it was JSON; for errors, the error text. */
  output: unknown;
  isError: boolean;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

let callCounter = 0;

function parseText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function seenOutput(output: unknown): { output: unknown; isError: boolean } {
  const part = output as { type?: string; value?: unknown; reason?: string } | undefined;
  switch (part?.type) {
    case 'json':
      return { output: part.value, isError: false };
    case 'text':
      return { output: parseText(String(part.value)), isError: false };
    case 'error-text':
      return { output: part.value, isError: true };
    case 'error-json':
      return { output: part.value, isError: true };
    case 'execution-denied':
      return { output: part.reason ?? 'denied', isError: true };
    case 'content': {
      const texts = (part.value as { type: string; text?: string }[]).flatMap((item) =>
        item.type === 'text' && item.text !== undefined ? [item.text] : [],
      );
      return { output: parseText(texts.join('')), isError: false };
    }
    default:
      return { output, isError: false };
  }
}

/**
 * A fake model for Mastra's real agent loop: a `MockLanguageModelV4` that, at its i-th call in a
 * turn, answers with the i-th scripted action (tool calls, or a text answer), whether called through
 * `doGenerate` (`agent.generate`) or `doStream` (`agent.stream`). It records what it was offered and
 * what it saw at every call; calling it past the end of its script is an error.
 */
export class ScriptedModel {
  readonly mock: MockLanguageModelV4;
  /** Every call of this turn, in order. */
  calls: ModelCallOptions[] = [];
  /** The ids of the tool calls this turn's script made, in order. */
  callIds: string[] = [];
  #script: readonly ScriptAction[] = [];

  constructor() {
    this.mock = new MockLanguageModelV4({
      doGenerate: async (options) => this.#generate(options),
      doStream: async (options) => this.#stream(options),
    });
  }

  /**
   * The model to give an `Agent`. Mastra 1.71's types expect a V4 model's `doGenerate` to return a
   * stream; at run time it calls `doGenerate` for `generate` and `doStream` for `stream`.
   */
  get model(): MastraModelConfig {
    return this.mock as unknown as MastraModelConfig;
  }

  /** Starts a turn with a new script. */
  play(script: readonly ScriptAction[]): void {
    this.#script = script;
    this.calls = [];
    this.callIds = [];
  }

  /** Scripted actions the model has not played yet. */
  get remaining(): number {
    return this.#script.length - this.calls.length;
  }

  /** The tool names offered at each call of this turn, in the order offered. */
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

  /**
   * The results of this turn's tool calls as the model saw them in its prompts, in the order they
   * first appeared.
   */
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
            ...seenOutput(part.output),
          });
        }
      }
    }
    return this.callIds.flatMap((id) => {
      const result = seen.get(id);
      return result ? [result] : [];
    });
  }

  #next(options: ModelCallOptions): ScriptAction {
    const action = this.#script[this.calls.length];
    this.calls.push(options);
    if (!action) {
      throw new Error(
        `The scripted model was called ${this.calls.length} times, but its script has ${this.#script.length} steps.`,
      );
    }
    return action;
  }

  #toolCalls(action: ScriptAction & { type: 'calls' }) {
    return action.calls.map((call) => {
      const toolCallId = `call-${++callCounter}`;
      this.callIds.push(toolCallId);
      return { type: 'tool-call' as const, toolCallId, toolName: call.toolName, input: JSON.stringify(call.input) };
    });
  }

  #generate(options: ModelCallOptions): GenerateResult {
    const action = this.#next(options);
    if (action.type === 'answer') {
      return {
        content: [{ type: 'text', text: action.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: this.#toolCalls(action),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  }

  #stream(options: ModelCallOptions): StreamResult {
    const action = this.#next(options);
    type Part = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
    const parts: Part[] = [{ type: 'stream-start', warnings: [] }];
    if (action.type === 'answer') {
      parts.push(
        { type: 'text-start', id: 'text-1' },
        { type: 'text-delta', id: 'text-1', delta: action.text },
        { type: 'text-end', id: 'text-1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      );
    } else {
      parts.push(...this.#toolCalls(action), {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
      });
    }
    return {
      stream: new ReadableStream<Part>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }
}
