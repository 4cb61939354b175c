import { chat, type ModelMessage, maxIterations, type StreamChunk } from '@tanstack/ai';
import { answer, call, load, parallel, type ScriptAction, search } from '@toolscout/conformance';
import { InvalidOptionError } from '@toolscout/core/errors';
import { parseJsonOrText } from '@toolscout/test-kit';
import { describe, expect, it } from 'vitest';
import { createFixtureTools } from '../test-utils/fixture-tools.js';
import type { TanStackTool } from './tanstack-tool.js';
import { ScriptedAdapter } from './testing.js';
import { type ToolSearchMiddlewareOptions, toolSearchMiddleware } from './tool-search-middleware.js';

const META = ['search_tools', 'load_tool'];

interface RunOptions {
  /** TanStack AI's logging (`chat({ debug })`); off, so an expected failure prints nothing. */
  debug?: false;
  tools?: TanStackTool[];
  systemPrompts?: string[];
  messages?: ModelMessage[];
  context?: Record<string, unknown>;
  options?: Partial<ToolSearchMiddlewareOptions>;
}

/** One real `chat()` run (`stream: false`) with the middleware over the fixture catalog, the model playing `script`. */
async function runChat(script: ScriptAction[], run: RunOptions = {}) {
  const fixture = createFixtureTools();
  const middleware = toolSearchMiddleware({ catalog: fixture.catalog, ...run.options });
  const scripted = new ScriptedAdapter();
  scripted.play(script);
  const text = await chat({
    adapter: scripted.adapter,
    messages: run.messages ?? [{ role: 'user', content: 'What is the weather in Paris? Also add 1 and 2.' }],
    tools: run.tools ?? [fixture.calculator],
    systemPrompts: run.systemPrompts,
    context: run.context ?? {},
    middleware: [middleware],
    agentLoopStrategy: maxIterations(script.length + 1),
    debug: run.debug,
    stream: false,
  });
  return { text, scripted, fixture, middleware, offered: scripted.calls.map((c) => c.tools.map((tool) => tool.name)) };
}

