import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import type { LoadedToolStore } from '../stores/loaded-tool-store.js';
import { thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import type { ConversationEntry } from './conversation.js';
import type { PolicyRequest } from './policy.js';
import type { PreselectOptions } from './preselect-options.js';
import type { LoadedStateStrategy } from './session-options.js';
import type { PreselectEvent, ToolSearchEvent } from './telemetry.js';
import { ToolSearchSession } from './tool-search-session.js';

const META = ['search_tools', 'load_tool'];

function catalog(): ToolDescriptor[] {
  return [
    { id: 'get_weather', description: 'Get the current weather forecast for a city.', execute: () => 'sunny' },
    { id: 'send_email', description: 'Send an email message to a recipient.', execute: () => 'sent' },
    { id: 'create_issue', description: 'Create a GitHub issue in a repository.', execute: () => 'created' },
    { id: 'translate_text', description: 'Translate text into another language.', execute: () => 'hola' },
  ];
}

const user = (text: string): ConversationEntry => ({ type: 'user-message', text });
const loadCall = (id: string, name: string): ConversationEntry[] => [
  { type: 'tool-call', toolCallId: id, toolName: 'load_tool', input: { toolName: name } },
  { type: 'tool-result', toolCallId: id, toolName: 'load_tool', output: { loaded: [name], alreadyLoaded: [] } },
];

/** A session with preselect, the events it emitted, and its `preselect` events alone. */
function sessionWith(
  preselect: boolean | PreselectOptions = true,
  options: { state?: LoadedStateStrategy; filter?: (request: PolicyRequest) => boolean } = {},
) {
  const events: ToolSearchEvent[] = [];
  const session = new ToolSearchSession({ catalog: catalog(), preselect, onEvent: (e) => events.push(e), ...options });
  const preselections = () => events.filter((event): event is PreselectEvent => event.type === 'preselect');
  return { session, events, preselections };
}

describe('preselect', () => {
  it('is off by default: a user message preselects nothing', async () => {
    const session = new ToolSearchSession({ catalog: catalog() });
    const step = await session.prepareStep({ threadId: 't', conversation: [user('weather forecast in Paris')] });
    expect(step.toolNames).toEqual(META);
  });

  for (const state of ['memory', 'conversation'] as const) {
    describe(`under the ${state} strategy`, () => {
      it('offers the confident hits of the latest user message at its first step, meta-tools kept, marked preselected', async () => {
        const { session, preselections } = sessionWith(true, { state });
        const step = await session.prepareStep({
          threadId: 't',
          conversation: [user('what is the weather forecast for Paris?')],
        });
        expect(step.toolNames).toEqual([...META, 'get_weather']);
        expect(step.tools.at(-1)).toMatchObject({ kind: 'loaded', name: 'get_weather', preselected: true });
        expect(step.loadedIds).toEqual(['get_weather']);
        expect(preselections()).toEqual([
          expect.objectContaining({ type: 'preselect', source: 'search', toolIds: ['get_weather'], threadId: 't' }),
        ]);
        // It behaves as a loaded tool: a load answers "already loaded", a call runs.
        expect(await step.execute('load_tool', { toolName: 'get_weather' })).toMatchObject({
          ok: true,
          output: { success: true, toolName: 'get_weather', message: expect.stringContaining('already loaded') },
        });
        expect(await step.execute('get_weather', {})).toMatchObject({ ok: true, output: 'sunny' });
      });

      it('runs once per user message: the later steps of the turn reuse it, and a load comes after it', async () => {
        const { session, preselections } = sessionWith(true, { state });
        const conversation: ConversationEntry[] = [user('weather forecast for Paris')];
        await session.prepareStep({ threadId: 't', conversation });
        const step = await session.prepareStep({ threadId: 't', conversation });
        await step.execute('load_tool', { toolName: 'send_email' });
        conversation.push(...loadCall('c1', 'send_email'));
        const next = await session.prepareStep({ threadId: 't', conversation });
        expect(next.toolNames).toEqual([...META, 'get_weather', 'send_email']);
        expect(next.tools.find((tool) => tool.name === 'send_email')?.preselected).toBeUndefined();
        expect(preselections()).toHaveLength(1);
      });

      it('is additive across turns, in the order things happened (append-only)', async () => {
        const { session, preselections } = sessionWith(true, { state });
        const conversation: ConversationEntry[] = [
          user('weather forecast for Paris'),
          ...loadCall('c1', 'create_issue'),
        ];
        await session.prepareStep({ threadId: 't', conversation: conversation.slice(0, 1) });
        await (await session.prepareStep({ threadId: 't', conversation: conversation.slice(0, 1) })).execute(
          'load_tool',
          { toolName: 'create_issue' },
        );
        conversation.push(user('now send an email message to Bob'));
        const step = await session.prepareStep({ threadId: 't', conversation });
        expect(step.toolNames).toEqual([...META, 'get_weather', 'create_issue', 'send_email']);
        expect(step.tools.filter((tool) => tool.preselected).map((tool) => tool.name)).toEqual([
          'get_weather',
          'send_email',
        ]);
        expect(preselections().map((event) => event.toolIds)).toEqual([['get_weather'], ['send_email']]);
      });

      it('respects the policy: a tool hidden from search or from loading is not preselected', async () => {
        for (const phase of ['search', 'load'] as const) {
          const filter = (request: PolicyRequest) => !(request.phase === phase && request.toolId === 'get_weather');
          const { session, events } = sessionWith(true, { state, filter });
          const step = await session.prepareStep({ threadId: 't', conversation: [user('weather forecast for Paris')] });
          expect(step.toolNames, phase).toEqual(META);
          expect(events, phase).toContainEqual(
            expect.objectContaining({ type: 'blocked', toolId: 'get_weather', phase }),
          );
        }
      });
    });
  }

  it('works in auto-load and catalog mode too (a preselected tool counts as discovered)', async () => {
    const auto = new ToolSearchSession({ catalog: catalog(), mode: 'auto-load', preselect: true });
    const autoStep = await auto.prepareStep({ threadId: 't', conversation: [user('weather forecast for Paris')] });
    expect(autoStep.toolNames).toEqual(['search_tools', 'get_weather']);
    const lazy = new ToolSearchSession({ catalog: catalog(), mode: 'catalog', preselect: true });
    const lazyStep = await lazy.prepareStep({ threadId: 't', conversation: [user('weather forecast for Paris')] });
    expect(lazyStep.toolNames).toEqual(['discover_tools', 'get_weather']);
    expect(await lazyStep.execute('discover_tools', { toolNames: ['get_weather'] })).toMatchObject({
      ok: true,
      output: { alreadyLoaded: ['get_weather'] },
    });
  });

  it('under the conversation strategy, survives a restart: derived from the user messages again', async () => {
    const conversation = [user('weather forecast for Paris'), ...loadCall('c1', 'send_email'), user('translate text')];
    const first = sessionWith(true, { state: 'conversation' });
    const before = await first.session.prepareStep({ threadId: 't', conversation });
    const restarted = sessionWith(true, { state: 'conversation' });
    const after = await restarted.session.prepareStep({ threadId: 't', conversation });
    expect(after.toolNames).toEqual(before.toolNames);
    expect(after.toolNames).toEqual([...META, 'get_weather', 'send_email', 'translate_text']);
  });

  it('marks a tool whose id is not its model-facing name as preselected, in every strategy', async () => {
    const tools = [{ id: 'crm contacts.lookup', description: 'Look up a contact in the CRM address book.' }];
    for (const state of ['memory', 'conversation'] as const) {
      const session = new ToolSearchSession({ catalog: tools, preselect: true, state });
      const step = await session.prepareStep({ threadId: 't', conversation: [user('look up a CRM contact')] });
      const offered = step.tools.at(-1);
      expect(offered?.name, state).not.toBe('crm contacts.lookup');
      expect(offered, state).toMatchObject({ kind: 'loaded', preselected: true, tool: { id: 'crm contacts.lookup' } });
    }
    // A host that kept it by id already: offered once, as the host's load.
    const session = new ToolSearchSession({ catalog: tools, preselect: true });
    const step = await session.prepareStep({
      threadId: 't',
      loaded: ['crm contacts.lookup'],
      conversation: [user('look up a CRM contact')],
    });
    expect(step.loadedIds).toEqual(['crm contacts.lookup']);
    expect(step.tools.at(-1)?.preselected).toBeUndefined();
  });

  it('a request without a thread id preselects from its own conversation', async () => {
    const { session } = sessionWith(true);
    const step = await session.prepareStep({ conversation: [user('weather forecast for Paris')] });
    expect(step.toolNames).toEqual([...META, 'get_weather']);
    expect((await session.prepareStep({ conversation: [] })).toolNames).toEqual(META);
  });

  it('a host that keeps loaded tools gets the preselections after its own list', async () => {
    const { session } = sessionWith(true);
    const step = await session.prepareStep({
      threadId: 't',
      loaded: ['create_issue'],
      conversation: [user('weather forecast for Paris')],
    });
    expect(step.toolNames).toEqual([...META, 'create_issue', 'get_weather']);
  });

  it('offers at most `limit` hits scoring at least `minScore`', async () => {
    const message = [user('weather forecast, send an email message, translate text')];
    const wide = sessionWith({ minScore: 0, limit: 2 });
    expect((await wide.session.prepareStep({ threadId: 't', conversation: message })).loadedIds).toHaveLength(2);
    const strict = sessionWith({ minScore: 1 });
    expect((await strict.session.prepareStep({ threadId: 't', conversation: message })).toolNames).toEqual(META);
  });

  it('a host selector replaces the search: unknown ids are ignored and reported, never thrown', async () => {
    const calls: { message: string; threadId?: string; context: unknown }[] = [];
    const { session, preselections } = sessionWith({
      select: async (message, context) => {
        calls.push({ message, threadId: context.threadId, context: context.context });
        const found = await context.search('translate');
        return ['nope', found[0]!.tool.id, 'create_issue', 'send_email'];
      },
      limit: 2,
    });
    const conversation = [user('help me')];
    const step = await session.prepareStep({ threadId: 't', context: { tenant: 'a' }, conversation });
    await session.prepareStep({ threadId: 't', context: { tenant: 'a' }, conversation });
    expect(step.toolNames).toEqual([...META, 'translate_text', 'create_issue']);
    expect(calls).toEqual([{ message: 'help me', threadId: 't', context: { tenant: 'a' } }]);
    expect(preselections()).toEqual([
      expect.objectContaining({ source: 'select', toolIds: ['translate_text', 'create_issue'], unknown: ['nope'] }),
    ]);
  });

  it('a host selector is asked once per message under the conversation strategy too', async () => {
    let asked = 0;
    const select = () => {
      asked++;
      return ['get_weather'];
    };
    const { session } = sessionWith({ select }, { state: 'conversation' });
    const conversation: ConversationEntry[] = [user('hi')];
    for (let step = 0; step < 3; step++) await session.prepareStep({ threadId: 't', conversation });
    conversation.push(user('hi again'));
    await session.prepareStep({ threadId: 't', conversation });
    expect(asked).toBe(2);
  });

  it('fails open: a selector that throws, rejects, times out or answers nonsense preselects nothing', async () => {
    let aborted: unknown;
    const selectors: [PreselectOptions['select'], PreselectEvent['failed']][] = [
      [
        () => {
          throw new Error('classifier down');
        },
        'error',
      ],
      [() => Promise.reject(new Error('classifier down')), 'error'],
      [
        (_message, { signal }) =>
          new Promise<string[]>(() => {
            signal.addEventListener('abort', () => {
              aborted = signal.reason;
            });
          }),
        'timeout',
      ],
      [() => 'get_weather' as never, 'error'],
    ];
    for (const [select, failed] of selectors) {
      const { session, preselections } = sessionWith({ select, timeoutMs: 20 });
      const step = await session.prepareStep({ threadId: 't', conversation: [user('weather forecast')] });
      expect(step.toolNames).toEqual(META);
      expect(preselections()).toEqual([expect.objectContaining({ toolIds: [], failed })]);
      expect(await step.execute('search_tools', { query: 'weather' })).toMatchObject({ ok: true });
    }
    expect(aborted).toBeInstanceOf(Error);
  });

  it("a store that fails while recording a preselection fails that step, and the thread's next step tries again", async () => {
    const store = new InMemoryLoadedToolStore();
    let failures = 1;
    const failing: LoadedToolStore = {
      get: (key) => store.get(key),
      add: async (key, ids) => {
        if (failures-- > 0) throw new Error('store down');
        return store.add(key, ids);
      },
      remove: (key, ids) => store.remove(key, ids),
      clear: (key) => store.clear(key),
      clearAll: () => store.clearAll(),
    };
    const session = new ToolSearchSession({ catalog: catalog(), preselect: true, state: failing });
    const conversation = [user('weather forecast for Paris')];
    await expect(session.prepareStep({ threadId: 't', conversation })).rejects.toThrow('store down');
    expect((await session.prepareStep({ threadId: 't', conversation })).toolNames).toEqual([...META, 'get_weather']);
    store.dispose();
  });

  it('clearState forgets the thread: its next step preselects again', async () => {
    const { session, preselections } = sessionWith(true);
    const conversation = [user('weather forecast for Paris')];
    await session.prepareStep({ threadId: 't', conversation });
    await session.clearState('t');
    expect((await session.prepareStep({ threadId: 't', conversation })).toolNames).toEqual([...META, 'get_weather']);
    expect(preselections()).toHaveLength(2);
  });

  it('reads user messages leniently: blank or non-string text is no message', async () => {
    const { session, preselections } = sessionWith(true);
    const odd = [{ type: 'user-message', text: '   ' }, { type: 'user-message', text: 42 }, { type: 'user-message' }];
    const step = await session.prepareStep({ threadId: 't', conversation: odd as never });
    expect(step.toolNames).toEqual(META);
    expect(preselections()).toEqual([]);
  });

  it('rejects a bad preselect option with an InvalidOptionError naming it', () => {
    const cases: [unknown, string][] = [
      ['yes', 'preselect'],
      [{ limit: 0 }, 'preselect.limit'],
      [{ limit: 1.5 }, 'preselect.limit'],
      [{ minScore: 2 }, 'preselect.minScore'],
      [{ select: 'classifier' }, 'preselect.select'],
      [{ timeoutMs: 0 }, 'preselect.timeoutMs'],
    ];
    for (const [preselect, option] of cases) {
      const error = thrown(() => new ToolSearchSession({ catalog: catalog(), preselect: preselect as never }));
      expect(InvalidOptionError.isInstance(error), option).toBe(true);
      expect((error as InvalidOptionError).option).toBe(option);
    }
    // proxy mode never offers catalog tools: preselect there is a mistake, said at once
    for (const preselect of [true, { limit: 1 }]) {
      const error = thrown(() => new ToolSearchSession({ catalog: catalog(), mode: 'proxy', preselect }));
      expect((error as Error).message).toContain('proxy mode');
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionError).option).toBe('preselect');
    }
  });
});
