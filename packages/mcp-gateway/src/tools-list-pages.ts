import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { pageOf } from '@toolscout/core/sources';
import { cursorErrorAsMcp } from './list-cursor.js';

/** A request handler as the SDK keeps it: the raw request and the handler's extra. */
export type RawRequestHandler = (request: { method: string; params?: unknown }, extra: unknown) => Promise<unknown>;

/**
 * Replaces the handler of `method` on `server` with `wrap(handler)`, to add behaviour around a
 * handler someone else set (the search server's `tools/list` and `tools/call`). The SDK keeps its
 * handlers in a private map; without it (another SDK version), the handler stays as it is and
 * `false` is returned.
 */
export function wrapRequestHandler(
  server: Server,
  method: string,
  wrap: (handler: RawRequestHandler) => RawRequestHandler,
): boolean {
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return false;
  const handler = handlers.get(method) as RawRequestHandler | undefined;
  if (!handler) return false;
  handlers.set(method, wrap(handler));
  return true;
}

/**
 * One page of a `tools/list` result: core's {@link pageOf} over its tools (a session's offered tools
 * only grow at the end, so an offset stays valid between pages). An unknown cursor is a -32602.
 */
export function pageOfTools<T extends { tools: unknown[] }>(
  result: T,
  cursor: string | undefined,
  pageSize: number,
): T {
  let page: ReturnType<typeof pageOf>;
  try {
    page = pageOf('tools', result.tools, cursor, pageSize);
  } catch (error) {
    throw cursorErrorAsMcp(error);
  }
  const { nextCursor: _ignored, ...rest } = result as T & { nextCursor?: string };
  const tools = { ...rest, tools: page.items } as T;
  return page.nextCursor === undefined ? tools : { ...tools, nextCursor: page.nextCursor };
}
