// Property tests of `ToolIndex.fromJSON` under hostile input: arbitrary JSON, and saved indexes with
// random mutations (numbers changed, negated or made NaN, ids swapped, arrays truncated or extended,
// fields removed, types changed, `__proto__` keys). A document either loads to exactly the saved
// index (the mutation changed nothing that counts) or is refused with a typed `invalid-index` or
// `index-mismatch` error saying what is wrong; never a TypeError or RangeError, never a silently
// different index, never a change to Object.prototype. With the integrity hash recomputed after the
// mutation, the structural checks alone must still keep every load from crashing a search.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { ToolscoutError } from '../errors.js';
import { HashEmbedder } from '../test-utils/hash-embedder.js';
import type { ToolDescriptor } from '../types.js';
import { indexIntegrity } from './index-integrity.js';
import type { SerializedToolIndex } from './serialize.js';
import { ToolIndex, type ToolIndexOptions } from './tool-index.js';

const TOOLS: ToolDescriptor[] = [
  {
    id: 'weather__get_forecast',
    name: 'get_forecast',
    description: 'Weather forecast for the next days in a city.\nRain and wind included.',
    tags: ['weather'],
    source: 'weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  },
  { id: 'weather__get_current', name: 'get_current', description: 'Current weather in a city.', source: 'weather' },
  { id: 'mail__send_email', name: 'sendEmail', description: 'Send an email message.', source: 'mail' },
  { id: 'mail__list_inbox', name: 'listInbox', description: 'List the messages in the inbox.', source: 'mail' },
  { id: 'finance__stock_quote', name: 'getStockQuote', description: 'Latest stock price.', tags: ['finance'] },
  { id: 'zh__weather', name: '天气预报', description: '查询城市的天气预报', source: 'zh' },
];
const QUERIES = ['weather forecast city', 'send an email', 'stock', '天气', 'wether', 'list messages inbox'];
const CODES = ['invalid-index', 'index-mismatch'];

/** A catalog, its index after a removal and an addition (gaps in the document numbers), saved. */
function saved(): { catalog: ToolCatalog; index: ToolIndex; json: SerializedToolIndex } {
  const catalog = new ToolCatalog(TOOLS);
  const index = new ToolIndex(catalog);
  catalog.remove('mail__list_inbox');
  catalog.add({ id: 'lang__translate', name: 'translate', description: 'Translate text between languages.' });
  return { catalog, index, json: index.toJSON() };
}

const { catalog, index: original, json: SAVED } = saved();
/** The same catalog's hybrid index (every tool embedded), saved with its vector section. */
const HYBRID_OPTIONS: ToolIndexOptions = { embedder: new HashEmbedder({ dimensions: 8 }) };
const hybrid = new ToolIndex(catalog, HYBRID_OPTIONS);
await hybrid.search('weather');
const HYBRID = hybrid.toJSON();
const HYBRID_RESULTS = await Promise.all(QUERIES.map((query) => hybrid.search(query, { minScore: 0, limit: 20 })));
const EXPECTED = await Promise.all(QUERIES.map((query) => original.search(query, { minScore: 0, limit: 20 })));

type Path = (string | number)[];

/** Every node of a JSON value (the root too), as paths. */
function paths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) paths(value[i], [...path, i], out);
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) paths((value as Record<string, unknown>)[key], [...path, key], out);
  }
  return out;
}

type Container = Record<string | number, unknown>;

/** The container of a path's node and its key there (undefined for the root). */
function parentOf(root: unknown, path: Path): [Container, string | number] | undefined {
  if (path.length === 0) return undefined;
  let node = root as Container;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i]!] as Container;
  return [node, path[path.length - 1]!];
}

