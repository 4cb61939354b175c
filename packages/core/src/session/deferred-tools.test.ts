import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError, InvalidToolError } from '../errors.js';
import type { ResolvedTool, ToolDescriptor, ToolResolveContext } from '../types.js';
import type { ToolSearchMode } from './meta-tools.js';
import type { ResolveEvent, ToolSearchEvent } from './telemetry.js';
import { ToolSearchSession } from './tool-search-session.js';

/** A deferred CRM tool whose resolve is counted and can be told to fail. */
function crm(behaviour: { fail?: 'reject' | 'throw' | 'hang' | 'bad-schema' | 'not-an-object' } = {}) {
  const resolves: ToolResolveContext[] = [];
  const calls: unknown[] = [];
  const tool: ToolDescriptor = {
    id: 'crm_find_contact',
    description: 'Find a contact in the CRM by name.',
    tags: ['crm'],
    source: 'crm',
    resolve: (context) => {
      resolves.push(context);
      switch (behaviour.fail) {
        case 'reject':
          return Promise.reject(new Error('connector revoked'));
        case 'throw':
          throw new Error('sync failure');
        case 'hang':
          return new Promise<ResolvedTool>(() => {});
        case 'bad-schema':
          return Promise.resolve({ inputSchema: { type: 'string' } });
        case 'not-an-object':
          return Promise.resolve(42 as unknown as ResolvedTool);
      }
      return Promise.resolve({
        inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        execute: (input: unknown) => {
          calls.push(input);
          return { found: input };
        },
      });
    },
  };
  const weather: ToolDescriptor = { id: 'get_weather', description: 'Weather for a city.', execute: () => 'sunny' };
  return { catalog: [tool, weather], resolves, calls };
}

function sessionOf(
  fixture: ReturnType<typeof crm>,
  options: { mode?: ToolSearchMode; resolveTimeoutMs?: number } = {},
) {
  const events: ToolSearchEvent[] = [];
  const session = new ToolSearchSession({
    catalog: fixture.catalog,
    onEvent: (event) => events.push(event),
    ...options,
  });
  const resolveEvents = () => events.filter((event): event is ResolveEvent => event.type === 'resolve');
  return { session, events, resolveEvents };
}

