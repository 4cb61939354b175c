import { ToolscoutError } from '@toolscout/core';
import { checkFor, markerOf } from '@toolscout/core/internal';

/**
 * A new client session refused because every thread the in-memory store keeps is held by a live
 * session: one more would evict a live session's loaded tools. Streamable HTTP answers it with 503.
 */
export class McpConnectionLimitError extends ToolscoutError {
  static override readonly marker = markerOf('McpConnectionLimitError');
  static override readonly isInstance = checkFor<McpConnectionLimitError>(McpConnectionLimitError.marker);

  constructor(
    /** The most threads the store keeps (`memory.maxThreads`). */
    readonly limit: number,
  ) {
    super(
      'mcp-connection-limit',
      `Too many client sessions: ${limit} are connected, as many threads as the loaded-tool store keeps (memory.maxThreads); another one would push a live session's loaded tools out. End unused sessions, retry later, or raise memory.maxThreads.`,
    );
  }
}

/** A client session asked of a {@link McpToolSearchServer} (or a gateway) after `close()`. */
export class McpServerClosedError extends ToolscoutError {
  static override readonly marker = markerOf('McpServerClosedError');
  static override readonly isInstance = checkFor<McpServerClosedError>(McpServerClosedError.marker);

  constructor() {
    super(
      'mcp-server-closed',
      'This McpToolSearchServer is closed: it takes no new client sessions. Create a new one to serve again.',
    );
  }
}