/** Sets an own property, even `__proto__` (which plain assignment would turn into a prototype). */
function put(container: Container, key: string | number, value: unknown): void {
  Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

/** One change to a node of a saved index. */
type Mutation =
  | { kind: 'number'; value: number }
  | { kind: 'negate' | 'increment' | 'decrement' | 'remove' | 'truncate' | 'duplicate' }
  | { kind: 'replace'; value: unknown }
  | { kind: 'extend'; value: unknown }
  | { kind: 'swap'; other: number }
  | { kind: 'add-key'; key: string; value: unknown };

const numberValue = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1, 2, 0.5, 1e9, 2 ** 31, 2 ** 53, -(2 ** 53), Number.NaN, Infinity, -Infinity, 1e308),
  fc.integer({ min: -5, max: 50 }),
  fc.double(),
);
const smallJson = fc.oneof(
  fc.constantFrom(null, '3', '', 'weather', [], {}, true, [0], [[0, [0], [1]]], { __proto__: null }),
  fc.jsonValue({ maxDepth: 2 }),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('number' as const), value: numberValue }),
  fc.record({
    kind: fc.constantFrom(
      'negate' as const,
      'increment' as const,
      'decrement' as const,
      'remove' as const,
      'truncate' as const,
      'duplicate' as const,
    ),
  }),
  fc.record({ kind: fc.constant('replace' as const), value: smallJson }),
  fc.record({ kind: fc.constant('extend' as const), value: smallJson }),
  fc.record({ kind: fc.constant('swap' as const), other: fc.nat() }),
  fc.record({
    kind: fc.constant('add-key' as const),
    key: fc.constantFrom('__proto__', 'constructor', 'toString', 'extra', 'weather__get_forecast'),
    value: smallJson,
  }),
);

/** Applies a mutation to the node at a path of `root` (changed in place); returns the new root. */
function mutate(root: unknown, path: Path, change: Mutation): unknown {
  const parent = parentOf(root, path);
  const node = parent === undefined ? root : parent[0][parent[1]];
  const set = (value: unknown) => {
    if (parent === undefined) root = value;
    else put(parent[0], parent[1], value);
  };
  const numeric = typeof node === 'number' ? node : 0;
  switch (change.kind) {
    case 'number':
      set(change.value);
      break;
    case 'negate':
      set(-numeric);
      break;
    case 'increment':
      set(numeric + 1);
      break;
    case 'decrement':
      set(numeric - 1);
      break;
    case 'replace':
      set(structuredClone(change.value));
      break;
    case 'remove':
      if (parent === undefined) root = undefined;
      else if (Array.isArray(parent[0])) (parent[0] as unknown[]).splice(parent[1] as number, 1);
      else delete parent[0][parent[1]];
      break;
    case 'truncate':
      if (Array.isArray(node)) node.length = Math.floor(node.length / 2);
      else set(undefined);
      break;
    case 'duplicate':
      if (Array.isArray(node) && node.length > 0) node.push(structuredClone(node[node.length - 1]));
      else if (parent !== undefined && Array.isArray(parent[0])) (parent[0] as unknown[]).push(structuredClone(node));
      break;
    case 'extend':
      if (Array.isArray(node)) node.push(structuredClone(change.value));
      else set([node, structuredClone(change.value)]);
      break;
    case 'swap':
      if (Array.isArray(node) && node.length > 1) {
        const i = change.other % node.length;
        const j = (i + 1) % node.length;
        [node[i], node[j]] = [node[j], node[i]];
      } else if (parent !== undefined && Array.isArray(parent[0])) {
        const siblings = parent[0] as unknown[];
        const other = change.other % siblings.length;
        [siblings[parent[1] as number], siblings[other]] = [siblings[other], siblings[parent[1] as number]];
      }
      break;
    case 'add-key':
      if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
        put(node as Container, change.key, structuredClone(change.value));
      } else set({ [change.key]: node });
      break;
  }
  return root;
}

const ALL_PATHS = paths(SAVED);
/** One to three mutations at random nodes (chosen among a saved index's own nodes, `paths`). */
const mutationsOf = (all: readonly Path[]) =>
  fc.array(fc.tuple(fc.nat({ max: all.length - 1 }), mutation), { minLength: 1, maxLength: 3 });
const mutations = mutationsOf(ALL_PATHS);

/** Applies mutations one after another to a copy of `base`; a path that no longer leads anywhere is skipped. */
function mutated(
  list: readonly [number, Mutation][],
  base: unknown = SAVED,
  all: readonly Path[] = ALL_PATHS,
): unknown {
  let root: unknown = structuredClone(base);
  for (const [at, change] of list) {
    const path = all[at]!;
    if (path.length > 0 && !leads(root, path)) continue;
    root = mutate(root, path, change);
  }
  return root;
}

function leads(root: unknown, path: Path): boolean {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Container)[key];
  }
  return true;
}

