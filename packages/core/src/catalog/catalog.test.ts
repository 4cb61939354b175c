import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import {
  DuplicateToolError,
  InvalidToolError,
  ToolNameConflictError,
  ToolscoutError,
  UnknownToolError,
} from '../errors.js';
import { allOfRefChain, nestedSchema, sharedAtEveryLevel } from '../test-utils/hostile-schemas.js';
import { thrown } from '../test-utils/thrown.js';
import { within } from '../test-utils/within.js';
import type { JsonSchema, ToolDescriptor } from '../types.js';
import { type CatalogChange, ToolCatalog } from './catalog.js';
import { toToolName } from './tool-name.js';

const weather: ToolDescriptor = {
  id: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  tags: ['weather'],
  source: 'weather-api',
};

describe('ToolCatalog: adding and reading', () => {
  it('builds catalog tools with name, toolName and the resolved JSON Schema', () => {
    const catalog = new ToolCatalog([weather, { id: 'Kick.com API | Get Clips' }]);
    expect(catalog.size).toBe(2);
    const tool = catalog.get('get_weather')!;
    expect(tool.name).toBe('get_weather');
    expect(tool.toolName).toBe('get_weather');
    expect(tool.jsonSchema).toEqual(weather.inputSchema);
    expect(tool.tags).toEqual(['weather']);
    const odd = catalog.get('Kick.com API | Get Clips')!;
    expect(odd.toolName).toBe(toToolName('Kick.com API | Get Clips'));
    expect(odd.jsonSchema).toEqual({ type: 'object', properties: {} });
    expect(catalog.getByToolName(odd.toolName)).toBe(odd);
    expect(catalog.getByToolName('Kick.com API | Get Clips')).toBeUndefined();
    expect(catalog.has('get_weather')).toBe(true);
    expect(catalog.has('nope')).toBe(false);
  });

  it('keeps an explicit name and fills in type "object" for a schema without a type', () => {
    const catalog = new ToolCatalog();
    const tool = catalog.add({
      id: 'svc__search',
      name: 'search',
      inputSchema: { properties: { q: { type: 'string' } } },
    });
    expect(tool.name).toBe('search');
    expect(tool.jsonSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
  });

  it('resolves a zod schema to JSON Schema and keeps the zod object for validation', () => {
    const schema = z.object({ city: z.string(), days: z.number().int().optional() });
    const tool = new ToolCatalog().add({ id: 'forecast', inputSchema: schema });
    expect(tool.inputSchema).toBe(schema);
    expect(tool.jsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
    });
    expect(tool.jsonSchema.$schema).toBeUndefined();
  });

  it('lists and iterates in insertion order', () => {
    const catalog = new ToolCatalog([{ id: 'b' }, { id: 'a' }, { id: 'c' }]);
    expect(catalog.list().map((t) => t.id)).toEqual(['b', 'a', 'c']);
    expect([...catalog].map((t) => t.id)).toEqual(['b', 'a', 'c']);
    catalog.list().pop();
    expect(catalog.size).toBe(3);
  });

  it('shares one frozen tag list between tools of the same tags, never between different ones', () => {
    const catalog = new ToolCatalog([
      { id: 'a', tags: ['maps', 'geo'] },
      { id: 'b', tags: ['maps', 'geo'] },
      { id: 'c', tags: ['maps\u0000geo'] }, // the same tags joined by NUL: not the same list
      { id: 'd', tags: ['maps'] },
    ]);
    const [a, b, c, d] = catalog.list();
    expect(a!.tags).toBe(b!.tags);
    expect(Object.isFrozen(a!.tags)).toBe(true);
    expect(c!.tags).toEqual(['maps\u0000geo']);
    expect(new ToolCatalog([{ id: 'e', tags: ['maps', 'geo'] }]).get('e')!.tags).toEqual(['maps', 'geo']);
    expect(d!.tags).toEqual(['maps']);
  });

  it('copies and freezes, so mutating the input cannot corrupt the catalog', () => {
    const input = {
      id: 'mutable',
      tags: ['one'],
      inputSchema: { type: 'object', properties: { a: { type: 'string', enum: ['x'] } } },
      metadata: { owner: 'me' },
      annotations: { readOnlyHint: true as boolean },
    } satisfies ToolDescriptor;
    const tool = new ToolCatalog([input]).get('mutable')!;
    input.tags.push('two');
    input.inputSchema.properties.a.enum.push('y');
    input.metadata.owner = 'you';
    input.annotations.readOnlyHint = false;
    expect(tool.tags).toEqual(['one']);
    expect(tool.jsonSchema).toEqual({ type: 'object', properties: { a: { type: 'string', enum: ['x'] } } });
    expect(tool.inputSchema).toEqual(tool.jsonSchema);
    expect(tool.metadata).toEqual({ owner: 'me' });
    expect(tool.annotations).toEqual({ readOnlyHint: true });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.jsonSchema.properties)).toBe(true);
    expect(() => {
      (tool as { description?: string }).description = 'changed';
    }).toThrow(TypeError);
  });

  it('keeps execute, the framework tool and extra fields', async () => {
    const frameworkTool = { kind: 'mastra' };
    const tool = new ToolCatalog().add({ id: 'run', execute: async (args) => ({ echoed: args }), tool: frameworkTool });
    expect(tool.tool).toBe(frameworkTool);
    expect(await tool.execute?.({ x: 1 }, { toolId: 'run' })).toEqual({ echoed: { x: 1 } });
  });
});

