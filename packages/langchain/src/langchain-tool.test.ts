import { RunnableLambda } from '@langchain/core/runnables';
import { DynamicStructuredTool, DynamicTool, tool } from '@langchain/core/tools';
import { ToolCatalog, validateInput } from '@toolscout/core';
import { InvalidToolError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromLangChainTool, fromLangChainTools, isLangChainTool, toLangChainTool } from './langchain-tool.js';

const weather = tool(async ({ city, units }) => `${city}: 21 ${units}`, {
  name: 'get_weather',
  description: 'Current weather for a city.',
  schema: z.object({
    city: z.string().describe('City name'),
    units: z.enum(['C', 'F']).default('C'),
  }),
});

describe('fromLangChainTool', () => {
  it('converts a zod tool: name, description, input-side JSON Schema, the tool kept', async () => {
    const descriptor = fromLangChainTool(weather, { tags: ['weather'], source: 'demo' });
    expect(descriptor).toMatchObject({
      id: 'get_weather',
      name: 'get_weather',
      description: 'Current weather for a city.',
      tags: ['weather'],
      source: 'demo',
    });
    expect(descriptor.tool).toBe(weather);
    const [entry] = new ToolCatalog([descriptor]).list();
    expect(entry!.jsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, units: { enum: ['C', 'F'] } },
      required: ['city'], // a defaulted field stays optional for the caller
    });
    // Core validates against it with instructive issues, and accepts a call that omits the default.
    expect(await validateInput(entry!, { city: 'Paris' })).toMatchObject({ success: true });
    const invalid = await validateInput(entry!, { units: 'K' });
    expect(invalid.success).toBe(false);
    expect(JSON.stringify(invalid)).toContain('city');
  });

  it('runs the tool with invoke outside an agent, parsing its input once (defaults applied)', async () => {
    const descriptor = fromLangChainTool(weather);
    const output = await descriptor.execute!({ city: 'Oslo' }, { toolId: 'get_weather' });
    expect(output).toBe('Oslo: 21 C');
  });

  it('keeps a JSON Schema tool as it is, and takes an id of your own', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const search = new DynamicStructuredTool({
      name: 'web_search',
      description: 'Search the web',
      schema,
      func: async ({ q }) => q,
    });
    const descriptor = fromLangChainTool(search, { id: 'web__search', pinned: true });
    expect(descriptor).toMatchObject({ id: 'web__search', name: 'web_search', inputSchema: schema, pinned: true });
  });

  it('converts a string-input DynamicTool and runs it with the model-facing argument object', async () => {
    const echo = new DynamicTool({
      name: 'echo',
      description: 'Echo text',
      func: async (text: string) => `echo: ${text}`,
    });
    const descriptor = fromLangChainTool(echo);
    const [entry] = new ToolCatalog([descriptor]).list();
    expect(entry!.jsonSchema).toMatchObject({ type: 'object', properties: { input: { type: 'string' } } });
    expect(await descriptor.execute!({ input: 'hi' }, { toolId: 'echo' })).toBe('echo: hi');
  });

  it('converts a RunnableToolLike (runnable.asTool)', async () => {
    const shout = RunnableLambda.from(async ({ text }: { text: string }) => text.toUpperCase()).asTool({
      name: 'shout',
      description: 'Upper-cases text',
      schema: z.object({ text: z.string() }),
    });
    expect(isLangChainTool(shout)).toBe(true);
    const descriptor = fromLangChainTool(shout);
    expect(new ToolCatalog([descriptor]).get('shout')!.jsonSchema).toMatchObject({ required: ['text'] });
    expect(await descriptor.execute!({ text: 'hey' }, { toolId: 'shout' })).toBe('HEY');
  });

  it('rejects what is not a LangChain tool with a clear error', () => {
    expect(() => fromLangChainTool({ name: 'x' } as never)).toThrow(/expects a LangChain tool/);
    expect(() => fromLangChainTool(null as never)).toThrow(InvalidToolError);
  });

  it('refuses a schema that is neither zod nor JSON Schema, naming the tool', () => {
    // A Standard Schema that cannot produce JSON Schema (was taken for a JSON Schema), and an array.
    const opaque = { '~standard': { version: 1, vendor: 'opaque', validate: (value: unknown) => ({ value }) } };
    for (const schema of [opaque, []]) {
      const lcTool = new DynamicStructuredTool({ name: 'odd', description: 'Odd', schema: {}, func: async () => 'x' });
      Object.assign(lcTool, { schema });
      const error = (() => {
        try {
          fromLangChainTool(lcTool);
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(InvalidToolError.isInstance(error)).toBe(true);
      expect((error as InvalidToolError).field).toBe('inputSchema');
      expect(String((error as Error).message)).toMatch(/^LangChain tool "odd": its schema cannot be converted/);
    }
  });

  it('fromLangChainTools mixes LangChain tools and descriptors', () => {
    const descriptors = fromLangChainTools([weather, { id: 'plain', description: 'A plain descriptor' }], {
      source: 'mixed',
    });
    expect(descriptors.map((descriptor) => descriptor.id)).toEqual(['get_weather', 'plain']);
    expect(descriptors[0]!.source).toBe('mixed');
    expect(() => fromLangChainTools(42 as never)).toThrow(/iterable/);
    expect(() => fromLangChainTools('get_weather' as never)).toThrow(InvalidToolError);
  });
});

describe('toLangChainTool', () => {
  it('gives back the original tool of a converted LangChain tool', () => {
    const [entry] = new ToolCatalog([fromLangChainTool(weather)]).list();
    expect(toLangChainTool(entry!)).toBe(weather);
    expect(toLangChainTool(fromLangChainTool(weather))).toBe(weather);
  });

  it('wraps a descriptor: provider-safe name, JSON Schema, execute with the thread id and context', async () => {
    const calls: unknown[] = [];
    const lcTool = toLangChainTool({
      id: 'crm.find contact',
      description: 'Find a contact by email',
      inputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      execute: async (input, context) => {
        calls.push({ input, threadId: context.threadId, context: context.context, toolId: context.toolId });
        return { name: 'Ada' };
      },
    });
    expect(lcTool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(lcTool.name).toContain('crm');
    expect(lcTool.description).toBe('Find a contact by email');
    const output = await lcTool.invoke({ email: 'ada@example.com' }, {
      configurable: { thread_id: 't-9' },
      context: { tenant: 'acme' },
    } as never);
    expect(output).toEqual({ name: 'Ada' });
    expect(calls).toEqual([
      { input: { email: 'ada@example.com' }, threadId: 't-9', context: { tenant: 'acme' }, toolId: 'crm.find contact' },
    ]);
  });

  it('keeps a zod input schema for LangChain to validate', async () => {
    const lcTool = toLangChainTool({
      id: 'add',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: async (input) => {
        const { a, b } = input as { a: number; b: number };
        return a + b;
      },
    });
    expect(await lcTool.invoke({ a: 2, b: 3 } as never)).toBe(5);
    await expect(lcTool.invoke({ a: 'two' } as never)).rejects.toThrow(/did not match expected schema/);
  });

  it('names the problem when a descriptor cannot run or is invalid', async () => {
    const inert = toLangChainTool({ id: 'inert', inputSchema: { type: 'object', properties: {} } });
    await expect(inert.invoke({} as never)).rejects.toThrow(/has no execute function/);
    expect(() => toLangChainTool({ id: '' })).toThrow(InvalidToolError);
  });
});
