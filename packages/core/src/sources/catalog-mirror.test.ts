import { describe, expect, it } from 'vitest';
import type { CatalogChange } from '../catalog/catalog.js';
import { ToolCatalog } from '../catalog/catalog.js';
import { toToolName } from '../catalog/tool-name.js';
import { DuplicateToolError, InvalidArgumentError, InvalidOptionError } from '../errors.js';
import { ToolIndex } from '../index/tool-index.js';
import { thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import { CatalogMirror } from './catalog-mirror.js';

interface Listed {
  version: number;
}

const tool = (id: string, description: string, version = 1): ToolDescriptor<Listed> => ({
  id,
  description,
  source: 'weather',
  tool: { version },
});

/** A catalog with one tool of another source, a mirror over it, and every change the catalog saw. */
function setup(options: { keepRefused?: boolean } = {}) {
  const catalog = new ToolCatalog<Listed>([{ id: 'other__tool', description: 'not the source’s' }]);
  const changes: string[] = [];
  catalog.subscribe((change: CatalogChange<Listed>) => changes.push(`${change.type} ${change.tool.id}`));
  const refused: string[] = [];
  const mirror = new CatalogMirror<Listed>({
    catalog,
    signature: (descriptor) => JSON.stringify([descriptor.description, descriptor.tool]),
    onRefused: (error, descriptor) => refused.push(`${String(descriptor?.id)}: ${(error as Error).name}`),
    ...options,
  });
  return { catalog, mirror, changes, refused };
}

describe('CatalogMirror: a source’s list kept in step with a catalog', () => {
  it('adds new ids, replaces changed ones, removes gone ones and leaves unchanged ones untouched', async () => {
    const { catalog, mirror, changes } = setup();
    const index = new ToolIndex(catalog);
    expect(
      mirror.apply([tool('weather__now', 'Current weather'), tool('weather__forecast', 'Forecast for a week')]),
    ).toEqual({ added: 2, replaced: 0, removed: 0, refused: 0 });
    expect(mirror.ids).toEqual(['weather__now', 'weather__forecast']);
    expect((await index.search('forecast'))[0]?.id).toBe('weather__forecast');
    changes.length = 0;

    const next = mirror.apply([
      tool('weather__now', 'Current weather'), // unchanged
      tool('weather__forecast', 'Tide tables for the coast', 2), // changed
      tool('weather__alerts', 'Storm alerts'), // new
    ]);
    expect(next).toEqual({ added: 1, replaced: 1, removed: 0, refused: 0 });
    expect(changes).toEqual(['replace weather__forecast', 'add weather__alerts']);
    expect(catalog.get('weather__forecast')?.tool).toEqual({ version: 2 });
    expect((await index.search('tide tables'))[0]?.id).toBe('weather__forecast');
    expect(await index.search('week')).toEqual([]);
    changes.length = 0;

    expect(mirror.apply([tool('weather__alerts', 'Storm alerts')])).toEqual({
      added: 0,
      replaced: 0,
      removed: 2,
      refused: 0,
    });
    expect(changes).toEqual(['remove weather__now', 'remove weather__forecast']);
    expect(catalog.list().map((entry) => entry.id)).toEqual(['other__tool', 'weather__alerts']);
    expect(mirror.apply([tool('weather__alerts', 'Storm alerts')])).toEqual({
      added: 0,
      replaced: 0,
      removed: 0,
      refused: 0,
    });
    index.dispose();
  });

  it('without a signature replaces every listed id it already owns', () => {
    const catalog = new ToolCatalog<Listed>();
    const mirror = new CatalogMirror({ catalog });
    mirror.apply([tool('a', 'first')]);
    const before = catalog.get('a');
    expect(mirror.apply([tool('a', 'first')])).toEqual({ added: 0, replaced: 1, removed: 0, refused: 0 });
    expect(catalog.get('a')).not.toBe(before);
  });

  it('skips a descriptor the catalog refuses, reports it, and applies the rest', () => {
    const { catalog, mirror, refused } = setup();
    const changes = mirror.apply([
      tool('weather__now', 'Current weather'),
      { id: 'weather__bad', inputSchema: { type: 'string' } } as ToolDescriptor<Listed>,
      tool('other__tool', 'taken by another source'),
      tool('weather__later', 'After the refused ones'),
    ]);
    expect(changes).toEqual({ added: 2, replaced: 0, removed: 0, refused: 2 });
    expect(refused).toEqual(['weather__bad: InvalidToolError', 'other__tool: DuplicateToolError']);
    expect(mirror.ids).toEqual(['weather__now', 'weather__later']);
    // The other source's tool is not the mirror's: a later list without it leaves it alone.
    mirror.apply([]);
    expect(catalog.list().map((entry) => entry.id)).toEqual(['other__tool']);
  });

  it('a refused change removes the earlier version, or keeps it with keepRefused', () => {
    for (const keepRefused of [false, true]) {
      const { catalog, mirror, refused } = setup({ keepRefused });
      mirror.apply([tool('weather__now', 'Current weather')]);
      const bad = { ...tool('weather__now', 'Now with a bad schema', 2), inputSchema: { type: 'array' } };
      const changes = mirror.apply([bad as ToolDescriptor<Listed>]);
      expect(refused).toEqual(['weather__now: InvalidToolError']);
      expect(changes).toEqual({ added: 0, replaced: 0, removed: keepRefused ? 0 : 1, refused: 1 });
      expect(catalog.get('weather__now')?.description).toBe(keepRefused ? 'Current weather' : undefined);
      expect(mirror.has('weather__now')).toBe(keepRefused);
      // Listed again as it was: unchanged when kept, added again when it was removed.
      expect(mirror.apply([tool('weather__now', 'Current weather')])).toEqual({
        added: keepRefused ? 0 : 1,
        replaced: 0,
        removed: 0,
        refused: 0,
      });
    }
  });

  it('a signature that throws refuses that descriptor only', () => {
    const catalog = new ToolCatalog();
    const refused: unknown[] = [];
    const mirror = new CatalogMirror({
      catalog,
      signature: (descriptor) => JSON.stringify(descriptor.metadata),
      onRefused: (error) => refused.push(error),
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(mirror.apply([{ id: 'a', metadata: cyclic }, { id: 'b' }])).toEqual({
      added: 1,
      replaced: 0,
      removed: 0,
      refused: 1,
    });
    expect(refused[0]).toBeInstanceOf(TypeError);
    expect(mirror.ids).toEqual(['b']);
  });

  it('ignores a second descriptor with an id already applied in the same list, but tries one after a refusal', () => {
    const { catalog, mirror, refused } = setup();
    const changes = mirror.apply([
      tool('weather__now', 'First of two'),
      tool('weather__now', 'Second of two'),
      { id: 'weather__x', inputSchema: { type: 'string' } } as ToolDescriptor<Listed>,
      tool('weather__x', 'A valid one with the refused id'),
    ]);
    expect(changes).toEqual({ added: 2, replaced: 0, removed: 0, refused: 1 });
    expect(refused).toEqual(['weather__x: InvalidToolError']);
    expect(catalog.get('weather__now')?.description).toBe('First of two');
    expect(catalog.get('weather__x')?.description).toBe('A valid one with the refused id');
  });

  it('removes the gone ids first, so a new id may take the tool name of one that went', () => {
    const { catalog, mirror, refused } = setup();
    mirror.apply([tool('a b', 'spaced')]);
    const mapped = toToolName('a b');
    expect(mapped).not.toBe('a b');
    expect(mirror.apply([tool(mapped, 'the same tool name')])).toEqual({
      added: 1,
      replaced: 0,
      removed: 1,
      refused: 0,
    });
    expect(refused).toEqual([]);
    expect(catalog.getByToolName(mapped)?.id).toBe(mapped);
  });

  it('adds again an owned id that was taken out of the catalog meanwhile', () => {
    const { catalog, mirror } = setup();
    mirror.apply([tool('weather__now', 'Current weather')]);
    catalog.remove('weather__now');
    expect(mirror.apply([tool('weather__now', 'Current weather')])).toEqual({
      added: 1,
      replaced: 0,
      removed: 0,
      refused: 0,
    });
    expect(catalog.has('weather__now')).toBe(true);
  });

  it('close() removes every owned id and refuses later lists', () => {
    const { catalog, mirror } = setup();
    mirror.apply([tool('weather__now', 'Current weather'), tool('weather__alerts', 'Storm alerts')]);
    catalog.remove('weather__alerts'); // someone else's doing: not counted
    expect(mirror.close()).toBe(1);
    expect(mirror.close()).toBe(0);
    expect(mirror.closed).toBe(true);
    expect(mirror.size).toBe(0);
    expect(catalog.list().map((entry) => entry.id)).toEqual(['other__tool']);
    const error = thrown(() => mirror.apply([tool('weather__now', 'Current weather')]));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'This catalog mirror was closed (its ids removed): it applies no more lists.',
    );
  });

  it('refuses bad input with specific errors', () => {
    const catalog = new ToolCatalog();
    const option = (options: unknown) => thrown(() => new CatalogMirror(options as never)) as InvalidOptionError;
    expect(option(undefined).option).toBe('options');
    expect(option({ catalog: {} }).message).toBe('A catalog mirror needs a ToolCatalog, got an object.');
    expect(option({ catalog, signature: 'json' }).message).toBe('signature must be a function, got a string.');
    expect(option({ catalog, onRefused: 1 }).option).toBe('onRefused');
    expect(option({ catalog, keepRefused: 'yes' }).option).toBe('keepRefused');
    expect(InvalidOptionError.isInstance(option({ catalog, keepRefused: 'yes' }))).toBe(true);

    const refused: unknown[] = [];
    const mirror = new CatalogMirror({ catalog, onRefused: (error) => refused.push(error) });
    const notArray = thrown(() => mirror.apply({ id: 'a' } as never)) as InvalidArgumentError;
    expect(InvalidArgumentError.isInstance(notArray)).toBe(true);
    expect(notArray.argument).toBe('descriptors');
    expect(mirror.apply([null, { id: 7 }, { id: 'ok' }] as never)).toEqual({
      added: 1,
      replaced: 0,
      removed: 0,
      refused: 2,
    });
    expect(refused.map((error) => (error as InvalidArgumentError).argument)).toEqual([
      'descriptors[0]',
      'descriptors[1]',
    ]);
    expect((refused[1] as Error).message).toBe(
      'A listed descriptor must be an object with a string id, got an object.',
    );
  });

  it('a reporter that throws does not stop the list', () => {
    const catalog = new ToolCatalog([{ id: 'taken' }]);
    const mirror = new CatalogMirror({
      catalog,
      onRefused: () => {
        throw new Error('reporter broke');
      },
    });
    expect(mirror.apply([{ id: 'taken' }, { id: 'free' }])).toEqual({ added: 1, replaced: 0, removed: 0, refused: 1 });
    expect(DuplicateToolError.isInstance(thrown(() => catalog.add({ id: 'taken' })))).toBe(true);
  });
});

describe('@toolscout/core/sources: the mirror, the coalesced task and the offer index', () => {
  it('are exported by the sources entry only', async () => {
    const sources = await import('../sources-entry.js');
    const main = await import('../index.js');
    const internal = await import('../internal.js');
    for (const name of ['CatalogMirror', 'CoalescedTask', 'OfferIndex', 'MAX_OFFER_HITS']) {
      expect(name in sources, name).toBe(true);
      expect(name in main || name in internal, name).toBe(false);
    }
  });
});