/** Loads a document; the error, when refused, must be a typed one with a specific message. */
function attempt(document: unknown, options?: ToolIndexOptions): ToolIndex | undefined {
  try {
    return ToolIndex.fromJSON(catalog, document as SerializedToolIndex, options);
  } catch (error) {
    if (!ToolscoutError.isInstance(error)) throw error; // a TypeError, a RangeError...: the property fails
    expect(CODES).toContain(error.code);
    expect(error.message).toMatch(/saved tool index|Not a saved tool index/);
    expect(error.message).not.toMatch(/\bundefined\b|\[object Object\]|TypeError|RangeError/);
    return undefined;
  }
}

/**
 * Whether a loaded index is the saved one: saved again (before a search), the same JSON text (in
 * which -0 is 0); the same results.
 */
async function expectSameAsSaved(loaded: ToolIndex): Promise<void> {
  expect(JSON.stringify(loaded.toJSON())).toBe(JSON.stringify(SAVED));
  for (let q = 0; q < QUERIES.length; q++) {
    expect(await loaded.search(QUERIES[q]!, { minScore: 0, limit: 20 })).toEqual(EXPECTED[q]);
  }
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('ToolIndex.fromJSON under hostile input (properties)', () => {
  it('refuses arbitrary JSON, as a value or as text, with a typed error', () => {
    const sections = fc.record(
      {
        format: fc.oneof(fc.constant('toolscout-tool-index'), fc.jsonValue()),
        version: fc.oneof(fc.constant(4), fc.jsonValue()),
        tools: fc.oneof(fc.constant(SAVED.tools), fc.jsonValue()),
        keyword: fc.jsonValue(),
        phrases: fc.jsonValue(),
        integrity: fc.oneof(fc.constant(SAVED.integrity), fc.string()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), sections), fc.boolean(), (value, asText) => {
        const loaded = attempt(asText ? JSON.stringify(value) : value);
        expect(loaded).toBeUndefined();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(attempt(text)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('loads a mutated saved index only when the mutation changed nothing; else refuses it', async () => {
    await fc.assert(
      fc.asyncProperty(mutations, fc.boolean(), async (list, asText) => {
        const document = mutated(list);
        const loaded = attempt(asText ? JSON.stringify(document) : document);
        if (loaded !== undefined) {
          await expectSameAsSaved(loaded);
          loaded.dispose();
        }
      }),
      { numRuns: 400 },
    );
  });

  it('with the integrity hash recomputed, a load that passes the structural checks still searches', async () => {
    const hybridPaths = paths(HYBRID);
    const either = fc.oneof(
      mutations.map((list) => mutated(list)),
      mutationsOf(hybridPaths).map((list) => mutated(list, HYBRID, hybridPaths)),
    );
    await fc.assert(
      fc.asyncProperty(either, async (mutant) => {
        const document = mutant as SerializedToolIndex;
        try {
          document.integrity = indexIntegrity(document);
        } catch {
          return; // (no hash of a shape the checks refuse anyway)
        }
        const loaded = attempt(document, HYBRID_OPTIONS);
        if (loaded === undefined) return;
        for (const query of QUERIES) {
          const hits = await loaded.search(query, { minScore: 0, limit: 20 });
          for (const hit of hits) {
            expect(catalog.has(hit.id)).toBe(true);
            expect(hit.score >= 0 && hit.score <= 1).toBe(true);
          }
        }
        loaded.dispose();
      }),
      { numRuns: 300 },
    );
  });

  it('loads a mutated hybrid index only when the mutation changed nothing; else refuses it', async () => {
    const all = paths(HYBRID);
    await fc.assert(
      fc.asyncProperty(mutationsOf(all), async (list) => {
        const loaded = attempt(mutated(list, HYBRID, all), HYBRID_OPTIONS);
        if (loaded === undefined) return;
        expect(JSON.stringify(loaded.toJSON())).toBe(JSON.stringify(HYBRID));
        for (let q = 0; q < QUERIES.length; q++) {
          expect(await loaded.search(QUERIES[q]!, { minScore: 0, limit: 20 })).toEqual(HYBRID_RESULTS[q]);
        }
        loaded.dispose();
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a mutation test honest: the unchanged document loads, and a changed frequency is refused', async () => {
    const loaded = attempt(structuredClone(SAVED));
    expect(loaded).toBeDefined();
    await expectSameAsSaved(loaded!);
    const changed = structuredClone(SAVED);
    changed.keyword.terms[0]![1][0]![2][0]! += 1;
    expect(attempt(changed)).toBeUndefined();
  });
});
