import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { type ListedSource, MAX_PAGES_PER_LIST_PAGE, mergedPage, pageOf, type SourcePage } from './merged-pages.js';
import { encodeCursor } from './page-cursor.js';
import { InvalidCursorError } from './source-errors.js';

/** A source with a list of `items` served `per` at a time, with cursors of its own. */
class FakeSource implements ListedSource {
  ready = true;
  fetches: (string | undefined)[] = [];
  failFirst = false;
  failCursor: string | undefined;

  constructor(
    readonly name: string,
    readonly items: string[] | undefined,
    readonly per = 3,
  ) {}

  has(list: string): boolean {
    return list === 'docs' && this.items !== undefined;
  }

  async page(cursor: string | undefined): Promise<SourcePage<string>> {
    this.fetches.push(cursor);
    if (this.failFirst && cursor === undefined) throw new Error(`${this.name} is broken`);
    if (cursor !== undefined && cursor === this.failCursor) throw new Error(`${this.name} lost page ${cursor}`);
    const start = cursor === undefined ? 0 : Number(cursor.slice(1));
    const end = start + this.per;
    const items = this.items!.slice(start, end).map((item) => `${this.name}:${item}`);
    return end < this.items!.length ? { items, nextCursor: `@${end}` } : { items };
  }
}

const fetchPage = (source: FakeSource, cursor: string | undefined) => source.page(cursor);

/** Every item of the listing, page by page, and the pages' sizes. */
async function readAll(sources: FakeSource[], pageSize: number, onLeftOut?: (s: ListedSource, e: unknown) => void) {
  const items: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await mergedPage(sources, 'docs', cursor, fetchPage, { pageSize, onLeftOut });
    items.push(...page.items);
    sizes.push(page.items.length);
    cursor = page.nextCursor;
    if (cursor === undefined) return { items, sizes };
  }
  throw new Error('the listing never ended');
}

const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));

