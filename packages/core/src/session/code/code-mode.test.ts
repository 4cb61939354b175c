// Code mode (issue #17): one meta-tool, run_tool_code, whose program searches, describes and calls
// tools through the session, in a QuickJS sandbox.
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionError, SandboxUnavailableError } from '../../errors.js';
import type { ToolDescriptor } from '../../types.js';
import type { ToolSearchSessionOptions } from '../session-options.js';
import type { CodeRunEvent, ToolSearchEvent } from '../telemetry.js';
import { ToolSearchSession } from '../tool-search-session.js';
import { codeModeOptions } from './code-mode-choice.js';
import type { CodeSandbox } from './code-sandbox.js';
import { createQuickJsSandbox } from './quickjs-sandbox.js';

let sandbox: CodeSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});

/** A small GitHub-and-Slack catalog whose tools record what they ran with. */
function catalog(ran: { id: string; input: unknown }[]): ToolDescriptor[] {
  const record = (id: string, output: (input: Record<string, unknown>) => unknown) => (input: unknown) => {
    ran.push({ id, input });
    return output(input as Record<string, unknown>);
  };
  return [
    {
      id: 'github_list_issues',
      description: 'List issues of a GitHub repository, filtered by labels and state.',
      inputSchema: {
        type: 'object',
        properties: { labels: { type: 'array', items: { type: 'string' } }, state: { enum: ['open', 'closed'] } },
        required: ['state'],
      },
      execute: record('github_list_issues', () => [
        { number: 1, title: 'Crash on start' },
        { number: 2, title: 'Typo in README' },
        { number: 3, title: 'Slow search' },
        { number: 4, title: 'Wrong icon' },
      ]),
    },
    {
      id: 'slack_post_message',
      description: 'Post a message to a Slack channel.',
      inputSchema: {
        type: 'object',
        properties: { channel: { type: 'string' }, text: { type: 'string' } },
        required: ['channel', 'text'],
      },
      execute: record('slack_post_message', (input) => ({ posted: true, channel: input.channel })),
    },
    {
      id: 'delete_repository',
      description: 'Delete a GitHub repository for good.',
      execute: record('delete_repository', () => 'deleted'),
    },
  ];
}

async function codeSession(options: Partial<ToolSearchSessionOptions> = {}) {
  const ran: { id: string; input: unknown }[] = [];
  const events: ToolSearchEvent[] = [];
  const session = new ToolSearchSession({
    catalog: catalog(ran),
    mode: 'code',
    code: { sandbox },
    onEvent: (event) => events.push(event),
    ...options,
  });
  const step = await session.prepareStep({ threadId: 't' });
  const run = (code: string) => step.execute('run_tool_code', { code });
  const codeEvents = () => events.filter((event): event is CodeRunEvent => event.type === 'code');
  return { session, step, run, ran, events, codeEvents };
}

