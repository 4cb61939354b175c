// The sandbox escape suite of issue #17: every attempt of the model's code to reach the host, to
// outlive its run or to exceed its limits fails with a clear answer, and the host is untouched.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../types.js';
import type { CodeRunEvent, ToolSearchEvent } from '../telemetry.js';
import { ToolSearchSession } from '../tool-search-session.js';
import type { CodeModeOptions } from './code-options.js';
import type { CodeSandbox, CodeSandboxHost } from './code-sandbox.js';
import { createQuickJsSandbox } from './quickjs-sandbox.js';

let sandbox: CodeSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});

let deleted = 0;
afterEach(() => {
  // Whatever a test's code did, the host's own objects are as they were.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('toJSON');
  expect(typeof Array.prototype.push).toBe('function');
  expect((globalThis as Record<string, unknown>).tools).toBeUndefined();
});

const tools: ToolDescriptor[] = [
  { id: 'echo', description: 'Echo the input back.', execute: (input) => input },
  {
    id: 'delete_repository',
    description: 'Delete a repository for good.',
    execute: () => {
      deleted++;
      return 'deleted';
    },
  },
];

async function runCode(code: string, options: Partial<CodeModeOptions> = {}) {
  const events: ToolSearchEvent[] = [];
  const session = new ToolSearchSession({
    catalog: tools,
    mode: 'code',
    code: { sandbox, timeoutMs: 500, ...options },
    filter: ({ tool }) => tool.id !== 'delete_repository',
    onEvent: (event) => events.push(event),
  });
  const step = await session.prepareStep({});
  const started = performance.now();
  const outcome = await step.execute('run_tool_code', { code });
  const elapsed = performance.now() - started;
  const run = events.find((event): event is CodeRunEvent => event.type === 'code')!;
  const message = outcome.ok ? undefined : outcome.error.message;
  const result = outcome.ok ? (outcome.output as { result: unknown }).result : undefined;
  return { outcome, message, result, run, events, elapsed };
}

