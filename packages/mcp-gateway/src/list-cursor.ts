import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The lists the gateway pages: each cursor is good for its own list only. */
export type PagedList = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** Where the next page of a list starts: an upstream (by position), its own cursor, and an offset in that page. */
export interface ListPosition {
  /** The upstream's position among the gateway's servers (0 for the gateway's own tools/list). */
  server: number;
  /** The upstream's cursor of the page the position is in (none: its first page). */
  cursor?: string;
  /** How many items of that page were already given. */
  offset: number;
}

/** The longest cursor the gateway reads; it never gives a longer one unless an upstream's own cursor is that long. */
export const MAX_CURSOR_CHARS = 4096;

/** The default page size of the lists the gateway serves (`tools/list`, `resources/list`, ...). */
export const DEFAULT_PAGE_SIZE = 100;

/** An opaque cursor for `position` in `list`. */
export function encodeCursor(list: PagedList, position: ListPosition): string {
  return Buffer.from(JSON.stringify([list, position.server, position.cursor ?? null, position.offset])).toString(
    'base64url',
  );
}

function badCursor(list: PagedList, why: string): McpError {
  const method = list === 'resourceTemplates' ? 'resources/templates/list' : `${list}/list`;
  return new McpError(
    ErrorCode.InvalidParams,
    `Invalid params for ${method}: unknown cursor (${why}); use the nextCursor of the previous page, or none for the first page.`,
  );
}

/**
 * Reads a cursor the gateway gave for `list`. Anything else (not one of ours, another list's, too
 * long, out of range) is a -32602 Invalid params, as the specification asks for an unknown cursor.
 */
export function decodeCursor(list: PagedList, cursor: string, servers: number): ListPosition {
  if (cursor.length > MAX_CURSOR_CHARS) throw badCursor(list, `over ${MAX_CURSOR_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor(list, 'not one the gateway gave');
  }
  if (!Array.isArray(value) || value.length !== 4) throw badCursor(list, 'not one the gateway gave');
  const [kind, server, upstreamCursor, offset] = value as unknown[];
  if (kind !== list) throw badCursor(list, `not one of ${list}/list`);
  const inRange = (n: unknown, max: number) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max;
  if (!inRange(server, servers - 1) || !inRange(offset, Number.MAX_SAFE_INTEGER)) {
    throw badCursor(list, 'out of range');
  }
  if (upstreamCursor !== null && typeof upstreamCursor !== 'string') throw badCursor(list, 'not one the gateway gave');
  return {
    server: server as number,
    offset: offset as number,
    ...(typeof upstreamCursor === 'string' ? { cursor: upstreamCursor } : {}),
  };
}
