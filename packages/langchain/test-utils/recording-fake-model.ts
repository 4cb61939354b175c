import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { FakeBuiltModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';

/** A tool as a provider receives it: name, description and JSON Schema parameters. */
export interface OfferedDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * LangChain's own fake chat model (`fakeModel()`, scripted with `respond` / `respondWithTools`),
 * recording the tools bound for each model call, converted as a provider integration converts them
 * (`convertToOpenAITool`). `createAgent` binds the tools once per model call, so `offered[i]` is
 * what the model was offered at call `i`, and `calls[i].messages` what it saw.
 */
export class RecordingFakeModel extends FakeBuiltModel {
  /** Per model call, the tools offered, in order. */
  readonly offered: OfferedDefinition[][] = [];

  /** Per model call, the names of the tools offered. */
  get offeredNames(): string[][] {
    return this.offered.map((tools) => tools.map((tool) => tool.name));
  }

  override bindTools(tools: Parameters<FakeBuiltModel['bindTools']>[0]): ReturnType<FakeBuiltModel['bindTools']> {
    this.offered.push(
      tools.map((tool) => {
        const { function: definition } = convertToOpenAITool(tool as BindToolsInput);
        return {
          name: definition.name,
          description: definition.description ?? '',
          parameters: (definition.parameters ?? {}) as Record<string, unknown>,
        };
      }),
    );
    return super.bindTools(tools);
  }
}
