import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import { validateInput } from '../schema/schema.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import { thrown } from '../test-utils/thrown.js';
import type { ToolExecutionContext } from '../types.js';
import { type DeclaredTool, declaredToolDescriptor } from './declared-tool.js';
import { HostToolRunner } from './host-tool-runner.js';

/** A framework's tool as a test stands it in: a name, a description, a schema and a function. */
interface FrameworkTool {
  name: string;
  description?: unknown;
  schema?: unknown;
  run(input: unknown): unknown;
}

function like(
  tool: FrameworkTool,
  convertSchema?: DeclaredTool<FrameworkTool>['convertSchema'],
): DeclaredTool<FrameworkTool> {
  return {
    tool,
    kind: 'Framework tool',
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    convertSchema,
    execute: (input) => tool.run(input),
  };
}

const weather: FrameworkTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  schema: z.object({ city: z.string(), units: z.enum(['C', 'F']).default('C') }),
  run: (input) => `Sunny in ${(input as { city: string }).city}`,
};

describe('declaredToolDescriptor', () => {
  it("takes the tool's name, description and input schema (as JSON Schema, input side), and keeps the tool", async () => {
    const descriptor = declaredToolDescriptor(like(weather), { tags: ['weather'], pinned: true });
    expect(descriptor).toMatchObject({
      id: 'get_weather',
      name: 'get_weather',
      description: 'Current weather for a city',
      tool: weather,
      tags: ['weather'],
      pinned: true,
    });
    expect(descriptor.inputSchema).toMatchObject({ type: 'object', required: ['city'] });
    const entry = new ToolCatalog([descriptor]).get('get_weather')!;
    expect(await validateInput(entry, { city: 'Lima' })).toMatchObject({ success: true });
    expect(await validateInput(entry, { city: 3 })).toMatchObject({ success: false });
    expect(declaredToolDescriptor(like(weather), { id: 'weather__get' })).toMatchObject({ id: 'weather__get' });
  });

  it('a description that is not a string counts as none, and a tool without a schema has none', () => {
    const bare = declaredToolDescriptor(like({ name: 'ping', description: 42, run: () => 'pong' }));
    expect(bare.description).toBe('');
    expect('inputSchema' in bare).toBe(false);
    const nullSchema = declaredToolDescriptor(like({ name: 'ping', schema: null, run: () => 'pong' }));
    expect('inputSchema' in nullSchema).toBe(false);
  });

  it("converts a schema core cannot read with the host's converter, and asks it nothing for a Standard JSON Schema", () => {
    const asked: unknown[] = [];
    const legacy = { legacy: true, shape: { query: 'string' } };
    const convert = (schema: unknown) => {
      asked.push(schema);
      return schema === legacy ? { type: 'object', properties: { query: { type: 'string' } } } : undefined;
    };
    const converted = declaredToolDescriptor(like({ name: 'search', schema: legacy, run: () => [] }, convert));
    expect(converted.inputSchema).toEqual({ type: 'object', properties: { query: { type: 'string' } } });
    const json = { type: 'object', properties: { q: { type: 'string' } } };
    expect(declaredToolDescriptor(like({ name: 'search', schema: json, run: () => [] }, convert)).inputSchema).toEqual(
      json,
    );
    declaredToolDescriptor(like(weather, convert));
    expect(asked).toEqual([legacy, json]);
  });

  it('an unconvertible schema is an InvalidToolError naming the tool and the reason', () => {
    const broken = () => {
      throw new Error('unsupported type');
    };
    for (const descriptorOf of [
      () => declaredToolDescriptor(like({ name: 'odd', schema: { not: 'a schema' }, run: () => 0 }, broken)),
      () => declaredToolDescriptor(like({ name: 'odd', schema: 'string', run: () => 0 })),
    ]) {
      const error = thrown(descriptorOf);
      expect(InvalidToolError.isInstance(error)).toBe(true);
      expect((error as InvalidToolError).field).toBe('inputSchema');
      expect((error as Error).message).toMatch(
        /^Framework tool "odd": its schema cannot be converted to JSON Schema: /,
      );
    }
  });

  it("runs the tool through the host's runner when the call has one, else through execute", async () => {
    const descriptor = declaredToolDescriptor(like(weather));
    const context: ToolExecutionContext = { toolId: 'get_weather' };
    expect(await descriptor.execute!({ city: 'Lima' }, context)).toBe('Sunny in Lima');
    const ran: [FrameworkTool, unknown][] = [];
    const runner = new HostToolRunner<FrameworkTool>(async (tool, input) => {
      ran.push([tool, input]);
      return 'run by the host';
    });
    expect(await descriptor.execute!({ city: 'Lima' }, { ...context, host: runner })).toBe('run by the host');
    expect(ran).toEqual([[weather, { city: 'Lima' }]]);
    expect(await descriptor.execute!({ city: 'Lima' }, { ...context, host: { run: () => 'not a runner' } })).toBe(
      'Sunny in Lima',
    );
  });

  it('in a session: the runner gets the tool and the checked input; a call the session refuses never reaches it', async () => {
    const session = new ToolSearchSession({ catalog: [declaredToolDescriptor(like(weather))], state: 'conversation' });
    const step = await session.prepareStep({ loaded: ['get_weather'] });
    const inputs: unknown[] = [];
    const runner = new HostToolRunner<FrameworkTool>(async (tool, input) => {
      inputs.push(input);
      return `${tool.name} ran`;
    });
    const outcome = await step.execute('get_weather', { city: 'Lima' }, { host: runner });
    expect(outcome).toMatchObject({ ok: true, output: 'get_weather ran' });
    expect(await step.execute('get_weather', { city: 7 }, { host: runner })).toMatchObject({ ok: false });
    expect(inputs).toEqual([{ city: 'Lima' }]);
  });
});