describe('ToolCatalog: validation', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['a non-object', 'get_weather', '', /Tool \(at index 0\) must be an object, got a string/],
    [
      'a missing id',
      { name: 'weather' },
      'id',
      /Tool named "weather" \(at index 0\): id must be a non-empty string, got undefined/,
    ],
    ['an empty id', { id: '' }, 'id', /id must be a non-empty string, got an empty string$/],
    [
      'a blank id',
      { id: ' \t' },
      'id',
      /id must be a non-empty string, got a blank string \(only white space\): " \\t"$/,
    ],
    ['a numeric id', { id: 7 }, 'id', /id must be a non-empty string, got a number/],
    [
      'a non-string description',
      { id: 't', description: 3 },
      'description',
      /Tool "t": description must be a string, got a number/,
    ],
    ['an empty name', { id: 't', name: '' }, 'name', /Tool "t": name must not be empty/],
    [
      'tags that are not an array',
      { id: 't', tags: 'x' },
      'tags',
      /Tool "t": tags must be an array of strings, got a string/,
    ],
    ['a non-string tag', { id: 't', tags: ['ok', 5] }, 'tags[1]', /Tool "t": tags\[1\] must be a string, got a number/],
    ['a non-function execute', { id: 't', execute: 'run' }, 'execute', /Tool "t": execute must be a function/],
    ['a non-boolean pinned', { id: 't', pinned: 'yes' }, 'pinned', /pinned must be a boolean/],
    ['a non-object metadata', { id: 't', metadata: [] }, 'metadata', /metadata must be an object, got an array/],
    [
      'a non-object schema',
      { id: 't', inputSchema: 'object' },
      'inputSchema',
      /Tool "t": inputSchema must be a JSON Schema object or a Standard Schema, got a string/,
    ],
    [
      'a string schema',
      { id: 't', inputSchema: { type: 'string' } },
      'inputSchema',
      /Tool "t": inputSchema must describe an object \(type "object"\).*got type "string"/,
    ],
    [
      'a zod string schema',
      { id: 't', inputSchema: z.string() },
      'inputSchema',
      /must describe an object.*got type "string"/,
    ],
    [
      'bad properties',
      { id: 't', inputSchema: { type: 'object', properties: [] } },
      'inputSchema',
      /properties must be an object, got an array/,
    ],
    [
      'bad required',
      { id: 't', inputSchema: { type: 'object', required: 'a' } },
      'inputSchema',
      /required must be an array of property names/,
    ],
    [
      'a function in a schema',
      { id: 't', inputSchema: { type: 'object', default: () => 1 } },
      'inputSchema',
      /is not JSON data: inputSchema\.default is a function/,
    ],
    [
      'NaN in a schema',
      { id: 't', inputSchema: { type: 'object', properties: { n: { maximum: Number.NaN } } } },
      'inputSchema',
      /inputSchema\.properties\.n\.maximum is NaN/,
    ],
    [
      'a Date in a schema',
      { id: 't', inputSchema: { type: 'object', default: new Date(0) } },
      'inputSchema',
      /inputSchema\.default is a Date/,
    ],
    [
      'a non-object outputSchema',
      { id: 't', outputSchema: true },
      'outputSchema',
      /outputSchema must be a JSON Schema object, got a boolean/,
    ],
    [
      'a zod schema that cannot be JSON Schema',
      { id: 't', inputSchema: z.object({ when: z.date() }) },
      'inputSchema',
      /Tool "t": inputSchema \(zod\) cannot be converted to JSON Schema: Date cannot be represented in JSON Schema/,
    ],
  ];

  for (const [label, descriptor, field, message] of cases) {
    it(`rejects ${label}`, () => {
      const catalog = new ToolCatalog();
      const error = thrown(() => catalog.addAll([descriptor as ToolDescriptor]));
      expect(InvalidToolError.isInstance(error)).toBe(true);
      expect((error as InvalidToolError).field ?? '').toBe(field);
      expect((error as Error).message).toMatch(message);
      expect(catalog.size).toBe(0);
    });
  }

  it('rejects a schema with a cycle', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    schema.self = schema;
    expect(() => new ToolCatalog([{ id: 'cyclic', inputSchema: schema }])).toThrow(
      /inputSchema\.self refers back to itself/,
    );
  });

  it('rejects a cycle with many ways round it at once, without following it', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    schema.properties = { a: schema, b: schema, c: schema, d: schema };
    expect(() => new ToolCatalog([{ id: 'cyclic', inputSchema: schema }])).toThrow(
      /inputSchema\.properties\.a refers back to itself/,
    );
  });

  it('copies deep and odd JSON faithfully: deeper than the fast path, a "__proto__" key', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const odd = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown>;
    const [deepTool, oddTool] = new ToolCatalog([
      { id: 'deep', inputSchema: { type: 'object', default: deep } },
      { id: 'odd', inputSchema: odd },
    ]).list();
    expect(deepTool!.jsonSchema.default).toEqual(deep);
    expect(deepTool!.jsonSchema.default).not.toBe(deep);
    expect(Object.keys(oddTool!.jsonSchema.properties as object)).toEqual(['__proto__']);
    expect(Object.isFrozen(oddTool!.jsonSchema.properties)).toBe(true);
  });

  it('copies only own keys: an enumerable property on a polluted Object.prototype is not copied', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 'yes',
      enumerable: true,
      writable: true,
      configurable: true,
    });
    try {
      const [tool] = new ToolCatalog([
        { id: 'plain', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, default: { a: 1 } } },
      ]).list();
      const schema = tool!.jsonSchema;
      for (const copy of [
        schema,
        schema.properties,
        (schema.properties as Record<string, object>).city,
        schema.default,
      ]) {
        expect(Object.hasOwn(copy as object, 'polluted')).toBe(false);
      }
      expect(Object.keys(schema)).toEqual(['type', 'properties', 'default']);
      expect(Object.keys(schema.properties as object)).toEqual(['city']);
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
    expect('polluted' in {}).toBe(false);
  });

  it('rejects a schema nested 2,500 levels deep with a clear error, not a RangeError', () => {
    const error = thrown(() => new ToolCatalog([{ id: 'deep', inputSchema: nestedSchema(2_500) }]));
    expect(InvalidToolError.isInstance(error)).toBe(true);
    expect((error as InvalidToolError).field).toBe('inputSchema');
    expect((error as Error).message).toMatch(
      /^Tool "deep": inputSchema nests too deeply: inputSchema\.properties\.x\.properties\.a\.properties\.a…\(118 more levels\)…(\.properties\.a){2} is deeper than 128 levels \(the limit\)\. Flatten it/,
    );
    expect(new ToolCatalog([{ id: 'ok', inputSchema: nestedSchema(60) }]).size).toBe(1); // 123 levels of JSON
  });

  it('copies a schema that reuses one sub-object once, and keeps it shared', () => {
    const tool = new ToolCatalog([{ id: 'shared', inputSchema: sharedAtEveryLevel(17, 'properties') }]).get('shared')!;
    const x = (tool.jsonSchema.properties as Record<string, JsonSchema>).x!;
    const { a, b } = x.properties as Record<string, JsonSchema>;
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(tool.inputSchema).toBe(tool.jsonSchema);
  });

  it('rejects, in linear time, a schema that reuses one sub-object at every level (24 levels: 84 million values written out)', async () => {
    const error = await within(2_000, () =>
      thrown(() => new ToolCatalog([{ id: 'shared', inputSchema: sharedAtEveryLevel(24, 'properties') }])),
    );
    expect(InvalidToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Tool "shared": inputSchema is too large: written out as JSON, inputSchema\.properties\.x\.properties\.a.* would hold more than 1,000,000 values \(the limit\), through sub-objects it reuses/,
    );
  });

  it('rejects a path longer than 128 levels made of reused sub-objects, each met first near the top', () => {
    const nodes: Record<string, unknown>[] = Array.from({ length: 300 }, () => ({ type: 'object' }));
    nodes.forEach((node, i) => {
      if (i + 1 < nodes.length) node.properties = { next: nodes[i + 1] };
    });
    // Listed from the deepest: each is copied at level 2, its `next` already copied.
    const properties = Object.fromEntries(nodes.map((node, i) => [`n${i}`, node]).reverse());
    expect(() => new ToolCatalog([{ id: 'long', inputSchema: { type: 'object', properties } }])).toThrow(
      /^Tool "long": inputSchema nests too deeply: inputSchema\.properties\.n\d+\.properties reaches 129 levels through sub-objects it reuses \(the limit is 128\)/,
    );
  });

  it('rejects a schema that no call could be validated against within the budget, naming the tool', async () => {
    for (const [id, schema] of [
      ['chain', allOfRefChain(22)],
      ['dag', sharedAtEveryLevel(17, 'allOf')],
    ] as const) {
      const error = await within(2_000, () => thrown(() => new ToolCatalog([{ id, inputSchema: schema }])));
      expect(InvalidToolError.isInstance(error)).toBe(true);
      expect((error as InvalidToolError).field).toBe('inputSchema');
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Tool "${id}": inputSchema is too costly to validate: checking a single value would take more than 50,000 steps`,
        ),
      );
    }
    const chain: Record<string, JsonSchema> = {};
    for (let i = 0; i < 200; i++) chain[`d${i}`] = i === 199 ? { type: 'string' } : { $ref: `#/$defs/d${i + 1}` };
    expect(() => new ToolCatalog([{ id: 'long', inputSchema: { $ref: '#/$defs/d0', $defs: chain } }])).toThrow(
      /^Tool "long": inputSchema is too deeply layered to validate: it applies subschemas to a single value through 201 levels/,
    );
  });

  it('rejects a Standard Schema that cannot produce JSON Schema', () => {
    const opaque = { '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) } };
    expect(() => new ToolCatalog([{ id: 'opaque', inputSchema: opaque }])).toThrow(
      /Tool "opaque": inputSchema is a Standard Schema \(acme\) that cannot produce JSON Schema/,
    );
  });

  it('rejects a non-iterable batch', () => {
    expect(() => new ToolCatalog().addAll(null as unknown as [])).toThrow(/addAll expects an iterable/);
  });
});

