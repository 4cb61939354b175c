import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { InvalidCursorError } from '@toolscout/core/errors';

/** The default page size of the lists the gateway serves (`tools/list`, `resources/list`, ...). */
export { DEFAULT_PAGE_SIZE } from '@toolscout/core/sources';

/** The lists the gateway pages (core's list names): each cursor is good for its own list only. */
export type PagedList = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** An unknown cursor as the specification asks: a -32602 Invalid params naming the method. */
export function invalidCursor(error: InvalidCursorError): McpError {
  const { list, problem } = error;
  const method = list === 'resourceTemplates' ? 'resources/templates/list' : `${list}/list`;
  const why =
    problem === 'unreadable'
      ? 'not one the gateway gave'
      : problem === 'other-list'
        ? `not one of ${list}/list`
        : error.reason;
  return new McpError(
    ErrorCode.InvalidParams,
    `Invalid params for ${method}: unknown cursor (${why}); use the nextCursor of the previous page, or none for the first page.`,
  );
}

/** `error` as the gateway answers it: core's {@link InvalidCursorError} as {@link invalidCursor}, others unchanged. */
export function cursorErrorAsMcp(error: unknown): unknown {
  return InvalidCursorError.isInstance(error) ? invalidCursor(error) : error;
}

/** Reads a page, answering an unknown cursor as {@link invalidCursor}. */
export async function withMcpCursor<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw cursorErrorAsMcp(error);
  }
}