describe('code mode', () => {
  it('offers one meta-tool, run_tool_code, whose description is the API contract', async () => {
    const { step, session } = await codeSession();
    expect(step.toolNames).toEqual(['run_tool_code']);
    expect(step.tools[0]!.description).toContain('tools.search(query');
    expect(step.tools[0]!.description).toContain('tools.call(id, args)');
    expect(step.tools[0]!.inputSchema).toMatchObject({ required: ['code'] });
    expect(session.instructions).toContain('run_tool_code');
  });

  it('runs search, describe and two calls in one step, and returns the program’s value and logs', async () => {
    const { run, ran, codeEvents } = await codeSession();
    const outcome = await run(`
      const hits = await tools.search('list github issues', { limit: 2 });
      const tool = await tools.describe(hits[0].id);
      console.log('using', tool.id, Object.keys(tool.inputSchema.properties));
      const issues = await tools.call(tool.id, { labels: ['bug'], state: 'open' });
      const titles = issues.slice(0, 3).map((issue) => issue.title);
      await tools.call('slack_post_message', { channel: '#triage', text: titles.join(', ') });
      return titles;`);
    expect(outcome).toEqual({
      ok: true,
      output: {
        result: ['Crash on start', 'Typo in README', 'Slow search'],
        logs: ['using github_list_issues ["labels","state"]'],
      },
    });
    expect(ran).toEqual([
      { id: 'github_list_issues', input: { labels: ['bug'], state: 'open' } },
      { id: 'slack_post_message', input: { channel: '#triage', text: 'Crash on start, Typo in README, Slow search' } },
    ]);
    expect(codeEvents()).toEqual([
      expect.objectContaining({
        type: 'code',
        threadId: 't',
        sandbox: 'quickjs',
        ended: 'returned',
        calls: { search: 1, describe: 1, call: 2 },
        toolIds: ['github_list_issues', 'slack_post_message'],
        memoryBytes: expect.any(Number),
        latencyMs: expect.any(Number),
      }),
    ]);
  });

  it('validates a call’s arguments against the tool’s schema, as a direct call is', async () => {
    const { run, ran } = await codeSession();
    const outcome = await run(`
      try { await tools.call('slack_post_message', { channel: 5 }); }
      catch (error) { return { code: error.code, message: error.message }; }`);
    expect(outcome).toMatchObject({ ok: true, output: { result: { code: 'invalid-arguments' } } });
    expect(ran).toEqual([]);
  });

  it('a tool the policy denies is not run, and the model reads that it is not available', async () => {
    const { run, ran, events } = await codeSession({ filter: ({ tool }) => tool.id !== 'delete_repository' });
    const outcome = await run(`return await tools.call('delete_repository', {});`);
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'execution-failed',
        toolName: 'run_tool_code',
        message: expect.stringContaining('Tool "delete_repository" is not available'),
      },
    });
    expect(ran).toEqual([]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'blocked', toolId: 'delete_repository' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'code', ended: 'threw' }));
  });

  it('search answers under the policy’s search phase: a hidden tool is never found', async () => {
    const { run } = await codeSession({
      filter: ({ tool, phase }) => !(phase === 'search' && tool.id === 'delete_repository'),
    });
    const outcome = await run(`return (await tools.search('delete github repository')).map((hit) => hit.id);`);
    expect(outcome).toMatchObject({ ok: true });
    expect((outcome as { output: { result: string[] } }).output.result).not.toContain('delete_repository');
  });

  it('describe answers a tool’s id, description and schema; an unknown id is a thrown error', async () => {
    const { run } = await codeSession();
    const outcome = await run(`
      const known = await tools.describe('slack_post_message');
      const unknown = await tools.describe('no_such_tool').catch((error) => error.code);
      return { known, unknown };`);
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        result: {
          known: {
            id: 'slack_post_message',
            description: 'Post a message to a Slack channel.',
            inputSchema: { required: ['channel', 'text'] },
          },
          unknown: 'unknown-tool',
        },
      },
    });
  });

  it('a missing, empty or oversized program is an invalid-arguments error', async () => {
    const { step } = await codeSession();
    expect(await step.execute('run_tool_code', {})).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(await step.execute('run_tool_code', { code: '  ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    });
    expect(await step.execute('run_tool_code', { code: 'x'.repeat(20_001) })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments', message: expect.stringContaining('at most 20,000 characters') },
    });
  });

  it('a catalog tool called directly is not loaded: the answer sends the model to run_tool_code', async () => {
    const { step } = await codeSession();
    expect(await step.execute('slack_post_message', { channel: 'a', text: 'b' })).toMatchObject({
      ok: false,
      error: {
        code: 'not-loaded',
        message: expect.stringContaining('Run it from run_tool_code with await tools.call("slack_post_message"'),
      },
    });
  });

  it('a renamed code tool keeps its role', async () => {
    const { session } = await codeSession({ metaTools: { code: { name: 'execute_js' } } });
    const step = await session.prepareStep({});
    expect(step.toolNames).toEqual(['execute_js']);
    expect(await step.execute('execute_js', { code: 'return 1 + 1' })).toEqual({ ok: true, output: { result: 2 } });
  });
});

describe('code mode options', () => {
  it('code mode without a sandbox is refused at construction, never run unsandboxed', () => {
    expect(() => new ToolSearchSession({ catalog: [], mode: 'code' })).toThrow(
      expect.objectContaining({ option: 'code.sandbox', message: expect.stringContaining('createQuickJsSandbox()') }),
    );
    expect(() => new ToolSearchSession({ catalog: [], mode: 'code', code: { sandbox: {} as CodeSandbox } })).toThrow(
      InvalidOptionError,
    );
  });

  it.each([
    ['timeoutMs', 0],
    ['timeoutMs', 60_001],
    ['memoryBytes', 1024],
    ['maxBridgeCalls', 1.5],
    ['maxOutputChars', Number.NaN],
  ])('code.%s = %s is an InvalidOptionError naming it', (field, value) => {
    const make = () => new ToolSearchSession({ catalog: [], mode: 'code', code: { sandbox, [field]: value } });
    expect(make).toThrow(expect.objectContaining({ option: `code.${field}` }));
  });

  it('codeModeOptions starts the QuickJS sandbox, and falls back to proxy only when asked', async () => {
    expect(await codeModeOptions()).toMatchObject({ mode: 'code', code: { sandbox: { name: 'quickjs' } } });
    const broken = async (): Promise<CodeSandbox> => {
      throw new SandboxUnavailableError('quickjs', new Error('WebAssembly is disabled'));
    };
    await expect(codeModeOptions({ sandbox: broken })).rejects.toThrow(
      /cannot start on this host \(WebAssembly is disabled\)/,
    );
    const fallback = await codeModeOptions({ sandbox: broken, fallback: 'proxy' });
    expect(fallback).toEqual({ mode: 'proxy' });
    const session = new ToolSearchSession({ catalog: [], ...fallback });
    expect(session.metaTools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  });
});
