import { ToolCatalog, validateInput } from '@toolscout/core';
import { InvalidToolError } from '@toolscout/core/errors';
import { dynamicTool, jsonSchema, type Tool, tool, toolSearch, zodSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAISDKTool, fromAISDKTools } from './from-ai-sdk-tool.js';

function catalogTool(name: string, aiTool: Tool) {
  return new ToolCatalog([fromAISDKTool(name, aiTool)]).get(name)!;
}

describe('fromAISDKTool', () => {
  it('keeps a zod 4 schema: core shows its input JSON Schema and validates with zod (transforms apply)', async () => {
    const entry = catalogTool(
      'count',
      tool({
        description: 'Count characters.',
        inputSchema: z.object({
          text: z.string().transform((value) => value.length),
          mode: z.enum(['a', 'b']).default('a'),
        }),
        execute: async ({ text }) => text,
      }),
    );
    expect(entry.jsonSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(await validateInput(entry, { text: 'hello' })).toEqual({ success: true, value: { text: 5, mode: 'a' } });
    const invalid = await validateInput(entry, { text: 1 });
    expect(invalid.success).toBe(false);
  });

  it('reads jsonSchema() and zodSchema() schemas, with their own validation when they have one', async () => {
    const plain = catalogTool(
      'plain',
      tool({
        inputSchema: jsonSchema<{ n: number }>({
          type: 'object',
          properties: { n: { type: 'number' } },
          required: ['n'],
        }),
      }),
    );
    expect(plain.jsonSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    expect((await validateInput(plain, { n: 'x' })).success).toBe(false);

    const custom = catalogTool(
      'custom',
      tool({
        inputSchema: jsonSchema<{ n: number }>(
          { type: 'object', properties: { n: { type: 'number' } } },
          {
            validate: (value) =>
              (value as { n?: number }).n === 42
                ? { success: true, value: { n: 42 } }
                : { success: false, error: new Error('n must be 42') },
          },
        ),
      }),
    );
    expect(await validateInput(custom, { n: 42 })).toEqual({ success: true, value: { n: 42 } });
    expect(await validateInput(custom, { n: 1 })).toEqual({
      success: false,
      issues: [{ path: '', message: 'n must be 42' }],
    });

    const wrapped = catalogTool('wrapped', tool({ inputSchema: zodSchema(z.object({ city: z.string() })) }));
    expect(wrapped.jsonSchema).toMatchObject({ properties: { city: { type: 'string' } } });
    const failed = await validateInput(wrapped, { city: 3 });
    expect(failed).toMatchObject({ success: false, issues: [{ path: 'city' }] });
  });

  it('runs the AI SDK tool from core, outside a generation too', async () => {
    const descriptor = fromAISDKTool(
      'echo',
      dynamicTool({
        inputSchema: z.object({ v: z.string() }),
        execute: async (input, { toolCallId }) => ({ input, toolCallId }),
      }),
    );
    expect(await descriptor.execute!({ v: 'x' }, { toolId: 'echo' })).toEqual({
      input: { v: 'x' },
      toolCallId: 'toolscout-echo',
    });
    expect(fromAISDKTool('client', tool({ inputSchema: z.object({}) })).execute).toBeUndefined();
  });

  it('takes extras, and resolves a description function with an empty context', () => {
    const descriptor = fromAISDKTool(
      'hello',
      tool({
        description: ({ context }) => `Greets ${Object.keys(context ?? {}).length} people.`,
        inputSchema: z.object({}),
      }),
      { pinned: true, tags: ['greeting'], source: 'demo' },
    );
    expect(descriptor).toMatchObject({
      id: 'hello',
      description: 'Greets 0 people.',
      pinned: true,
      tags: ['greeting'],
      source: 'demo',
    });
  });

  it('converts a record, keeping names as ids', () => {
    const descriptors = fromAISDKTools({
      a: tool({ description: 'A', inputSchema: z.object({}) }),
      'ns.b': tool({ description: 'B', inputSchema: z.object({}) }),
    });
    expect(descriptors.map((descriptor) => descriptor.id)).toEqual(['a', 'ns.b']);
  });

  it('rejects what cannot be searched, with the reason', () => {
    const provider: Tool = {
      type: 'provider',
      id: 'p.search',
      args: {},
      inputSchema: z.object({}),
      isProviderExecuted: true,
    };
    expect(() => fromAISDKTool('web', provider)).toThrow(/provider tool \(p\.search\)/);
    expect(() => fromAISDKTool('find', toolSearch())).toThrow(/toolSearch\(\) tool/);
    expect(() => fromAISDKTool('x', { description: 'no schema' } as never)).toThrow(InvalidToolError);
    expect(() => fromAISDKTool('', tool({ inputSchema: z.object({}) }))).toThrow(/non-empty name/);
    expect(() =>
      fromAISDKTool('later', tool({ inputSchema: jsonSchema(Promise.resolve({ type: 'object' as const })) })),
    ).toThrow(/resolves asynchronously/);
    expect(() =>
      fromAISDKTool(
        'ctx',
        tool({
          description: ({ context }) => (context as { user: { name: string } }).user.name,
          inputSchema: z.object({}),
        }),
      ),
    ).toThrow(/description is a function that failed without a tool context/);
    expect(() => fromAISDKTools(null as never)).toThrow(/record of AI SDK tools/);
  });
});