describe('deferred tools', () => {
  it('are found by their metadata without ever being resolved', async () => {
    const fixture = crm();
    const { session } = sessionOf(fixture);
    const step = await session.prepareStep({ threadId: 't1', context: {} });
    const outcome = await step.execute('search_tools', { query: 'find a crm contact' });
    expect(outcome.ok && (outcome.output as { results: { name: string }[] }).results[0]?.name).toBe('crm_find_contact');
    expect((await session.search('contact')).map((hit) => hit.tool.id)).toEqual(['crm_find_contact']);
    await session.prepareStep({ threadId: 't1' });
    expect(fixture.resolves).toEqual([]);
  });

  it('are not resolved by a catalog-mode listing', async () => {
    const fixture = crm();
    const { session } = sessionOf(fixture, { mode: 'catalog' });
    const step = await session.prepareStep({ threadId: 't1' });
    expect(step.tools[0]?.description).toContain('crm_find_contact');
    expect(fixture.resolves).toEqual([]);
  });

  it('resolve once per request context on load, and offer and run the resolved tool', async () => {
    const fixture = crm();
    const { session, resolveEvents } = sessionOf(fixture);
    const context = { user: 'ann' };
    const request = { threadId: 't1', resourceId: 'r1', context };
    let step = await session.prepareStep(request);
    const loaded = await step.execute('load_tool', { toolName: 'crm_find_contact' });
    expect(loaded).toMatchObject({ ok: true, loaded: ['crm_find_contact'], output: { success: true } });
    expect(fixture.resolves).toHaveLength(1);
    expect(fixture.resolves[0]).toMatchObject({
      toolId: 'crm_find_contact',
      threadId: 't1',
      resourceId: 'r1',
      context,
    });
    expect(fixture.resolves[0]?.signal).toBeInstanceOf(AbortSignal);

    // Two more steps of the same request context: offered with the resolved schema, no new resolve.
    for (let i = 0; i < 2; i++) {
      step = await session.prepareStep({ ...request });
      const offered = step.tools.find((tool) => tool.name === 'crm_find_contact');
      expect(offered?.inputSchema).toMatchObject({ required: ['name'] });
    }
    expect(fixture.resolves).toHaveLength(1);

    // Calls run the resolved execute, through validation and the policy.
    const bad = await step.execute('crm_find_contact', { name: 7 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(await step.execute('crm_find_contact', { name: 'Bob' })).toEqual({
      ok: true,
      output: { found: { name: 'Bob' } },
      toolId: 'crm_find_contact',
    });
    expect(fixture.calls).toEqual([{ name: 'Bob' }]);

    // Another request context (the next request of the thread) resolves once again.
    await session.prepareStep({ ...request, context: { user: 'ann' } });
    expect(fixture.resolves).toHaveLength(2);
    expect(resolveEvents().map((event) => [event.purpose, event.ok])).toEqual([
      ['load', true],
      ['offer', true],
    ]);
  });

  it('load once when two parallel calls of one step load the same tool', async () => {
    const fixture = crm();
    const { session } = sessionOf(fixture);
    const step = await session.prepareStep({ threadId: 't1', context: {} });
    for (const name of ['crm_find_contact', 'get_weather']) {
      const [first, second] = await Promise.all([
        step.execute('load_tool', { toolNames: [name] }),
        step.execute('load_tool', { toolNames: [name] }),
      ]);
      expect(first).toMatchObject({ loaded: [name], output: { loaded: [name], loadedCount: 1 } });
      expect(second).toMatchObject({ output: { alreadyLoaded: [name], loadedCount: 0 } });
      expect(second.ok && second.output).not.toHaveProperty('loaded');
    }
    expect(fixture.resolves).toHaveLength(1);
  });

  it('cache by thread when the request context is not an object', async () => {
    const fixture = crm();
    const { session } = sessionOf(fixture);
    const step = await session.prepareStep({ threadId: 't1', context: 'plain string' });
    await step.execute('load_tool', { toolName: 'crm_find_contact' });
    await session.prepareStep({ threadId: 't1' });
    await session.prepareStep({ threadId: 't1' });
    expect(fixture.resolves).toHaveLength(1);
    // Another thread has its own.
    const other = await session.prepareStep({ threadId: 't2' });
    await other.execute('load_tool', { toolName: 'crm_find_contact' });
    expect(fixture.resolves).toHaveLength(2);
  });

  it.each([
    ['reject', 'resolve-failed'],
    ['throw', 'resolve-failed'],
    ['bad-schema', 'invalid-tool'],
    ['not-an-object', 'invalid-tool'],
  ] as const)('are not loaded when resolve fails (%s), and the model reads why', async (fail, error) => {
    const fixture = crm({ fail });
    const { session, resolveEvents } = sessionOf(fixture);
    const request = { threadId: 't1', context: {} };
    const step = await session.prepareStep(request);
    const outcome = await step.execute('load_tool', { toolName: 'crm_find_contact' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.loaded).toBeUndefined();
    expect(outcome.output).toMatchObject({ success: false, toolName: 'crm_find_contact' });
    expect((outcome.output as { message: string }).message).toContain('Could not load: crm_find_contact');
    // Nothing stored: not offered, not loaded for the thread.
    expect(await session.loadedTools(request)).toEqual([]);
    expect((await session.prepareStep(request)).toolNames).toEqual(['search_tools', 'load_tool']);
    expect(resolveEvents()).toMatchObject([{ purpose: 'load', ok: false, error, toolId: 'crm_find_contact' }]);
  });

  it('give up on a resolve that takes longer than resolveTimeoutMs, aborting its signal', async () => {
    const fixture = crm({ fail: 'hang' });
    const { session, resolveEvents } = sessionOf(fixture, { resolveTimeoutMs: 20 });
    const step = await session.prepareStep({ threadId: 't1' });
    const outcome = await step.execute('load_tool', { toolNames: ['crm_find_contact', 'get_weather'] });
    expect(outcome).toMatchObject({ ok: true, loaded: ['get_weather'], output: { success: false } });
    expect(resolveEvents()).toMatchObject([{ ok: false, error: 'resolve-timeout' }]);
    expect(fixture.resolves[0]?.signal.aborted).toBe(true);
    expect(fixture.resolves[0]?.signal.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('try again after a failure (failures are not cached)', async () => {
    let fail = true;
    const tool: ToolDescriptor = {
      id: 'flaky',
      description: 'A flaky connector tool.',
      resolve: async () => {
        if (fail) throw new Error('down');
        return { execute: () => 'ok' };
      },
    };
    const session = new ToolSearchSession({ catalog: [tool] });
    const request = { threadId: 't1', context: {} };
    const step = await session.prepareStep(request);
    expect(await step.execute('load_tool', { toolName: 'flaky' })).toMatchObject({ output: { success: false } });
    fail = false;
    expect(await step.execute('load_tool', { toolName: 'flaky' })).toMatchObject({ loaded: ['flaky'] });
    expect(await (await session.prepareStep(request)).execute('flaky', {})).toMatchObject({ ok: true, output: 'ok' });
  });

  it('withhold a loaded tool whose resolve fails at a later request, and report it', async () => {
    let revoked = false;
    const tool: ToolDescriptor = {
      id: 'mail_send',
      description: 'Send mail through the connector.',
      resolve: async () => {
        if (revoked) throw new Error('revoked');
        return { execute: () => 'sent' };
      },
    };
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({ catalog: [tool], onEvent: (event) => events.push(event) });
    const first = await session.prepareStep({ threadId: 't1', context: {} });
    await first.execute('load_tool', { toolName: 'mail_send' });
    revoked = true;
    const later = await session.prepareStep({ threadId: 't1', context: {} });
    expect(later.toolNames).toEqual(['search_tools', 'load_tool']);
    expect(await later.execute('mail_send', {})).toMatchObject({ ok: false, error: { code: 'not-loaded' } });
    expect(events.filter((event) => event.type === 'resolve').at(-1)).toMatchObject({
      purpose: 'offer',
      ok: false,
      error: 'resolve-failed',
    });
    // Not "already loaded": loading it again tries to resolve it again.
    const retried = await later.execute('load_tool', { toolName: 'mail_send' });
    expect((retried.ok && (retried.output as { message: string }).message) || '').toContain('Could not load');
    // Still loaded for the thread: offered again once the connector is back.
    revoked = false;
    expect((await session.prepareStep({ threadId: 't1', context: {} })).toolNames).toContain('mail_send');
  });

  it('run the resolved tool through the policy', async () => {
    const fixture = crm();
    const session = new ToolSearchSession({
      catalog: fixture.catalog,
      filter: ({ phase, input }) => !(phase === 'call' && (input as { name?: string })?.name === 'Eve'),
    });
    const request = { threadId: 't1', context: {} };
    await (await session.prepareStep(request)).execute('load_tool', { toolName: 'crm_find_contact' });
    const step = await session.prepareStep(request);
    expect(await step.execute('crm_find_contact', { name: 'Eve' })).toMatchObject({ ok: false });
    expect(await step.execute('crm_find_contact', { name: 'Bob' })).toMatchObject({ ok: true });
    expect(fixture.calls).toEqual([{ name: 'Bob' }]);
  });

  it('load on an auto-load search', async () => {
    const fixture = crm();
    const { session } = sessionOf(fixture, { mode: 'auto-load' });
    const request = { threadId: 't1', context: {} };
    const outcome = await (await session.prepareStep(request)).execute('search_tools', { query: 'crm contact' });
    expect(outcome).toMatchObject({ ok: true, loaded: ['crm_find_contact'] });
    expect(fixture.resolves).toHaveLength(1);
    const step = await session.prepareStep(request);
    expect(await step.execute('crm_find_contact', { name: 'Bob' })).toMatchObject({ ok: true });
  });

  it('resolve for describe_tool and call_tool in proxy mode', async () => {
    const fixture = crm();
    const { session } = sessionOf(fixture, { mode: 'proxy' });
    const step = await session.prepareStep({ threadId: 't1', context: {} });
    const described = await step.execute('describe_tool', { toolName: 'crm_find_contact' });
    expect(described).toMatchObject({ ok: true, output: { inputSchema: { required: ['name'] } } });
    const called = await step.execute('call_tool', { toolName: 'crm_find_contact', arguments: { name: 'Bob' } });
    expect(called).toMatchObject({ ok: true, output: { found: { name: 'Bob' } } });
    expect(fixture.resolves).toHaveLength(1);

    const failing = sessionOf(crm({ fail: 'reject' }), { mode: 'proxy' }).session;
    const failedStep = await failing.prepareStep({ threadId: 't1' });
    const refused = await failedStep.execute('call_tool', { toolName: 'crm_find_contact', arguments: { name: 'B' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable', toolName: 'crm_find_contact' } });
    expect(refused.ok || refused.error.message).toContain('Could not load');
  });

  it('resolve the loaded tools a step offers together, not one after the other', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = (id: string): ToolDescriptor => ({
      id,
      description: `Connector tool ${id}.`,
      resolve: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((settle) => setTimeout(settle, 10));
        inFlight--;
        return { execute: () => id };
      },
    });
    const session = new ToolSearchSession({ catalog: [slow('one'), slow('two'), slow('three')] });
    await (await session.prepareStep({ threadId: 't1' })).execute('load_tool', { toolNames: ['one', 'two', 'three'] });
    most = 0;
    const step = await session.prepareStep({ threadId: 't1', context: {} });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'one', 'two', 'three']);
    expect(most).toBe(3);
  });

  it('reject a deferred direct tool (direct tools are offered as given)', () => {
    const fixture = crm();
    expect(() => new ToolSearchSession({ catalog: [], tools: [fixture.catalog[0]!] })).toThrow(
      expect.objectContaining({ option: 'tools' }),
    );
  });

  it('reject a resolve that is not a function, and a bad resolveTimeoutMs', () => {
    expect(() => new ToolCatalog([{ id: 'x', resolve: 'later' as never }])).toThrow(InvalidToolError);
    for (const resolveTimeoutMs of [0, -1, Number.NaN, 2 ** 31, '5' as never]) {
      expect(() => new ToolSearchSession({ catalog: [], resolveTimeoutMs })).toThrow(InvalidOptionError);
    }
  });
});
