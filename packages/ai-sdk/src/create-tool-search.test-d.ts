import { generateText, streamText, ToolLoopAgent, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type AISDKToolSearch, createToolSearch } from './create-tool-search.js';

const model = new MockLanguageModelV4();
const whoami = tool({
  description: 'Tell who the current user is.',
  inputSchema: z.object({}),
  contextSchema: z.object({ userId: z.string() }),
  execute: async (_input, { context }) => context.userId,
});

describe('createToolSearch types', () => {
  it('keeps the tools typed, so a tool context is checked', () => {
    const search = createToolSearch({ catalog: { whoami } });
    expectTypeOf(search).toExtend<AISDKToolSearch<{ whoami: typeof whoami }>>();
    expectTypeOf(search.tools).toExtend<{ whoami: typeof whoami }>();

    void generateText({ model, prompt: 'Who?', ...search, toolsContext: { whoami: { userId: 'u-1' } } });
    void streamText({ model, prompt: 'Who?', ...search, toolsContext: { whoami: { userId: 'u-1' } } });
    // @ts-expect-error the context must match the tool's contextSchema
    void generateText({ model, prompt: 'Who?', ...search, toolsContext: { whoami: { userId: 1 } } });
    // @ts-expect-error a tool with a required context needs it
    void generateText({ model, prompt: 'Who?', ...search });
  });

  it('spreads into a ToolLoopAgent with call options', () => {
    const search = createToolSearch({ catalog: { whoami }, mode: 'auto-load' });
    const agent = new ToolLoopAgent({
      model,
      ...search,
      toolsContext: { whoami: { userId: 'u-1' } },
      callOptionsSchema: z.object({ threadId: z.string() }),
      prepareCall: ({ options, ...settings }) => ({ ...settings, runtimeContext: { threadId: options.threadId } }),
    });
    expectTypeOf(agent.generate).parameter(0).toHaveProperty('options');
  });

  it('takes descriptors and catalogs untyped', () => {
    const search = createToolSearch({ catalog: [{ id: 'get_time', description: 'Time', execute: () => '12:00' }] });
    expectTypeOf(search.tools).toExtend<ToolSet>();
    expectTypeOf(search.tools).not.toExtend<{ whoami: typeof whoami }>();
    void generateText({ model, prompt: 'Time?', ...search });
  });
});
