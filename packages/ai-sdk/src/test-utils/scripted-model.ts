import { MockLanguageModelV4 } from 'ai/test';

// The provider types, as the mock model declares them (@ai-sdk/provider is not a dependency).
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type LanguageModelV4Content = LanguageModelV4GenerateResult['content'][number];
type LanguageModelV4StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;
/** What the model received in one call: prompt, tools, settings. */
export type LanguageModelV4CallOptions = MockLanguageModelV4['doGenerateCalls'][number];

/** One model response: tool calls (run in parallel by the AI SDK), or a final text. */
export type ModelTurn = { calls: { toolName: string; input: unknown }[] } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** `call <tool> with <input>` */
export function callTool(toolName: string, input: unknown = {}): ModelTurn {
  return { calls: [{ toolName, input }] };
}

/** A final answer. */
export function say(text = 'Done.'): ModelTurn {
  return { text };
}

/**
 * A MockLanguageModelV4 that answers each model call with the next turn of a script (generate and
 * stream alike); past the end of the script it answers with text. Tool call ids count up from
 * `${prefix}-1`, so two models in one test never share an id.
 */
export function scriptedModel(script: readonly ModelTurn[], prefix = 'call'): MockLanguageModelV4 {
  let callId = 0;
  let position = 0;
  const next = (): { content: LanguageModelV4Content[]; finish: 'tool-calls' | 'stop' } => {
    const turn = script[position++] ?? { text: 'Done.' };
    if ('text' in turn) return { content: [{ type: 'text', text: turn.text }], finish: 'stop' };
    return {
      content: turn.calls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: `${prefix}-${++callId}`,
        toolName: call.toolName,
        input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
      })),
      finish: 'tool-calls',
    };
  };
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
      const { content, finish } = next();
      return { content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] };
    },
    doStream: async () => {
      const { content, finish } = next();
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          );
        } else if (part.type === 'tool-call') {
          parts.push(part);
        }
      }
      parts.push({ type: 'finish', finishReason: { unified: finish, raw: finish }, usage });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

/** The tool names offered at each model call, in order. */
export function offeredPerCall(calls: readonly LanguageModelV4CallOptions[]): string[][] {
  return calls.map((call) => (call.tools ?? []).map((tool) => tool.name));
}

/** The tool results the model received in a call's prompt (its last tool message), by tool name. */
export function lastToolResults(
  call: LanguageModelV4CallOptions | undefined,
): { toolName: string; type: string; value: unknown }[] {
  const messages = call?.prompt ?? [];
  const tool = [...messages].reverse().find((message) => message.role === 'tool');
  if (tool?.role !== 'tool') return [];
  return tool.content.flatMap((part) =>
    part.type === 'tool-result'
      ? [
          {
            toolName: part.toolName,
            type: part.output.type,
            value: 'value' in part.output ? part.output.value : undefined,
          },
        ]
      : [],
  );
}
