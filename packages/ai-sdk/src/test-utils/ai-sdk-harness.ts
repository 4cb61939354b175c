import type { ConformanceHarness, ScriptAction, Transcript } from '@toolscout/conformance';
import type { ToolDescriptor } from '@toolscout/core';
import { generateText, type JSONSchema7, jsonSchema, type ModelMessage, stepCountIs, type Tool, tool } from 'ai';
import { createToolSearch } from '../create-tool-search.js';
import { toToolDescriptor } from '../to-tool-descriptor.js';
import { type ModelTurn, scriptedModel } from './scripted-model.js';

function isMessageList(history: unknown): history is ModelMessage[] {
  return (
    Array.isArray(history) &&
    history.every((message) => typeof message === 'object' && message !== null && 'role' in message)
  );
}

/**
 * A conformance descriptor as the AI SDK user has it: an AI SDK tool made with `tool()` and
 * `jsonSchema()`, whose `execute` is the fixture's, converted back with `toToolDescriptor` (keeping
 * the fixture's tags, source and pinning). Ids stay as given, duplicates included.
 */
function asAISDKDescriptor(descriptor: ToolDescriptor): ToolDescriptor<Tool> {
  const execute = descriptor.execute;
  const aiTool = tool({
    description: descriptor.description,
    inputSchema: jsonSchema(descriptor.inputSchema as JSONSchema7),
    execute: async (input: unknown) => execute?.(input, { toolId: descriptor.id }),
  });
  return toToolDescriptor(descriptor.id, aiTool, {
    tags: descriptor.tags,
    source: descriptor.source,
    pinned: descriptor.pinned,
  });
}

function toModelTurn(action: ScriptAction): ModelTurn {
  return action.type === 'answer' ? { text: action.text } : { calls: action.calls };
}

/** A tool output as the model received it: the value, parsed from JSON when it was JSON text. */
function received(output: { type: string; value?: unknown }): unknown {
  if (typeof output.value !== 'string') return output.value;
  try {
    return JSON.parse(output.value);
  } catch {
    return output.value;
  }
}

/**
 * The conformance harness of the AI SDK: each turn is a real `generateText` loop (`stopWhen:
 * stepCountIs(n)`) with a `MockLanguageModelV4` that follows the script, with `createToolSearch`
 * spread into it and the thread id in the runtime context. What the model was offered is read from
 * the model's own calls (`doGenerateCalls[i].tools`), what it saw from the tool messages of the
 * response. The history is the `ModelMessage[]` of the conversation, passed back in as `messages`.
 */
export function createAISDKHarness(): ConformanceHarness {
  return {
    createAgent(setup) {
      const search = createToolSearch(setup.tools.map(asAISDKDescriptor), {
        ...setup.options,
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
          const model = scriptedModel(turn.script.map(toModelTurn));
          const result = await generateText({
            model,
            messages,
            stopWhen: stepCountIs(turn.script.length + 1),
            runtimeContext: { ...turn.context, ...(turn.threadId === undefined ? {} : { threadId: turn.threadId }) },
            ...search,
          });
          const results: Transcript['results'] = [];
          for (const message of result.responseMessages) {
            if (message.role !== 'tool') continue;
            for (const part of message.content) {
              if (part.type !== 'tool-result') continue;
              const output = part.output as { type: string; value?: unknown };
              results.push({
                toolName: part.toolName,
                output: received(output),
                isError: output.type.startsWith('error'),
              });
            }
          }
          return {
            steps: model.doGenerateCalls.map((call) => ({
              offered: (call.tools ?? []).map((offered) => offered.name),
              descriptions: Object.fromEntries(
                (call.tools ?? []).map((offered) => [
                  offered.name,
                  offered.type === 'function' ? (offered.description ?? '') : '',
                ]),
              ),
            })),
            results,
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