describe('escapes: no host API is in reach', () => {
  it.each([
    ['require', `return require('fs').readFileSync('/etc/passwd', 'utf8')`, /ReferenceError: require is not defined/],
    ['process', `process.exit(1)`, /ReferenceError: process is not defined/],
    ['import()', `return await import('node:child_process')`, /could not load module 'node:child_process'/],
    ['fetch', `return await fetch('http://127.0.0.1:1/')`, /ReferenceError: fetch is not defined/],
    ['WebSocket', `new WebSocket('ws://127.0.0.1:1/')`, /ReferenceError: WebSocket is not defined/],
    ['timers', `setTimeout(() => tools.call('echo', {}), 0)`, /ReferenceError: setTimeout is not defined/],
  ])('%s: a ReferenceError the model reads', async (_name, code, error) => {
    const { outcome, message, run } = await runCode(code);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'execution-failed', toolName: 'run_tool_code' } });
    expect(message).toMatch(/^The code threw: /);
    expect(message).toMatch(error);
    expect(run.ended).toBe('threw');
  });

  it('a walk of globalThis finds the language, tools and console, nothing of the host', async () => {
    const { result } = await runCode(`
      const names = new Set();
      for (let object = globalThis; object; object = Object.getPrototypeOf(object))
        for (const name of Object.getOwnPropertyNames(object)) names.add(name);
      return [...names];`);
    const names = result as string[];
    expect(names).toEqual(expect.arrayContaining(['tools', 'console', 'JSON', 'Promise']));
    for (const name of [
      'process',
      'require',
      'module',
      'Buffer',
      'fetch',
      'WebSocket',
      'setTimeout',
      'setInterval',
      'Deno',
      'Bun',
      'globalThis.__bridge',
      '__bridge',
      '__log',
      'std',
      'os',
      'Worker',
    ]) {
      expect(names).not.toContain(name);
    }
  });

  it('Function and constructor chains from bridge values reach the sandbox’s own global, not the host’s', async () => {
    const { result } = await runCode(`
      const hits = await tools.search('echo');
      const viaResult = hits.constructor.constructor('return typeof process + "/" + typeof require')();
      const viaBridge = tools.call.constructor('return this')();
      const viaPrototype = Object.getPrototypeOf(async () => {}).constructor('return typeof fetch');
      return [viaResult, typeof viaBridge.process, await viaPrototype(), viaBridge === globalThis];`);
    expect(result).toEqual(['undefined/undefined', 'undefined', 'undefined', true]);
  });

  it('prototype poisoning stays in the sandbox; __proto__ keys never reach the host’s values', async () => {
    const { result, outcome } = await runCode(`
      Object.prototype.polluted = 'yes';
      Array.prototype.push = () => { throw new Error('poisoned'); };
      Object.prototype.toJSON = undefined;
      const echoed = await tools.call('echo', JSON.parse('{"__proto__":{"polluted":"via args"},"plain":1}'));
      return JSON.parse('{"__proto__":{"polluted":"via result"},"echoed":' + JSON.stringify(echoed) + '}');`);
    expect(outcome.ok).toBe(true);
    expect(result).toEqual({ echoed: { plain: 1 } });
    expect(Object.hasOwn(result as object, '__proto__')).toBe(false);
    expect((result as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});

describe('escapes: no run outlives its limits', () => {
  it('an infinite loop is stopped at the wall-clock limit and reported as a tool error', async () => {
    const { outcome, run, elapsed } = await runCode('while (true) {}', { timeoutMs: 200 });
    expect(outcome).toMatchObject({
      ok: false,
      error: { message: 'The code ran out of time (200 ms) and was stopped.' },
    });
    expect(run.ended).toBe('timed-out');
    expect(elapsed).toBeLessThan(2_000);
  });

  it('an infinite async loop (microtasks only) is stopped too', async () => {
    const { run } = await runCode('for (;;) await Promise.resolve(1);', { timeoutMs: 200 });
    expect(run.ended).toBe('timed-out');
  });

  it('an infinite loop of bridge calls ends at the bridge-call cap', async () => {
    const { outcome, run, events } = await runCode("for (;;) await tools.search('echo');", { maxBridgeCalls: 20 });
    expect(outcome).toMatchObject({
      ok: false,
      error: { message: 'The code made more than 20 tool calls and was stopped.' },
    });
    expect(run).toMatchObject({
      ended: 'over-budget',
      limit: 'bridge-calls',
      calls: { search: 20, describe: 0, call: 0 },
    });
    expect(events.filter((event) => event.type === 'search')).toHaveLength(20);
  });

  it('10,000 bridge calls at once: the cap (50) holds, the rest never reach the session', async () => {
    const { run, events } = await runCode(
      "await Promise.all(Array.from({ length: 10000 }, () => tools.call('echo', { n: 1 }))); return 'done';",
    );
    expect(run).toMatchObject({ ended: 'over-budget', limit: 'bridge-calls' });
    expect(run.calls.call).toBe(50);
    expect(events.filter((event) => event.type === 'call').length).toBeLessThanOrEqual(50);
  });

  it('a memory bomb is stopped at the memory limit', async () => {
    const { outcome, run } = await runCode("const a = []; for (;;) a.push({ x: 'y'.repeat(64) + a.length });", {
      memoryBytes: 4 * 1024 * 1024,
      timeoutMs: 5_000,
    });
    expect(outcome).toMatchObject({ ok: false, error: { message: 'The code ran out of memory (4 MiB).' } });
    expect(run).toMatchObject({ ended: 'over-budget', limit: 'memory' });
  });

  it('runaway recursion is a RangeError, and the next run works', async () => {
    const { message } = await runCode('const f = () => f(); f();');
    expect(message).toMatch(/RangeError: Maximum call stack size exceeded/);
    expect((await runCode('return 42')).result).toBe(42);
  });

  it('a huge return value comes back cut at maxOutputChars, with a marker', async () => {
    const { outcome } = await runCode("return 'x'.repeat(1000000);", { maxOutputChars: 1_000 });
    const output = (outcome as { output: { result: string; truncated: boolean } }).output;
    expect(output.truncated).toBe(true);
    expect(output.result).toBe(`"${'x'.repeat(999)}…[cut: 999,002 more characters of the return value]`);
  });

  it('a flood of logs is kept within maxOutputChars, with a marker', async () => {
    const { outcome } = await runCode("for (let i = 0; i < 10000; i++) console.log('y'.repeat(100)); return 1;", {
      maxOutputChars: 1_000,
      timeoutMs: 5_000,
    });
    const output = (outcome as { output: { result: number; logs: string[] } }).output;
    expect(output.result).toBe(1);
    expect(output.logs.slice(0, -1).join('').length).toBe(999);
    expect(output.logs.at(-1)).toBe('…[cut: 999,001 more characters of logs]');
  });

  it('a bridge call chained after the run returned never runs', async () => {
    const { result, events } = await runCode(
      "tools.search('echo').then(() => tools.call('echo', { late: true })); return 'returned first';",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result).toBe('returned first');
    expect(events.filter((event) => event.type === 'search')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'call')).toEqual([]);
  });

  it('a sandbox that calls the bridge after its run ended is refused, and the tool never runs', async () => {
    let kept: CodeSandboxHost | undefined;
    const leaky: CodeSandbox = {
      name: 'leaky',
      run: async (_source, host) => {
        kept = host;
        return { ended: 'returned' };
      },
    };
    const ran: unknown[] = [];
    const session = new ToolSearchSession({
      catalog: [{ id: 'echo', description: 'Echo.', execute: (input) => ran.push(input) }],
      mode: 'code',
      code: { sandbox: leaky },
    });
    const step = await session.prepareStep({});
    expect(await step.execute('run_tool_code', { code: 'return 1' })).toEqual({ ok: true, output: { result: null } });
    const late = JSON.parse(await kept!.bridge('call', JSON.stringify(['echo', {}])));
    expect(late).toEqual({ ok: false, code: 'run-ended', message: 'The run has ended.' });
    expect(ran).toEqual([]);
  });

  it('a tool the policy denies is refused, and the refusal is what the model reads', async () => {
    deleted = 0;
    const { outcome, events } = await runCode(`
      try { await tools.call('delete_repository', {}); } catch (error) { return error.code + ': ' + error.message; }`);
    expect(outcome).toMatchObject({
      ok: true,
      output: { result: expect.stringMatching(/^unknown-tool: Tool "delete_repository" is not available/) },
    });
    expect(deleted).toBe(0);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'blocked', toolId: 'delete_repository', phase: 'load' }),
    );
  });
});
