import { describe, expect, it } from 'vitest';
import { ToolCatalog } from './catalog/catalog.js';
import { toToolName } from './catalog/tool-name.js';
import * as errors from './errors-entry.js';
import { ToolIndex } from './index/tool-index.js';
import { VectorIndex } from './index/vector-index.js';
import { resolveMetaTools } from './session/meta-tools.js';
import { ToolSearchSession } from './session/tool-search-session.js';
import { InMemoryLoadedToolStore } from './stores/in-memory-store.js';
import { KeyValueLoadedToolStore } from './stores/key-value-store.js';
import { rejection, thrown } from './test-utils/thrown.js';

const weather = { id: 'get_weather', description: 'Current weather for a city' };

/** One instance of every core error class, with the fields it must carry. */
const instances: [errors.ToolscoutErrorCode, errors.ToolscoutError, Record<string, unknown>][] = [
  [
    'duplicate-tool',
    new errors.DuplicateToolError('a', 'mcp', 'openai'),
    { toolId: 'a', existingSource: 'mcp', newSource: 'openai' },
  ],
  ['unknown-tool', new errors.UnknownToolError('a'), { toolId: 'a' }],
  ['invalid-tool', new errors.InvalidToolError('Tool "a": bad', 'id'), { field: 'id' }],
  [
    'tool-name-conflict',
    new errors.ToolNameConflictError('a_b', 'a.b', 'a_b'),
    { toolName: 'a_b', toolId: 'a.b', existingToolId: 'a_b' },
  ],
  ['import', new errors.ImportError('bad', { file: 'f.json', line: 2 }), { location: { file: 'f.json', line: 2 } }],
  ['missing-dependency', new errors.MissingDependencyError(['x'], 'Feature'), { packageNames: ['x'] }],
  ['invalid-option', new errors.InvalidOptionError('limit', 'limit must be >= 0'), { option: 'limit' }],
  [
    'invalid-argument',
    new errors.InvalidArgumentError('messages', 'messages must be an array, got a string'),
    { argument: 'messages' },
  ],
  ['store-data', new errors.StoreDataError('k', 'not JSON'), { key: 'k' }],
  [
    'tool-limit',
    new errors.ToolLimitError('t', 2, 2, ['c']),
    { threadKey: 't', limit: 2, loadedCount: 2, requestedIds: ['c'] },
  ],
  [
    'store-unavailable',
    new errors.StoreUnavailableError('redis store', 'GET "k"', 'timed out'),
    { store: 'redis store', operation: 'GET "k"', reason: 'timed out' },
  ],
  ['policy-timeout', new errors.PolicyTimeoutError('a', 'search', 50), { toolId: 'a', phase: 'search', timeoutMs: 50 }],
  ['unsupported', new errors.UnsupportedOperationError('clearAll', 'no deletePrefix'), { operation: 'clearAll' }],
  ['index-disposed', new errors.IndexDisposedError(), {}],
  ['session-disposed', new errors.SessionDisposedError('prepare a step'), { operation: 'prepare a step' }],
  ['invalid-index', new errors.InvalidIndexError('not JSON'), {}],
  ['index-mismatch', new errors.IndexMismatchError('tool "a" changed', 'a'), { toolId: 'a' }],
  ['embedder-output', new errors.EmbedderOutputError('e5', 'returned 0 vectors'), { embedderId: 'e5' }],
  ['sandbox-unavailable', new errors.SandboxUnavailableError('quickjs', new Error('no wasm')), { sandbox: 'quickjs' }],
  [
    'source-unavailable',
    new errors.SourceUnavailableError('db', 'failed to start: refused', 'it will not be restarted'),
    { source: 'db', statusReason: 'failed to start: refused', retryHint: 'it will not be restarted' },
  ],
  [
    'invalid-cursor',
    new errors.InvalidCursorError('prompts', 'out-of-range', 'out of range'),
    { list: 'prompts', problem: 'out-of-range', reason: 'out of range' },
  ],
  ['subscription-limit', new errors.SubscriptionLimitError(1000), { limit: 1000 }],
  [
    'tool-call-not-loaded',
    new errors.ToolCallFailedError({
      code: 'not-loaded',
      toolName: 'a',
      message: 'Tool "a" is not loaded.',
      suggestions: ['a'],
    }),
    { reason: 'not-loaded', toolName: 'a', suggestions: ['a'], issues: [] },
  ],
];

/** Every class by name, as exported. */
const classes = Object.entries(errors).filter(
  (entry): entry is [string, typeof errors.ToolscoutError] =>
    typeof entry[1] === 'function' &&
    (entry[1] === errors.ToolscoutError || entry[1].prototype instanceof errors.ToolscoutError),
);