describe('ToolCatalog: duplicates and name conflicts', () => {
  it('names the id and both sources on a duplicate', () => {
    const catalog = new ToolCatalog([weather]);
    const error = thrown(() => catalog.add({ id: 'get_weather', source: 'other-api' }));
    expect(DuplicateToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"get_weather"');
    expect((error as Error).message).toContain('source "weather-api"');
    expect((error as Error).message).toContain('source "other-api"');
  });

  it('rejects a whole batch when it duplicates the catalog or itself', () => {
    const catalog = new ToolCatalog([weather]);
    expect(() => catalog.addAll([{ id: 'fresh' }, { id: 'get_weather' }])).toThrow(DuplicateToolError);
    expect(() => catalog.addAll([{ id: 'x', source: 's1' }, { id: 'y' }, { id: 'x', source: 's2' }])).toThrow(
      /Duplicate tool id "x": already registered from source "s1", added again from source "s2"/,
    );
    expect(() => catalog.addAll([{ id: 'ok' }, { id: 'bad', tags: [1] } as unknown as ToolDescriptor])).toThrow(
      InvalidToolError,
    );
    expect(catalog.list().map((t) => t.id)).toEqual(['get_weather']);
  });

  it('detects two ids that map to one tool name, in the catalog and within a batch', () => {
    const mapped = toToolName('a b');
    const catalog = new ToolCatalog([{ id: 'a b' }]);
    const error = thrown(() => catalog.add({ id: mapped }));
    expect(ToolNameConflictError.isInstance(error)).toBe(true);
    expect(ToolscoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `Tool ids "a b" and "${mapped}" both map to the tool name "${mapped}". Rename one of the two ids.`,
    );
    expect(() => new ToolCatalog([{ id: mapped }, { id: 'a b' }])).toThrow(ToolNameConflictError);
    expect(catalog.size).toBe(1);
  });

  it('frees the tool name when a tool is removed', () => {
    const catalog = new ToolCatalog([{ id: 'a b' }]);
    catalog.remove('a b');
    expect(catalog.getByToolName(toToolName('a b'))).toBeUndefined();
    expect(catalog.add({ id: toToolName('a b') }).toolName).toBe(toToolName('a b'));
  });
});

describe('ToolCatalog: replace, upsert, remove', () => {
  it('replace keeps the position and rejects unknown ids', () => {
    const catalog = new ToolCatalog([{ id: 'a' }, { id: 'b', description: 'old' }, { id: 'c' }]);
    const replaced = catalog.replace({ id: 'b', description: 'new' });
    expect(replaced.description).toBe('new');
    expect(catalog.list().map((t) => `${t.id}:${t.description ?? ''}`)).toEqual(['a:', 'b:new', 'c:']);
    const error = thrown(() => catalog.replace({ id: 'zzz' }));
    expect(UnknownToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Unknown tool "zzz": the catalog has no tool with this id.');
  });

  it('replace validates before touching the catalog', () => {
    const catalog = new ToolCatalog([{ id: 'a', description: 'kept' }]);
    expect(() => catalog.replace({ id: 'a', inputSchema: { type: 'array' } })).toThrow(InvalidToolError);
    expect(catalog.get('a')?.description).toBe('kept');
  });

  it('upsert adds or replaces', () => {
    const catalog = new ToolCatalog<{ v: number }>();
    catalog.upsert({ id: 'a', tool: { v: 1 } });
    catalog.upsert({ id: 'b', tool: { v: 1 } });
    catalog.upsert({ id: 'a', tool: { v: 2 } });
    expect(catalog.list().map((t) => [t.id, t.tool?.v])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });

  it('remove reports whether it removed', () => {
    const catalog = new ToolCatalog([{ id: 'a' }]);
    expect(catalog.remove('a')).toBe(true);
    expect(catalog.remove('a')).toBe(false);
    expect(catalog.size).toBe(0);
    expect(catalog.get('a')).toBeUndefined();
  });
});

describe('ToolCatalog: subscribe', () => {
  it('sends add, replace and remove changes after they happen', () => {
    const catalog = new ToolCatalog([{ id: 'seed' }]);
    const seen: string[] = [];
    const unsubscribe = catalog.subscribe((change) => {
      const extra = change.type === 'replace' ? ` (was ${change.previous.description})` : '';
      seen.push(`${change.type} ${change.tool.id}${extra} size=${catalog.size}`);
    });
    catalog.add({ id: 'a', description: 'v1' });
    catalog.addAll([{ id: 'b' }, { id: 'c' }]);
    catalog.replace({ id: 'a', description: 'v2' });
    catalog.upsert({ id: 'a', description: 'v3' });
    catalog.upsert({ id: 'd' });
    catalog.remove('b');
    catalog.remove('missing');
    unsubscribe();
    catalog.add({ id: 'after' });
    expect(seen).toEqual([
      'add a size=2',
      'add b size=4',
      'add c size=4',
      'replace a (was v1) size=4',
      'replace a (was v2) size=4',
      'add d size=5',
      'remove b size=4',
    ]);
  });

  it('sends nothing for a rejected batch', () => {
    const catalog = new ToolCatalog([{ id: 'a' }]);
    const listener = vi.fn();
    catalog.subscribe(listener);
    expect(() => catalog.addAll([{ id: 'b' }, { id: 'a' }])).toThrow(DuplicateToolError);
    expect(listener).not.toHaveBeenCalled();
  });

  it('a throwing listener breaks neither the catalog nor the other listeners', () => {
    const errors: [unknown, CatalogChange<unknown>][] = [];
    const catalog = new ToolCatalog([], { onListenerError: (error, change) => errors.push([error, change]) });
    const other = vi.fn();
    catalog.subscribe(() => {
      throw new Error('listener bug');
    });
    catalog.subscribe(other);
    expect(catalog.add({ id: 'a' }).id).toBe('a');
    expect(catalog.has('a')).toBe(true);
    expect(other).toHaveBeenCalledOnce();
    expect(errors).toHaveLength(1);
    expect((errors[0]![0] as Error).message).toBe('listener bug');
    expect(errors[0]![1].tool.id).toBe('a');
  });

  it('reports a throwing listener on console.error by default, and survives a throwing error handler', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const catalog = new ToolCatalog();
      catalog.subscribe(() => {
        throw new Error('boom');
      });
      catalog.add({ id: 'a' });
      expect(consoleError).toHaveBeenCalledOnce();
      expect(String(consoleError.mock.calls[0]![0])).toContain('a catalog listener threw on "add" of tool "a"');
    } finally {
      consoleError.mockRestore();
    }
    const strict = new ToolCatalog([], {
      onListenerError: () => {
        throw new Error('handler bug');
      },
    });
    strict.subscribe(() => {
      throw new Error('boom');
    });
    expect(() => strict.add({ id: 'b' })).not.toThrow();
    expect(strict.has('b')).toBe(true);
  });

  it('lets a listener unsubscribe itself while changes are sent', () => {
    const catalog = new ToolCatalog();
    const calls: string[] = [];
    const unsubscribe = catalog.subscribe(() => {
      calls.push('once');
      unsubscribe();
    });
    catalog.subscribe(() => calls.push('always'));
    catalog.add({ id: 'a' });
    catalog.add({ id: 'b' });
    expect(calls).toEqual(['once', 'always', 'always']);
  });
});
