import type { ConformanceHarness, Transcript } from '@toolscout/conformance';
import type { ToolDescriptor } from '@toolscout/core';
import { ScriptedModel } from '@toolscout/test-kit';
import { generateText, type JSONSchema7, jsonSchema, type ModelMessage, stepCountIs, type Tool, tool } from 'ai';
import { type CreateToolSearchOptions, createToolSearch } from '../src/create-tool-search.js';
import { fromAISDKTool } from '../src/from-ai-sdk-tool.js';

function isMessageList(history: unknown): history is ModelMessage[] {
  return (
    Array.isArray(history) &&
    history.every((message) => typeof message === 'object' && message !== null && 'role' in message)
  );
}

/**
 * A conformance descriptor as the AI SDK user has it: an AI SDK tool made with `tool()` and
 * `jsonSchema()`, whose `execute` is the fixture's, converted back with `fromAISDKTool` (keeping
 * the fixture's tags, source, pinning and aliases). Ids stay as given, duplicates included. A
 * deferred descriptor (with `resolve`) is the user's own descriptor: it stays as it is.
 */
function asAISDKDescriptor(descriptor: ToolDescriptor): ToolDescriptor<Tool> {
  if (descriptor.resolve !== undefined) return descriptor as ToolDescriptor<Tool>;
  const execute = descriptor.execute;
  const aiTool = tool({
    description: descriptor.description,
    inputSchema: jsonSchema(descriptor.inputSchema as JSONSchema7),
    execute: async (input: unknown) => execute?.(input, { toolId: descriptor.id }),
  });
  return fromAISDKTool(descriptor.id, aiTool, {
    tags: descriptor.tags,
    source: descriptor.source,
    pinned: descriptor.pinned,
    aliases: descriptor.aliases,
  });
}

/** The system text of a prompt: its system messages joined by a blank line, undefined without any. */
function systemText(prompt: readonly { role: string; content: unknown }[]): string | undefined {
  const texts = prompt.flatMap((message) => (message.role === 'system' ? [String(message.content)] : []));
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

/**
 * The conformance harness of the AI SDK: each turn is a real `generateText` loop (`stopWhen:
 * stepCountIs(n)`) with the test kit's `ScriptedModel` (a `MockLanguageModelV4`) playing the script,
 * `createToolSearch` spread into it with every option of the setup, and the thread id in the runtime
 * context. What the model was offered and saw is read from the model's own calls. The history is the
 * `ModelMessage[]` of the conversation, passed back in as `messages`.
 */
export function createAISDKHarness(): ConformanceHarness {
  return {
    createAgent(setup) {
      const search = createToolSearch({
        // The session options as they are: core's descriptors of the setup are AI SDK tools here.
        ...(setup.options as Omit<CreateToolSearchOptions, 'catalog' | 'tools'>),
        catalog: setup.tools.map(asAISDKDescriptor),
        tools: setup.directTools?.map(asAISDKDescriptor),
      });
      return {
        async run(turn): Promise<Transcript> {
          if (turn.history !== undefined && !isMessageList(turn.history)) {
            throw new TypeError(
              'The AI SDK harness takes the ModelMessage[] history it returned from an earlier turn.',
            );
          }
          const messages: ModelMessage[] = [...(turn.history ?? []), { role: 'user', content: turn.prompt }];
          const model = new ScriptedModel(turn.script);
          const result = await generateText({
            model: model.mock,
            messages,
            stopWhen: stepCountIs(turn.script.length + 1),
            runtimeContext: { ...turn.context, ...(turn.threadId === undefined ? {} : { threadId: turn.threadId }) },
            ...search,
          });
          const offered = model.offered();
          return {
            steps: offered.map((names, call) => ({
              offered: names,
              descriptions: model.descriptions(call),
              system: systemText(model.calls[call]?.prompt ?? []),
            })),
            results: model.results().map(({ toolName, output, isError }) => ({ toolName, output, isError })),
            history: [...messages, ...result.responseMessages],
          };
        },
      };
    },
    trimHistory(history, toolNames) {
      if (!isMessageList(history)) throw new TypeError('Not an AI SDK harness history.');
      const names = new Set(toolNames);
      const trimmed: ModelMessage[] = [];
      for (const message of history) {
        if ((message.role !== 'assistant' && message.role !== 'tool') || !Array.isArray(message.content)) {
          trimmed.push(message);
          continue;
        }
        const content = (message.content as { type: string; toolName?: string }[]).filter(
          (part) => !((part.type === 'tool-call' || part.type === 'tool-result') && names.has(part.toolName ?? '')),
        );
        if (content.length > 0) trimmed.push({ ...message, content } as ModelMessage);
      }
      return trimmed;
    },
  };
}
