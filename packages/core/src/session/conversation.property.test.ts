// Property tests of the 'conversation' state: whatever messages a client sends (wrong types, junk,
// forged load results, `__proto__` keys, floods of loads), the loaded tools derived from them are the
// ones a reference model says, capped like the in-memory store, or a typed error; never a crash, and
// never a change to Object.prototype.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { DEFAULT_MAX_TOOLS_PER_THREAD } from '../stores/loaded-tool-store.js';
import { type ConversationEntry, loadedNamesFromConversation } from './conversation.js';

const TOOLS = { load: 'load_tool', autoLoadSearch: undefined, discover: 'discover_tools' };
const RUNS = { numRuns: 150 };

/** One generated message, with the names a load-recording result adds (undefined: it records nothing). */
interface Generated {
  entry: unknown;
  names?: string[];
}

/** What the conversation strategy must derive: each recording result is one add to a capped store. */
function model(generated: readonly Generated[], max: number): string[] {
  const loaded: string[] = [];
  const seen = new Set<string>();
  for (const { names } of generated) {
    if (!names) continue;
    const fresh = [...new Set(names.filter((name) => !seen.has(name)))];
    if (loaded.length + fresh.length > max) continue; // refused whole, like InMemoryLoadedToolStore.add
    for (const name of fresh) {
      seen.add(name);
      loaded.push(name);
    }
  }
  return loaded;
}

// Names that collide often, including the keys of Object.prototype.
const name = fc.oneof(
  fc.constantFrom('get_weather', 'send_email', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''),
  fc.string({ maxLength: 6 }),
);
const notAString = fc.anything().filter((value) => typeof value !== 'string');
/** A `loaded` list as a forger writes it: names mixed with anything else, which must be ignored. */
const forgedList = fc.array(fc.oneof({ weight: 3, arbitrary: name }, { weight: 1, arbitrary: notAString }), {
  maxLength: 6,
});
const strings = (list: readonly unknown[]): string[] => list.filter((item): item is string => typeof item === 'string');

/** The shapes frameworks store a tool result in; every one must be read the same. */
const wrappings: ((output: object) => unknown)[] = [
  (output) => output,
  (output) => JSON.stringify(output),
  (output) => ({ type: 'json', value: output }),
  (output) => ({ type: 'text', value: JSON.stringify(output) }),
  (output) => ({ content: [{ type: 'text', text: JSON.stringify(output) }] }),
  (output) => ({ structuredContent: output, content: [] }),
];
const wrapping = fc.constantFrom(...wrappings);

const result = (toolName: unknown, output: unknown) => ({ type: 'tool-result', toolName, output });

/** A result of load_tool or the discovery tool: its string names count, once each, in order. */
const loadResult: fc.Arbitrary<Generated> = fc
  .record({
    tool: fc.constantFrom(TOOLS.load, TOOLS.discover),
    loaded: forgedList,
    alreadyLoaded: fc.option(forgedList, { nil: undefined }),
    wrap: wrapping,
    // Other fields a result may have (not the wrapper fields `type` and `value`).
    extra: fc.dictionary(
      fc.string({ maxLength: 5 }).filter((key) => key !== 'type' && key !== 'value'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 3 },
    ),
  })
  .map(({ tool, loaded, alreadyLoaded, wrap, extra }) => {
    const output: Record<string, unknown> = { ...extra, loaded };
    if (alreadyLoaded) output.alreadyLoaded = alreadyLoaded;
    else delete output.alreadyLoaded;
    // JSON text loses what JSON cannot hold (undefined, functions...): the model reads what survives.
    const survives = (list: unknown[]) => strings(list);
    return {
      entry: result(tool, wrap(output)),
      names: [...survives(loaded), ...survives(alreadyLoaded ?? [])],
    };
  });

/** Messages that must never count as loads. */
const noLoad: fc.Arbitrary<Generated> = fc.oneof(
  // A plain search result, even one that claims to have loaded tools.
  forgedList.map((loaded) => ({ entry: result('search_tools', { results: [], loaded, alreadyLoaded: loaded }) })),
  // Calls, not results.
  forgedList.map((loaded) => ({ entry: { type: 'tool-call', toolName: 'load_tool', input: { toolNames: loaded } } })),
  // A load result that failed, or holds junk instead of lists.
  fc
    .oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(name),
      fc.record({ loaded: fc.anything().filter((value) => !Array.isArray(value)) }),
    )
    .map((output) => ({ entry: result('load_tool', output) })),
  // `loaded` inherited through a prototype, or under an own `__proto__` key of parsed JSON.
  forgedList.map((loaded) => ({ entry: result('load_tool', Object.create({ loaded })) })),
  forgedList.map((loaded) => ({
    entry: result('load_tool', JSON.parse(`{"__proto__":{"loaded":${JSON.stringify(strings(loaded))}}}`)),
  })),
  // A tool name that is not a string, or a type that is not a result.
  forgedList.map((loaded) => ({ entry: result(['load_tool'], { loaded }) })),
  forgedList.map((loaded) => ({ entry: { type: 'tool-results', toolName: 'load_tool', output: { loaded } } })),
  // Anything at all in the array: null, numbers, arrays, objects.
  fc
    .anything()
    .filter((value) => (value as { type?: unknown } | null)?.type !== 'tool-result')
    .map((entry) => ({ entry })),
);

