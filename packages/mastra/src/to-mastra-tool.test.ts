import { ToolSearchSession } from '@toolscout/core';
import { ToolCallFailedError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { requestContextOf } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import { fromMastraTools, type MastraTool } from './from-mastra-tools.js';
import { toMastraTool } from './to-mastra-tool.js';

type Execute = (input: unknown, context?: Record<string, unknown>) => Promise<unknown>;

describe('toMastraTool', () => {
  it("offers the session's schema, keeps the original's approval setting, and runs through the step", async () => {
    const { tools, runs } = createMastraTools();
    const session = new ToolSearchSession<MastraTool>({ catalog: fromMastraTools(tools) });
    const step = await session.prepareStep({ threadId: 'thread-wrap' });
    await step.execute('load_tool', { toolName: 'delete_repository' });
    const next = await session.prepareStep({ threadId: 'thread-wrap' });
    const offered = next.tools.find((tool) => tool.name === 'delete_repository')!;
    const wrapper = toMastraTool(offered, next);
    expect(wrapper.id).toBe('delete_repository');
    expect(wrapper.requireApproval).toBe(true);
    const execute = wrapper.execute as unknown as Execute;

    const context = { requestContext: requestContextOf({ tenant: 'acme' }), agent: { toolCallId: 'call-9' } };
    await expect(execute({ repo: 'acme/old' }, context)).resolves.toEqual({ deleted: 'acme/old' });
    expect(runs).toEqual([
      { toolId: 'delete_repository', input: { repo: 'acme/old' }, tenant: 'acme', toolCallId: 'call-9' },
    ]);

    const refused = await execute({ repo: 42 }, context).catch((error: unknown) => error);
    expect(ToolCallFailedError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      reason: 'invalid-arguments',
      code: 'tool-call-invalid-arguments',
      message: expect.stringContaining('repo'),
    });
    expect(runs).toHaveLength(1);
  });

  it('throws the self-correction message for a tool the step does not offer', async () => {
    const { tools } = createMastraTools();
    const session = new ToolSearchSession<MastraTool>({ catalog: fromMastraTools(tools) });
    const step = await session.prepareStep({ threadId: 'thread-wrap-2' });
    const catalogTool = session.catalog.get('send_email')!;
    const wrapper = toMastraTool(
      { kind: 'loaded', name: 'send_email', description: '', inputSchema: catalogTool.jsonSchema, tool: catalogTool },
      step,
    );
    const error = await (wrapper.execute as unknown as Execute)({ to: 'a', subject: 'b', body: 'c' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolCallFailedError);
    expect((error as ToolCallFailedError).reason).toBe('not-loaded');
    expect((error as Error).message).toContain('Call load_tool with {"toolName":"send_email"}');
  });
});
