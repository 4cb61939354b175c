import { toolDefinition } from '@tanstack/ai';
import { ToolSearchSession } from '@toolscout/core';
import { InvalidToolError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFromMessages } from './conversation-from-messages.js';
import {
  fromTanStackTool,
  fromTanStackTools,
  isOfferedBySession,
  type TanStackTool,
  toTanStackTool,
} from './tanstack-tool.js';

const lookup = toolDefinition({
  name: 'lookup.contact',
  description: 'Find a contact by name.',
  inputSchema: z.object({ name: z.string(), limit: z.number().default(5) }),
}).server(async (input, context) => ({ ...input, hadContext: typeof context?.emitCustomEvent === 'function' }));

describe('fromTanStackTool', () => {
  it('makes a descriptor with the tool’s name as id, its zod schema and the descriptor fields given', async () => {
    const descriptor = fromTanStackTool(lookup, { tags: ['crm'], aliases: ['find_contact'] });

    expect(descriptor).toMatchObject({ id: 'lookup.contact', description: 'Find a contact by name.', tool: lookup });
    expect(descriptor.tags).toEqual(['crm']);
    expect(descriptor.aliases).toEqual(['find_contact']);
    // Outside chat() the tool still gets a TanStack AI context (with a no-op emitCustomEvent).
    await expect(descriptor.execute?.({ name: 'Ann', limit: 1 }, { toolId: 'lookup.contact' })).resolves.toEqual({
      name: 'Ann',
      limit: 1,
      hadContext: true,
    });
  });

  it('is an InvalidToolError for what is not a tool, and passes core descriptors through in a list', () => {
    expect(() => fromTanStackTool(42 as unknown as TanStackTool)).toThrow(
      'The TanStack AI tool must be a TanStack AI tool (toolDefinition(...).server(...) or { name, description, inputSchema, execute }), got a number.',
    );
    expect(() => fromTanStackTool({ description: 'No name.' } as unknown as TanStackTool)).toThrow(InvalidToolError);
    expect(() => fromTanStackTools(7 as unknown as TanStackTool[])).toThrow(InvalidToolError);
    const own = { id: 'ping', description: 'Ping.', execute: () => 'pong' };
    expect(fromTanStackTools([lookup, own]).map((descriptor) => descriptor.id)).toEqual(['lookup.contact', 'ping']);
  });
});

describe('toTanStackTool', () => {
  it('offers a step’s tool under its provider-safe name, runs it through the step, and marks it as the session’s', async () => {
    const session = new ToolSearchSession({ catalog: [fromTanStackTool(lookup)] });
    const step = await session.prepareStep({ loaded: ['lookup.contact'] });
    const offered = step.tools.find((tool) => tool.kind === 'loaded')!;
    const tool = toTanStackTool(offered, step);

    expect(tool.name).toBe(offered.name);
    expect(tool.name).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(isOfferedBySession(tool)).toBe(true);
    expect(isOfferedBySession(lookup)).toBe(false);
    // zod validates (its default applied); a bad argument is the session's refusal, thrown.
    await expect(tool.execute?.({ name: 'Bo' })).resolves.toMatchObject({ name: 'Bo', limit: 5 });
    await expect(tool.execute?.({ name: 3 })).rejects.toThrow(/name/);
    session.dispose();
  });
});

describe('conversationFromMessages', () => {
  it('reads user text parts, tool calls (JSON arguments) and results, and skips pending placeholders', () => {
    const conversation = conversationFromMessages([
      {
        role: 'user',
        content: [
          { type: 'text', content: 'Find ' },
          { type: 'text', content: 'Ann' },
        ],
      },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'load_tool', arguments: '{"toolName":"x"}' } }],
      },
      { role: 'tool', toolCallId: 'c1', content: '{"success":true}' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c2', type: 'function', function: { name: 'x', arguments: '' } }],
      },
      { role: 'tool', toolCallId: 'c2', content: '{"approved":true,"pendingExecution":true}' },
    ]);

    expect(conversation).toEqual([
      { type: 'user-message', text: 'Find Ann' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'x' } },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'load_tool', output: '{"success":true}' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'x', input: {} },
    ]);
  });

  it('is an InvalidArgumentError for what is not a list of messages', () => {
    expect(() => conversationFromMessages('hello' as never)).toThrow(
      /expects an array of TanStack AI ModelMessages, got/,
    );
  });
});