describe('mergedPage', () => {
  it('lists every item of every source once, in order, for every page size', async () => {
    const expected = [...letters(7).map((x) => `a:${x}`), ...letters(2).map((x) => `c:${x}`)];
    for (const pageSize of [1, 2, 3, 4, 5, 9, 10, 100]) {
      const sources = [new FakeSource('a', letters(7)), new FakeSource('b', []), new FakeSource('c', letters(2))];
      const { items, sizes } = await readAll(sources, pageSize);
      expect(items, `pageSize ${pageSize}`).toEqual(expected);
      expect(sizes.slice(0, -1).every((size) => size === pageSize)).toBe(true);
    }
  });

  it('takes part of a source page and goes on from the offset with the same source cursor', async () => {
    const a = new FakeSource('a', letters(6), 4);
    const first = await mergedPage([a], 'docs', undefined, fetchPage, { pageSize: 3 });
    expect(first.items).toEqual(['a:a', 'a:b', 'a:c']);
    const second = await mergedPage([a], 'docs', first.nextCursor, fetchPage, { pageSize: 3 });
    expect(second.items).toEqual(['a:d', 'a:e', 'a:f']);
    expect(second.nextCursor).toBeUndefined();
    expect(a.fetches).toEqual([undefined, undefined, '@4']);
  });

  it('skips sources without the list, and gives no cursor that would lead only to them', async () => {
    const sources = [
      new FakeSource('a', letters(2)),
      new FakeSource('none', undefined),
      new FakeSource('x', undefined),
    ];
    const page = await mergedPage(sources, 'docs', undefined, fetchPage, { pageSize: 2 });
    expect(page).toEqual({ items: ['a:a', 'a:b'] });
    expect(sources[1]!.fetches).toEqual([]);
    expect(await mergedPage(sources, 'other', undefined, fetchPage, { pageSize: 2 })).toEqual({ items: [] });
    expect(await mergedPage([], 'docs', undefined, fetchPage, { pageSize: 2 })).toEqual({ items: [] });
  });

  it('leaves out a source that is down or fails its first page, and says so', async () => {
    const down = new FakeSource('down', letters(2));
    down.ready = false;
    const broken = new FakeSource('broken', letters(2));
    broken.failFirst = true;
    const left: string[] = [];
    const { items } = await readAll([down, broken, new FakeSource('ok', letters(1))], 10, (source, error) =>
      left.push(`${source.name}: ${String(error)}`),
    );
    expect(items).toEqual(['ok:a']);
    expect(down.fetches).toEqual([]);
    expect(left).toEqual(['broken: Error: broken is broken']);
  });

  it("gives a later page's failure to the caller (the listing cannot go on without it)", async () => {
    const a = new FakeSource('a', letters(6), 2);
    a.failCursor = '@2';
    const first = await mergedPage([a], 'docs', undefined, fetchPage, { pageSize: 2 });
    await expect(mergedPage([a], 'docs', first.nextCursor, fetchPage, { pageSize: 2 })).rejects.toThrow(
      'a lost page @2',
    );
    // Failing in the middle of a page also throws: a part of the page was given already.
    const b = new FakeSource('b', letters(3), 3);
    const part = await mergedPage([b], 'docs', undefined, fetchPage, { pageSize: 1 });
    b.failFirst = true;
    await expect(mergedPage([b], 'docs', part.nextCursor, fetchPage, { pageSize: 1 })).rejects.toThrow('b is broken');
  });

  it('goes on with a source that went down between pages while it has a cursor there', async () => {
    const a = new FakeSource('a', letters(4), 2);
    const first = await mergedPage([a], 'docs', undefined, fetchPage, { pageSize: 2 });
    a.ready = false;
    expect((await mergedPage([a], 'docs', first.nextCursor, fetchPage, { pageSize: 2 })).items).toEqual(['a:c', 'a:d']);
  });

  it(`reads at most ${MAX_PAGES_PER_LIST_PAGE} source pages for one page, and gives a cursor to go on`, async () => {
    const empties = Array.from({ length: 60 }, (_, i) => new FakeSource(`e${i}`, []));
    const sources = [...empties, new FakeSource('last', letters(1))];
    const first = await mergedPage(sources, 'docs', undefined, fetchPage, { pageSize: 5 });
    expect(first.items).toEqual([]);
    expect(first.nextCursor).toBeDefined();
    expect(empties.filter((source) => source.fetches.length > 0)).toHaveLength(MAX_PAGES_PER_LIST_PAGE);
    const second = await mergedPage(sources, 'docs', first.nextCursor, fetchPage, { pageSize: 5 });
    expect(second).toEqual({ items: ['last:a'] });
  });

  it('refuses a cursor of another list or past the sources, and a bad page size', async () => {
    const sources = [new FakeSource('a', letters(4))];
    const other = encodeCursor('tools', { source: 0, offset: 1 });
    await expect(mergedPage(sources, 'docs', other, fetchPage, { pageSize: 2 })).rejects.toSatisfy(
      (error) => InvalidCursorError.isInstance(error) && error.problem === 'other-list',
    );
    const past = encodeCursor('docs', { source: 1, offset: 0 });
    await expect(mergedPage(sources, 'docs', past, fetchPage, { pageSize: 2 })).rejects.toThrow(/out of range/);
    for (const pageSize of [0, -1, 1.5, Number.NaN]) {
      await expect(mergedPage(sources, 'docs', undefined, fetchPage, { pageSize })).rejects.toThrow(
        InvalidArgumentError,
      );
    }
    expect(sources[0]!.fetches).toEqual([]);
  });
});

describe('pageOf', () => {
  it('pages a whole list, with a cursor while items remain', () => {
    const items = letters(5);
    const first = pageOf('tools', items, undefined, 2);
    expect(first.items).toEqual(['a', 'b']);
    const second = pageOf('tools', items, first.nextCursor, 2);
    expect(second.items).toEqual(['c', 'd']);
    expect(pageOf('tools', items, second.nextCursor, 2)).toEqual({ items: ['e'] });
    expect(pageOf('tools', letters(2), undefined, 2)).toEqual({ items: ['a', 'b'] });
    // A list that grew keeps its offsets.
    expect(pageOf('tools', [...items, 'f', 'g'], second.nextCursor, 2).items).toEqual(['e', 'f']);
  });

  it("refuses another list's cursor and an unknown one", () => {
    const cursor = pageOf('prompts', letters(5), undefined, 2).nextCursor;
    expect(() => pageOf('tools', letters(5), cursor, 2)).toThrow(InvalidCursorError);
    expect(() => pageOf('tools', letters(5), 'bogus', 2)).toThrow(/not one this listing gave/);
    expect(() => pageOf('tools', letters(5), encodeCursor('tools', { source: 1, offset: 0 }), 2)).toThrow(
      /out of range/,
    );
  });
});