const conversation = fc.array(fc.oneof(loadResult, noLoad), { maxLength: 40 });

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();
const originalPrototypeKeys = prototypeKeys();

afterEach(() => {
  expect(prototypeKeys()).toEqual(originalPrototypeKeys);
  expect(({} as Record<string, unknown>).loaded).toBeUndefined();
});

describe('loadedNamesFromConversation (properties)', () => {
  it('derives exactly the loads of the recording results still present, capped like the memory store', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 1, max: 12 }), (generated, max) => {
        const entries = generated.map((g) => g.entry) as ConversationEntry[];
        expect(loadedNamesFromConversation(entries, TOOLS, max)).toEqual(model(generated, max));
      }),
      RUNS,
    );
  });

  it('caps at 256 by default (DEFAULT_MAX_TOOLS_PER_THREAD) under thousands of loads', () => {
    const freshLoad = fc
      .array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 })
      .map((names) => ({ entry: result('load_tool', { loaded: names }), names }));
    fc.assert(
      fc.property(fc.array(fc.oneof(freshLoad, noLoad), { minLength: 200, maxLength: 1500 }), (generated) => {
        const entries = generated.map((g) => g.entry) as ConversationEntry[];
        const loaded = loadedNamesFromConversation(entries, TOOLS);
        expect(loaded.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOLS_PER_THREAD);
        expect(loaded).toEqual(model(generated, DEFAULT_MAX_TOOLS_PER_THREAD));
      }),
      { numRuns: 15 },
    );
  });

  it('counts a search result as a load only in auto-load mode', () => {
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 4 }), { maxLength: 10 }), (lists) => {
        const entries = lists.map((loaded) => result('search_tools', { results: [], loaded })) as ConversationEntry[];
        expect(loadedNamesFromConversation(entries, TOOLS)).toEqual([]);
        const autoLoad = { ...TOOLS, autoLoadSearch: 'search_tools' };
        const expected = model(
          lists.map((names) => ({ entry: undefined, names })),
          DEFAULT_MAX_TOOLS_PER_THREAD,
        );
        expect(loadedNamesFromConversation(entries, autoLoad)).toEqual(expected);
      }),
      RUNS,
    );
  });

  it('gives a list of distinct strings for any array, and a typed error for anything that is not an array', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.array(fc.anything())), (value) => {
        let loaded: unknown;
        try {
          loaded = loadedNamesFromConversation(value as ConversationEntry[], TOOLS);
        } catch (error) {
          expect(Array.isArray(value) || value === undefined).toBe(false);
          expect(InvalidArgumentError.isInstance(error)).toBe(true);
          expect(error).toMatchObject({ code: 'invalid-argument', argument: 'conversation' });
          expect((error as Error).message).toMatch(/conversation must be an array/);
          return;
        }
        expect(Array.isArray(value) || value === undefined).toBe(true);
        expect(Array.isArray(loaded)).toBe(true);
        const names = loaded as unknown[];
        expect(names.every((item) => typeof item === 'string')).toBe(true);
        expect(new Set(names).size).toBe(names.length);
        expect(names.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOLS_PER_THREAD);
      }),
      RUNS,
    );
  });
});

describe('loadedNamesFromConversation (hostile sizes)', () => {
  it('stays linear and capped on huge arrays: a million names, 100,000 results', () => {
    const started = performance.now();
    const huge = [
      result('load_tool', { loaded: Array.from({ length: 1_000_000 }, (_, i) => `flood_${i}`) }),
      ...Array.from({ length: 100_000 }, (_, i) => result('load_tool', { loaded: [`t${i}`] })),
    ] as ConversationEntry[];
    const loaded = loadedNamesFromConversation(huge, TOOLS);
    expect(loaded).toEqual(Array.from({ length: 256 }, (_, i) => `t${i}`));
    // A blow-up guard, not a speed claim: linear work here takes well under a second.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('reads deeply nested JSON text without a stack overflow', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const nestedObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const entries = [
      result('load_tool', deep),
      result('load_tool', nestedObject),
      result('load_tool', { loaded: ['ok'] }),
    ] as ConversationEntry[];
    expect(loadedNamesFromConversation(entries, TOOLS)).toEqual(['ok']);
  });

  it('rejects a conversation that is not an array, naming what it got', () => {
    for (const value of [{}, 'load_tool', 42, null, new Map()]) {
      const error = (() => {
        try {
          loadedNamesFromConversation(value as unknown as ConversationEntry[], TOOLS);
        } catch (e) {
          return e;
        }
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/^The conversation must be an array of tool calls and results/);
    }
    expect(loadedNamesFromConversation(undefined, TOOLS)).toEqual([]);
  });
});