/** The `error` of a tool result's output (`{ error }`), or undefined. */
function errorOf(result: { output: unknown } | undefined): string | undefined {
  const error = (result?.output as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : undefined;
}

/** The tool results the model read at its last call, by the name of the call they answer. */
function lastResults(scripted: ScriptedAdapter): { name: string; output: unknown }[] {
  const messages = scripted.calls.at(-1)?.messages ?? [];
  const names = new Map(messages.flatMap((m) => m.toolCalls ?? []).map((c) => [c.id, c.function.name]));
  return messages
    .filter((m) => m.role === 'tool')
    .map((m) => ({ name: names.get(m.toolCallId ?? '') ?? '', output: parseJsonOrText(String(m.content)) }));
}

describe('toolSearchMiddleware in chat()', () => {
  it('offers the meta-tools beside chat()’s own tools, then the loaded tool, run with TanStack AI’s context', async () => {
    const { scripted, fixture, offered, text } = await runChat([
      search('weather in a city'),
      load('get_weather'),
      parallel(
        { toolName: 'get_weather', input: { city: 'Paris' } },
        { toolName: 'calculator', input: { a: 1, b: 2 } },
      ),
      answer('Sunny, and 3.'),
    ]);

    expect(text).toBe('Sunny, and 3.');
    expect(offered).toEqual([
      ['calculator', ...META],
      ['calculator', ...META],
      ['calculator', ...META, 'get_weather'],
      ['calculator', ...META, 'get_weather'],
    ]);
    // The model gets the tool's zod schema as JSON Schema; the zod schema validates (its default applied).
    const offeredWeather = scripted.calls[2]!.tools.find((tool) => tool.name === 'get_weather');
    expect(offeredWeather?.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(fixture.runs).toEqual([
      { tool: 'get_weather', input: { city: 'Paris', unit: 'celsius' }, hadChatContext: true },
      { tool: 'calculator', input: { a: 1, b: 2 }, hadChatContext: true },
    ]);
    expect(lastResults(scripted).slice(2)).toEqual([
      { name: 'get_weather', output: { city: 'Paris', unit: 'celsius', forecast: 'sunny' } },
      { name: 'calculator', output: 3 },
    ]);
  });

  it('answers a call of a tool not loaded yet with the session’s message, not TanStack AI’s "Unknown tool"', async () => {
    const { scripted, fixture } = await runChat([call('get_weather', { city: 'Paris' }), answer()]);

    const [result] = lastResults(scripted);
    expect(result?.name).toBe('get_weather');
    expect(errorOf(result)).toContain('load_tool');
    expect(JSON.stringify(result?.output)).not.toContain('Unknown tool');
    expect(fixture.runs).toEqual([]);
  });

  it('gives a call with bad arguments back as an error the model reads, without running the tool', async () => {
    const { scripted, fixture } = await runChat([load('get_weather'), call('get_weather', { city: 5 }), answer()]);

    expect(errorOf(lastResults(scripted)[1])).toContain('city');
    expect(fixture.runs).toEqual([]);
  });

  it('puts the session’s instructions after the user’s system prompt, once, at every model call', async () => {
    const { scripted, middleware } = await runChat([search('weather'), search('email'), answer()], {
      systemPrompts: ['You are terse.'],
    });

    const instructions = middleware.session.instructions;
    expect(instructions).toContain('search_tools');
    expect(scripted.calls.map((c) => c.systemPrompts)).toEqual([
      ['You are terse.', instructions],
      ['You are terse.', instructions],
      ['You are terse.', instructions],
    ]);
  });

  it('keeps chat()’s own lazy tools and their discovery tool beside the session’s meta-tools', async () => {
    const { calculator } = createFixtureTools();
    const { offered, fixture } = await runChat(
      [call('__lazy__tool__discovery__', { toolNames: ['calculator'] }), call('calculator', { a: 2, b: 2 }), answer()],
      { tools: [{ ...calculator, lazy: true }] },
    );

    expect(offered[0]).toEqual(['__lazy__tool__discovery__', ...META]);
    expect(offered[1]).toEqual(['calculator', ...META]);
    expect(fixture.runs).toEqual([]); // the lazy calculator is the copy given to chat(), not the fixture's record
  });

  it('keeps loads across chat() calls of one thread (the thread id in chat({ context }))', async () => {
    const fixture = createFixtureTools();
    const middleware = toolSearchMiddleware({ catalog: fixture.catalog });
    const offered: string[][] = [];
    for (const script of [[load('get_weather'), answer()], [answer()]]) {
      const scripted = new ScriptedAdapter();
      scripted.play(script);
      await chat({
        adapter: scripted.adapter,
        messages: [{ role: 'user', content: 'Weather?' }],
        middleware: [middleware],
        context: { threadId: 'thread-1' },
        stream: false,
      });
      offered.push(...scripted.calls.map((c) => c.tools.map((tool) => tool.name)));
    }

    expect(offered).toEqual([META, [...META, 'get_weather'], [...META, 'get_weather']]);
  });

  it('takes who a run is for from request(ctx): here TanStack AI’s own threadId', async () => {
    const fixture = createFixtureTools();
    const seen: unknown[] = [];
    const middleware = toolSearchMiddleware({
      catalog: fixture.catalog,
      request: (ctx) => ({ threadId: ctx.threadId, context: ctx.context }),
      filter: ({ context }) => {
        seen.push(context);
        return true;
      },
    });
    const offered: string[][] = [];
    for (const script of [[load('create_invoice'), answer()], [answer()]]) {
      const scripted = new ScriptedAdapter();
      scripted.play(script);
      await chat({
        adapter: scripted.adapter,
        messages: [{ role: 'user', content: 'Invoice?' }],
        middleware: [middleware],
        threadId: 'tanstack-thread',
        context: { tenant: 'acme' },
        stream: false,
      });
      offered.push(...scripted.calls.map((c) => c.tools.map((tool) => tool.name)));
    }

    expect(offered.at(-1)).toEqual([...META, 'create_invoice']);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((context) => (context as { tenant?: string }).tenant === 'acme')).toBe(true);
  });

  it('works in a streaming chat(): the chunks carry the session’s tool results', async () => {
    const fixture = createFixtureTools();
    const scripted = new ScriptedAdapter();
    scripted.play([load('get_weather'), call('get_weather', { city: 'Oslo' }), answer('Cold.')]);
    const chunks: StreamChunk[] = [];
    for await (const chunk of chat({
      adapter: scripted.adapter,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      middleware: [toolSearchMiddleware({ catalog: fixture.catalog })],
    })) {
      chunks.push(chunk);
    }

    const results = chunks.filter((chunk) => chunk.type === 'TOOL_CALL_RESULT');
    expect(results).toHaveLength(2);
    expect(fixture.runs.map((run) => run.input)).toEqual([{ city: 'Oslo', unit: 'celsius' }]);
  });

  it('asks for approval of a catalog tool that needs it, and runs the approved call in the next chat()', async () => {
    const { catalog, runs } = createFixtureTools();
    const email = { to: 'bob@example.com', subject: 'Hi', body: 'Hello' };
    const guarded = catalog.map((tool) => (tool.name === 'send_email' ? { ...tool, needsApproval: true } : tool));
    const middleware = toolSearchMiddleware({ catalog: guarded });
    const context = { threadId: 'thread-approval' };

    const first = new ScriptedAdapter();
    first.play([load('send_email'), call('send_email', email)]);
    const chunks: StreamChunk[] = [];
    const stream = chat({
      adapter: first.adapter,
      messages: [{ role: 'user', content: 'Email Bob' }],
      middleware: [middleware],
      context,
    });
    for await (const chunk of stream) chunks.push(chunk);
    const emailCall = chunks.find((chunk) => chunk.type === 'TOOL_CALL_START' && chunk.toolCallName === 'send_email');
    const callId = (emailCall as { toolCallId: string } | undefined)?.toolCallId ?? '';
    expect(callId).not.toBe('');
    expect(runs).toEqual([]); // not before it is approved

    // The client answers the approval (useChat's message parts), and the run resumes.
    const second = new ScriptedAdapter();
    second.play([answer('Sent.')]);
    const text = await chat({
      adapter: second.adapter,
      messages: [
        { id: 'u1', role: 'user', parts: [{ type: 'text', content: 'Email Bob' }] },
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            {
              type: 'tool-call',
              id: callId,
              name: 'send_email',
              arguments: JSON.stringify(email),
              state: 'approval-responded',
              approval: { id: `approval_${callId}`, needsApproval: true, approved: true },
            },
          ],
        },
      ],
      middleware: [middleware],
      context,
      stream: false,
    });

    expect(text).toBe('Sent.');
    expect(runs.map((run) => run.tool)).toEqual(['send_email']);
    expect(lastResults(second)).toEqual([{ name: 'send_email', output: { sent: true } }]);
  });

  it('throws an InvalidOptionError naming a bad option when it is called', () => {
    const optionOf = (options: unknown) => {
      try {
        toolSearchMiddleware(options as ToolSearchMiddlewareOptions);
      } catch (error) {
        return InvalidOptionError.isInstance(error) ? error.option : `not an InvalidOptionError: ${String(error)}`;
      }
      return undefined;
    };
    const { catalog } = createFixtureTools();

    expect(optionOf(undefined)).toBe('options');
    expect(optionOf({ catalog, request: 'thread-1' })).toBe('request');
    expect(optionOf({ catalog, onStep: true })).toBe('onStep');
    expect(optionOf({ catalog, name: '' })).toBe('name');
    expect(optionOf({ catalog, mode: 'everything' })).toBe('mode');
  });

  it('refuses a tool of chat() named like a meta-tool (InvalidOptionError of tools), before the model is called', async () => {
    const { calculator } = createFixtureTools();
    const clash = { ...calculator, name: 'search_tools' };

    await expect(runChat([answer()], { tools: [clash], debug: false })).rejects.toMatchObject({ option: 'tools' });
  });
});
