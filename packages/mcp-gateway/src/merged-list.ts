import { decodeCursor, encodeCursor, type ListPosition, type PagedList } from './list-cursor.js';
import type { Logger } from './logger.js';
import type { McpUpstream } from './mcp-upstream.js';

/** Most upstream pages one merged list page reads (servers without items cost one each). */
const MAX_PAGES_PER_LIST_PAGE = 50;

/** What a merged list is read from: the upstreams in order, the page size, where to warn. */
export interface MergedListSource {
  upstreams: readonly McpUpstream[];
  pageSize: number;
  logger: Logger;
}

/** One page of an upstream's list: its items (already renamed) and its own next cursor. */
export interface UpstreamPage<T> {
  items: T[];
  nextCursor?: string;
}

function offers(upstream: McpUpstream, list: PagedList): boolean {
  const capabilities = upstream.capabilities;
  return list === 'prompts' ? Boolean(capabilities?.prompts) : Boolean(capabilities?.resources);
}

/**
 * One page of a list merged over the upstreams, in their order, `pageSize` items at most, and the
 * `nextCursor` of the next page (none after the last). A page may take items of several upstreams
 * and a part of one upstream page; the cursor says where it stopped (see `list-cursor.ts`). A server
 * that is down, or fails its first page, is left out; a later page's failure is the caller's.
 */
export async function mergedPage<T>(
  source: MergedListSource,
  list: PagedList,
  cursor: string | undefined,
  fetch: (upstream: McpUpstream, cursor: string | undefined) => Promise<UpstreamPage<T>>,
): Promise<{ items: T[]; next: { nextCursor?: string } }> {
  const { upstreams, pageSize, logger } = source;
  let position: ListPosition =
    cursor === undefined ? { server: 0, offset: 0 } : decodeCursor(list, cursor, upstreams.length);
  const items: T[] = [];
  for (let read = 0; read < MAX_PAGES_PER_LIST_PAGE && items.length < pageSize; read++) {
    const upstream = upstreams[position.server];
    if (!upstream) break;
    const nextServer = { server: position.server + 1, offset: 0 };
    if (!offers(upstream, list) || (upstream.status !== 'ready' && position.cursor === undefined)) {
      position = nextServer;
      continue;
    }
    let page: UpstreamPage<T>;
    try {
      page = await fetch(upstream, position.cursor);
    } catch (error) {
      if (position.cursor !== undefined || position.offset > 0) throw error;
      logger.warn(`server "${upstream.name}": its ${list} are left out of a list: ${String(error)}`);
      position = nextServer;
      continue;
    }
    const taken = page.items.slice(position.offset, position.offset + pageSize - items.length);
    items.push(...taken);
    const offset = position.offset + taken.length;
    if (offset < page.items.length) position = { ...position, offset };
    else if (page.nextCursor) position = { server: position.server, cursor: page.nextCursor, offset: 0 };
    else position = nextServer;
  }
  // No cursor that would lead only to servers without such a list.
  while (position.offset === 0 && position.cursor === undefined && upstreams[position.server]) {
    if (offers(upstreams[position.server]!, list)) break;
    position = { server: position.server + 1, offset: 0 };
  }
  return { items, next: upstreams[position.server] ? { nextCursor: encodeCursor(list, position) } : {} };
}
