import { InvalidArgumentError } from '../errors.js';
import { decodeCursor, encodeCursor, type ListPosition } from './page-cursor.js';

/** Most source pages one merged page reads (sources without the list cost one each). */
export const MAX_PAGES_PER_LIST_PAGE = 50;

/** The default number of items in a page of a listing. */
export const DEFAULT_PAGE_SIZE = 100;

/** A source as a merged listing sees it: its name, which lists it has, whether it answers now. */
export interface ListedSource {
  /** The source's name, for warnings. */
  readonly name: string;
  /** Whether it connected and answers now; one that does not is left out of new pages. */
  readonly ready: boolean;
  /** Whether it has `list` at all; one that has not is skipped. */
  has(list: string): boolean;
}

/** One page of a source's list: its items (already renamed) and its own next cursor. */
export interface SourcePage<T> {
  items: T[];
  nextCursor?: string;
}

/** How a merged page is read: its size, and who hears of a source left out. */
export interface MergedPageOptions {
  /** Most items in the page (an integer >= 1). */
  pageSize: number;
  /** Told when a source's first page failed and its items are left out of the listing. */
  onLeftOut?: (source: ListedSource, error: unknown) => void;
}

/** A page of a listing: its items and the cursor of the next page (none after the last). */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * One page of `list` merged over `sources` in their order, from `cursor` (none: the first page), with
 * each source's pages read by `fetch`; see the README for what is skipped, left out and refused.
 */
export async function mergedPage<S extends ListedSource, T>(
  sources: readonly S[],
  list: string,
  cursor: string | undefined,
  fetch: (source: S, cursor: string | undefined) => Promise<SourcePage<T>>,
  options: MergedPageOptions,
): Promise<ListPage<T>> {
  const { pageSize } = options;
  checkPageSize(pageSize);
  let position: ListPosition =
    cursor === undefined ? { source: 0, offset: 0 } : decodeCursor(list, cursor, sources.length);
  const items: T[] = [];
  for (let read = 0; read < MAX_PAGES_PER_LIST_PAGE && items.length < pageSize; read++) {
    const source = sources[position.source];
    if (!source) break;
    const nextSource = { source: position.source + 1, offset: 0 };
    if (!source.has(list) || (!source.ready && position.cursor === undefined)) {
      position = nextSource;
      continue;
    }
    let page: SourcePage<T>;
    try {
      page = await fetch(source, position.cursor);
    } catch (error) {
      if (position.cursor !== undefined || position.offset > 0) throw error;
      options.onLeftOut?.(source, error);
      position = nextSource;
      continue;
    }
    const taken = page.items.slice(position.offset, position.offset + pageSize - items.length);
    items.push(...taken);
    const offset = position.offset + taken.length;
    if (offset < page.items.length) position = { ...position, offset };
    else if (page.nextCursor) position = { source: position.source, cursor: page.nextCursor, offset: 0 };
    else position = nextSource;
  }
  // No cursor that would lead only to sources without such a list.
  while (position.offset === 0 && position.cursor === undefined && sources[position.source]) {
    if (sources[position.source]!.has(list)) break;
    position = { source: position.source + 1, offset: 0 };
  }
  return sources[position.source] ? { items, nextCursor: encodeCursor(list, position) } : { items };
}

/**
 * One page of a list held whole (that only grows at its end, so offsets stay valid between pages),
 * from `cursor` (none: the first page), with the cursor of the next page while items remain.
 */
export function pageOf<T>(
  list: string,
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): ListPage<T> {
  checkPageSize(pageSize);
  const offset = cursor === undefined ? 0 : decodeCursor(list, cursor, 1).offset;
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length
    ? { items: page, nextCursor: encodeCursor(list, { source: 0, offset: end }) }
    : { items: page };
}

function checkPageSize(pageSize: number): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new InvalidArgumentError('pageSize', `pageSize must be an integer >= 1, got ${String(pageSize)}.`);
  }
}
