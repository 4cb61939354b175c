import { describe, expect, it } from 'vitest';
import { DuplicateToolError, InvalidOptionError, InvalidToolError } from '../errors.js';
import type { ToolExecutionContext } from '../types.js';
import {
  descriptorsOfToolInput,
  markPinned,
  type ToolLike,
  type ToolLikeReader,
  toolLikeDescriptor,
} from './tool-like.js';

interface FakeTool extends ToolLike {
  id?: string;
  description?: string;
  schema?: unknown;
  execute?: (input: unknown) => unknown;
  server?: string;
  framework?: true;
}

const runs: unknown[] = [];
const READER: ToolLikeReader<FakeTool> = {
  noun: 'fake tool',
  kind: 'a fake tool (fakeTool(...))',
  idHint: 'Give it one.',
  isTool: (value) => typeof value === 'object' && value !== null && 'framework' in value,
  readSchema(tool) {
    if (tool.schema === 'broken') throw new Error('unreadable');
    return tool.schema as undefined;
  },
  run(tool, input, context: ToolExecutionContext) {
    runs.push({ id: context.toolId, input });
    return tool.execute?.(input);
  },
  extras: (tool) => ({ source: tool.server, tags: undefined }),
};

const echo: FakeTool = { framework: true, id: 'echo', description: 'Echo.', execute: (input) => input, server: 's1' };

describe('toolLikeDescriptor', () => {
  it('converts a tool: its id (or key), description, schema, extras, and an execute that runs it', async () => {
    const descriptor = toolLikeDescriptor(echo, READER);
    expect(descriptor).toMatchObject({ id: 'echo', description: 'Echo.', source: 's1', tool: echo });
    expect(descriptor).not.toHaveProperty('tags');
    expect(await descriptor.execute?.({ a: 1 }, { toolId: 'echo' })).toEqual({ a: 1 });
    expect(runs).toContainEqual({ id: 'echo', input: { a: 1 } });
    expect(toolLikeDescriptor({ framework: true }, READER, 'by_key').id).toBe('by_key');
  });

  it('refuses what it cannot convert, naming the tool', () => {
    expect(() => toolLikeDescriptor(42 as never, READER, 'k')).toThrow(/tools\["k"\] must be a fake tool/);
    expect(() => toolLikeDescriptor({}, READER)).toThrow(/The tool has no id. Give it one./);
    expect(() => toolLikeDescriptor({ id: 'x', description: (() => 'd') as never }, READER)).toThrow(
      /description is a function/,
    );
    expect(() => toolLikeDescriptor({ id: 'x', execute: 1 as never }, READER)).toThrow(/execute must be a function/);
    const broken = () => toolLikeDescriptor({ id: 'x', schema: 'broken' }, READER);
    expect(broken).toThrow(InvalidToolError);
    expect(broken).toThrow(/x|The tool: inputSchema cannot be read \(unreadable\)/);
  });
});

describe('descriptorsOfToolInput', () => {
  it('takes a record (keys as fallback ids) or a list of tools and descriptors', async () => {
    expect(descriptorsOfToolInput({ a: echo, b: { framework: true } }, READER).map((tool) => tool.id)).toEqual([
      'echo',
      'b',
    ]);
    const [tool, described] = descriptorsOfToolInput([echo, { id: 'wrapped', tool: echo }], READER);
    expect(tool?.id).toBe('echo');
    expect(await described?.execute?.('hi', { toolId: 'wrapped' })).toBe('hi');
  });

  it('refuses two tools with one id, and what is not a tool', () => {
    expect(() => descriptorsOfToolInput({ a: echo, b: echo }, READER)).toThrow(DuplicateToolError);
    expect(() => descriptorsOfToolInput({ a: echo, b: echo }, READER)).toThrow(/tools\["a"\].*tools\["b"\]/);
    expect(() => descriptorsOfToolInput([42], READER)).toThrow(
      /Tool at index 0 must be a fake tool or a tool descriptor/,
    );
    expect(() => descriptorsOfToolInput('x', READER)).toThrow(/tools must be a record of fake tools by name or a list/);
  });
});

describe('markPinned', () => {
  it('marks the tools named, and refuses names that are not among the tools', () => {
    const tools = [{ id: 'a' }, { id: 'b' }];
    expect(markPinned(tools, ['b'])).toEqual([{ id: 'a' }, { id: 'b', pinned: true }]);
    expect(tools[1]).toEqual({ id: 'b' });
    let caught: unknown;
    try {
      markPinned(tools, ['b', 'nope', 'gone'], 'alwaysOn');
    } catch (error) {
      caught = error;
    }
    expect(InvalidOptionError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({
      option: 'alwaysOn',
      message: 'alwaysOn names tools that are not in tools: nope, gone.',
    });
  });
});
