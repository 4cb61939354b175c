import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidToolError } from '../errors.js';
import { rejection, thrown } from '../test-utils/thrown.js';
import type { ToolExecutionContext } from '../types.js';
import { catalogToolOf, executeOutsideSession } from './catalog-tool-of.js';

describe('catalogToolOf', () => {
  it('gives a catalog tool as it is, and a descriptor as a catalog holds it', () => {
    const entry = new ToolCatalog([{ id: 'crm.find contact', description: 'Find a contact' }]).list()[0]!;
    expect(catalogToolOf(entry)).toBe(entry);
    const made = catalogToolOf({ id: 'crm.find contact', description: 'Find a contact' });
    expect(made).toMatchObject({ id: 'crm.find contact', toolName: entry.toolName, name: 'crm.find contact' });
    expect(made.toolName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(made.jsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('an unusable descriptor is an InvalidToolError, as in a catalog', () => {
    expect(InvalidToolError.isInstance(thrown(() => catalogToolOf({ id: '' })))).toBe(true);
  });
});

describe('executeOutsideSession', () => {
  it("runs the tool's execute with the context given and the tool's id", async () => {
    const seen: ToolExecutionContext[] = [];
    const entry = catalogToolOf({
      id: 'echo',
      execute: (input, context) => {
        seen.push(context);
        return input;
      },
    });
    const abortSignal = new AbortController().signal;
    expect(await executeOutsideSession(entry, { a: 1 }, { threadId: 't', context: 'ctx', abortSignal })).toEqual({
      a: 1,
    });
    expect(seen).toEqual([{ toolId: 'echo', threadId: 't', context: 'ctx', abortSignal }]);
  });

  it('a tool without execute (a meta-tool definition) is an InvalidToolError when called, not a crash', async () => {
    const error = await rejection(() => executeOutsideSession(catalogToolOf({ id: 'search_tools' }), {}, {}));
    expect(InvalidToolError.isInstance(error)).toBe(true);
    expect((error as InvalidToolError).field).toBe('execute');
    expect((error as Error).message).toMatch(/^Tool "search_tools" has no execute function/);
  });
});
