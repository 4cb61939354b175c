import {
  type ChatMiddleware,
  chat,
  type JSONSchema,
  type ModelMessage,
  maxIterations,
  toolDefinition,
} from '@tanstack/ai';
import type { ConformanceHarness, HarnessAgent, Transcript } from '@toolscout/conformance';
import type { ToolDescriptor } from '@toolscout/core';
import { parseJsonOrText } from '@toolscout/test-kit';
import { fromTanStackTool, type TanStackTool } from '../src/tanstack-tool.js';
import { ScriptedAdapter } from '../src/testing.js';
import { type ToolSearchMiddlewareOptions, toolSearchMiddleware } from '../src/tool-search-middleware.js';

/** A conformance descriptor as a TanStack AI user has it: `toolDefinition(...).server(...)` running the fixture's `execute`. */
export function asTanStackTool(descriptor: ToolDescriptor): TanStackTool {
  const execute = descriptor.execute;
  return toolDefinition({
    name: descriptor.id,
    description: descriptor.description ?? '',
    inputSchema: (descriptor.inputSchema ?? { type: 'object' }) as JSONSchema,
  }).server(async (input: unknown) => execute?.(input, { toolId: descriptor.id }));
}

/** The fixture's descriptor converted back from its TanStack AI tool, keeping tags, source, pinning and aliases; a deferred one as it is. */
function asTanStackDescriptor(descriptor: ToolDescriptor): ToolDescriptor<TanStackTool> {
  if (descriptor.resolve !== undefined) return descriptor as ToolDescriptor<TanStackTool>;
  const { tags, source, pinned, aliases } = descriptor;
  return fromTanStackTool(asTanStackTool(descriptor), { tags, source, pinned, aliases });
}

function isMessageList(history: unknown): history is ModelMessage[] {
  return Array.isArray(history) && history.every((message) => typeof message?.role === 'string');
}

/** A tool message's content as the model read it: `{ error }` alone is an error, its message the output. */
function resultOf(content: ModelMessage['content']): { output: unknown; isError: boolean } {
  const output = typeof content === 'string' ? parseJsonOrText(content) : content;
  const error = (output as { error?: unknown } | null)?.error;
  const isError = typeof error === 'string' && Object.keys(output as object).length === 1;
  return isError ? { output: error, isError } : { output, isError };
}

/** The tool results among a model call's messages after its last user message, with the names of their calls. */
function resultsOf(messages: readonly ModelMessage[]): Transcript['results'] {
  const start = messages.findLastIndex((message) => message.role === 'user');
  const names = new Map<string, string>();
  const results: Transcript['results'] = [];
  for (const message of messages.slice(start + 1)) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.function.name);
    if (message.role === 'tool') {
      results.push({ toolName: names.get(message.toolCallId ?? '') ?? '', ...resultOf(message.content) });
    }
  }
  return results;
}

/**
 * The conformance harness of `@toolscout/tanstack-ai`: each turn is a real `chat()` run (`stream:
 * false`, `maxIterations` of the script's length) with the toolscout middleware and a scripted
 * `TextAdapter` that records what the model received at every call. The setup's `hostTools` are
 * `chat()`'s own tools; the thread id goes in `chat({ threadId, context: { threadId } })`. The
 * history is the run's `ModelMessage[]` (read at `onFinish`), passed back in as `messages`.
 */
export function createTanStackHarness(): ConformanceHarness {
  return {
    createAgent(setup): HarnessAgent {
      const search = toolSearchMiddleware({
        ...(setup.options as Omit<ToolSearchMiddlewareOptions, 'catalog' | 'tools'>),
        catalog: setup.tools.map(asTanStackDescriptor),
        tools: setup.directTools?.map(asTanStackDescriptor),
      });
      const own = (setup.hostTools ?? []).map(asTanStackTool);
      return {
        async run(turn): Promise<Transcript> {
          if (turn.history !== undefined && !isMessageList(turn.history)) {
            throw new TypeError(
              'The TanStack AI harness takes the ModelMessage[] history it returned from an earlier turn.',
            );
          }
          const scripted = new ScriptedAdapter();
          scripted.play(turn.script);
          let history: ModelMessage[] = [];
          const recorder: ChatMiddleware = {
            name: 'history',
            onFinish: (ctx) => {
              history = [...ctx.messages];
            },
          };
          await chat({
            adapter: scripted.adapter,
            messages: [...(turn.history ?? []), { role: 'user', content: turn.prompt }],
            tools: own,
            middleware: [search, recorder],
            agentLoopStrategy: maxIterations(turn.script.length + 1),
            threadId: turn.threadId,
            context: { ...turn.context, ...(turn.threadId === undefined ? {} : { threadId: turn.threadId }) },
            stream: false,
          });
          if (scripted.pending > 0) {
            throw new Error(
              `chat() made ${scripted.calls.length} model calls; the script has ${turn.script.length} steps.`,
            );
          }
          const steps = scripted.calls.map((call) => ({
            offered: call.tools.map((tool) => tool.name),
            descriptions: Object.fromEntries(call.tools.map((tool) => [tool.name, tool.description])),
            system: call.systemPrompts.length === 0 ? undefined : call.systemPrompts.join('\n\n'),
          }));
          return { steps, results: resultsOf(scripted.calls.at(-1)?.messages ?? []), history };
        },
      };
    },
    trimHistory(history, toolNames) {
      if (!isMessageList(history)) throw new TypeError('Not a TanStack AI harness history.');
      const names = new Set(toolNames);
      const removed = new Set<string>();
      const trimmed: ModelMessage[] = [];
      for (const message of history) {
        if (message.role === 'tool' && removed.has(message.toolCallId ?? '')) continue;
        const calls = message.toolCalls;
        if (calls?.some((call) => names.has(call.function.name))) {
          for (const call of calls) if (names.has(call.function.name)) removed.add(call.id);
          trimmed.push({ ...message, toolCalls: calls.filter((call) => !names.has(call.function.name)) });
        } else {
          trimmed.push(message);
        }
      }
      return trimmed;
    },
  };
}