/** What a copy of `error` from another installed copy of the package looks like: its markers, its own fields. */
function fromAnotherCopy(error: errors.ToolscoutError): object {
  const copy: Record<string | symbol, unknown> = { ...error, message: error.message, name: error.name };
  for (const symbol of Object.getOwnPropertySymbols(error)) copy[Symbol.for(String(symbol.description))] = true;
  return copy;
}

describe('error classes', () => {
  it('there is one class per core code, and every class is in this table', () => {
    const codes = instances.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    const tested = new Set(instances.map(([, error]) => error.name));
    expect(classes.map(([name]) => name).filter((name) => name !== 'ToolscoutError' && !tested.has(name))).toEqual([]);
  });

  it.each(instances)('%s: code, name and fields are set', (code, error, fields) => {
    expect(error.code).toBe(code);
    expect(error.name).toBe(error.constructor.name);
    expect(error).toMatchObject(fields);
    expect(error.message).not.toMatch(/undefined|\[object Object\]/);
  });

  it.each(instances)('%s: isInstance is true for its instances and their copies, false for others', (code, error) => {
    const own = error.constructor as typeof errors.ToolscoutError;
    expect(own.isInstance(error)).toBe(true);
    expect(own.isInstance(fromAnotherCopy(error))).toBe(true);
    expect(errors.ToolscoutError.isInstance(error)).toBe(true);
    expect(errors.ToolscoutError.isInstance(fromAnotherCopy(error))).toBe(true);
    // A base instance with the same code lacks the subclass's fields: it is not one.
    expect(own.isInstance(new errors.ToolscoutError(code, 'a base instance'))).toBe(false);
    for (const [name, other] of classes) {
      if (other !== own && other !== errors.ToolscoutError) expect(other.isInstance(error), name).toBe(false);
    }
  });

  it('isInstance is false for plain errors, look-alikes and non-objects', () => {
    const lookAlike = Object.assign(new Error('x'), { code: 'duplicate-tool', toolId: 'a' });
    for (const value of [
      lookAlike,
      new TypeError('x'),
      { code: 'invalid-option' },
      null,
      undefined,
      'duplicate-tool',
    ]) {
      expect(errors.ToolscoutError.isInstance(value)).toBe(false);
      expect(errors.DuplicateToolError.isInstance(value)).toBe(false);
    }
  });

  it('the markers are Symbol.for keys named after each class, so two installed copies agree', () => {
    const error = new errors.DuplicateToolError('a', undefined, undefined);
    const markers = Object.getOwnPropertySymbols(error).map((symbol) => Symbol.keyFor(symbol));
    expect(markers.sort()).toEqual(['toolscout.error', 'toolscout.error.DuplicateToolError']);
  });

  it("a subclass of a core class (as an adapter might declare) passes both its own and its parent's check", () => {
    class NarrowOptionError extends errors.InvalidOptionError {
      static override readonly marker = Symbol.for('toolscout.error.test.NarrowOptionError');

      static override isInstance(error: unknown): error is NarrowOptionError {
        return errors.ToolscoutError.isInstance(error) && Object.hasOwn(error, NarrowOptionError.marker);
      }
    }
    const error = new NarrowOptionError('limit', 'limit must be >= 0');
    expect(NarrowOptionError.isInstance(error)).toBe(true);
    expect(errors.InvalidOptionError.isInstance(error)).toBe(true);
    expect(NarrowOptionError.isInstance(new errors.InvalidOptionError('limit', 'x'))).toBe(false);
  });
});

describe('errors at their throw sites', () => {
  it('a session given one id as a direct tool and in the catalog throws a DuplicateToolError with its toolId', () => {
    const error = thrown(() => new ToolSearchSession({ catalog: [weather], tools: [weather] }));
    expect(errors.DuplicateToolError.isInstance(error)).toBe(true);
    expect((error as errors.DuplicateToolError).toolId).toBe('get_weather');
    expect((error as Error).message).toMatch(/both a direct tool/);
  });

  it('session options with a bad catalog, tools, mode, descriptionBudget, state or kind throw InvalidOptionError naming the option', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ mode: 'nope' }, 'mode'],
      [{ filter: 'x' }, 'filter'],
      [{ onEvent: 5 }, 'onEvent'],
      [{ metaTools: 'x' }, 'metaTools'],
      [{ metaTools: [] }, 'metaTools'],
      [{ indexOptions: 5 }, 'indexOptions'],
      [{ memory: 'x' }, 'memory'],
      [{ memory: null }, 'memory'],
      [{ catalogListing: 'bogus' }, 'catalogListing'],
      [{ catalogListing: 3 }, 'catalogListing'],
      [{ descriptionBudget: -1 }, 'descriptionBudget'],
      [{ state: 'redis' }, 'state'],
      [{ tools: [{ id: 'search_tools', description: 'x' }] }, 'metaTools'],
      [{ catalog: 'get_weather' }, 'catalog'],
      [{ catalog: 5 }, 'catalog'],
      [{ catalog: undefined }, 'catalog'],
      [{ catalog: { get_weather: weather } }, 'catalog'],
      [{ tools: 'get_weather' }, 'tools'],
      [{ tools: null }, 'tools'],
    ];
    for (const [options, option] of cases) {
      const error = thrown(() => new ToolSearchSession({ catalog: [weather], ...options } as never));
      expect(errors.InvalidOptionError.isInstance(error), option).toBe(true);
      expect((error as errors.InvalidOptionError).option).toBe(option);
      expect((error as Error).message, option).toContain(option);
    }
  });

  it('a bad meta-tool name throws InvalidOptionError, not TypeError', () => {
    const bad = thrown(() => resolveMetaTools('search-load', { search: { name: 'has space' } }));
    expect(errors.InvalidOptionError.isInstance(bad)).toBe(true);
    expect((bad as errors.InvalidOptionError).option).toBe('metaTools.search.name');
    const twice = thrown(() => resolveMetaTools('search-load', { search: { name: 'x' }, load: { name: 'x' } }));
    expect(errors.InvalidOptionError.isInstance(twice)).toBe(true);
    expect((twice as errors.InvalidOptionError).option).toBe('metaTools');
  });

  it('catalog.subscribe and toToolName refuse bad input with typed errors', () => {
    const catalog = new ToolCatalog([weather]);
    expect(errors.InvalidOptionError.isInstance(thrown(() => catalog.subscribe(42 as never)))).toBe(true);
    const error = thrown(() => toToolName(null as never));
    expect(errors.InvalidToolError.isInstance(error)).toBe(true);
    expect((error as errors.InvalidToolError).field).toBe('id');
  });

  it('a saved index: disposed, damaged, or of another catalog, each throws its own class', () => {
    const catalog = new ToolCatalog([weather]);
    const index = new ToolIndex(catalog);
    const saved = index.toJSON();
    const invalid = thrown(() => ToolIndex.fromJSON(catalog, '{not json'));
    expect(errors.InvalidIndexError.isInstance(invalid)).toBe(true);
    const other = new ToolCatalog([{ id: 'send_mail', description: 'Send an email' }]);
    const mismatch = thrown(() => ToolIndex.fromJSON(other, saved));
    expect(errors.IndexMismatchError.isInstance(mismatch)).toBe(true);
    expect((mismatch as errors.IndexMismatchError).toolId).toBe('send_mail');
    index.dispose();
    expect(errors.IndexDisposedError.isInstance(thrown(() => index.toJSON()))).toBe(true);
  });

  it('a disposed session refuses new steps and searches with SessionDisposedError, instead of answering from a released index', async () => {
    const session = new ToolSearchSession({ catalog: [weather] });
    expect((await session.search('weather')).length).toBeGreaterThan(0);
    session.dispose();
    const step = await rejection(() => session.prepareStep({ threadId: 't' }));
    expect(errors.SessionDisposedError.isInstance(step)).toBe(true);
    expect(step).toMatchObject({ code: 'session-disposed', operation: 'prepare a step' });
    const search = await rejection(() => session.search('weather'));
    expect(errors.SessionDisposedError.isInstance(search)).toBe(true);
    expect(errors.IndexDisposedError.isInstance(search)).toBe(false);
  });

  it('an embedder that returns the wrong number of vectors throws EmbedderOutputError with its id', async () => {
    const vectors = new VectorIndex({ embedder: { id: 'broken', embed: async () => [] } });
    vectors.set('get_weather', 'weather');
    const error = await rejection(() => vectors.search('weather', 5));
    expect(errors.EmbedderOutputError.isInstance(error)).toBe(true);
    expect((error as errors.EmbedderOutputError).embedderId).toBe('broken');
  });

  it('clearAll on a backend without deletePrefix throws UnsupportedOperationError', async () => {
    const backend = { get: async () => undefined, set: async () => {}, delete: async () => {} };
    const store = new KeyValueLoadedToolStore(backend as never);
    const error = await rejection(() => store.clearAll());
    expect(errors.UnsupportedOperationError.isInstance(error)).toBe(true);
    expect((error as errors.UnsupportedOperationError).operation).toBe('clearAll');
    expect(new InMemoryLoadedToolStore()).toBeDefined();
  });
});
