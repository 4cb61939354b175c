import { ToolscoutError } from '@toolscout/core';
import { checkFor, markerOf } from '@toolscout/core/internal';

/**
 * Why a call to an upstream MCP server did not get an answer:
 * - `unavailable`: the server is down (failed to start, crashed, or is being restarted);
 * - `timeout`: it did not answer within the per-call timeout;
 * - `disconnected`: the connection closed while the call ran;
 * - `unreadable`: its answer could not be read (not JSON-RPC, not the MCP shape, nested too deeply).
 */
export type McpUpstreamErrorReason = 'unavailable' | 'timeout' | 'disconnected' | 'unreadable';

/** A call to an upstream MCP server that could not be answered; the message names the server and says why. */
export class McpUpstreamError extends ToolscoutError {
  static override readonly marker = markerOf('McpUpstreamError');
  static override readonly isInstance = checkFor<McpUpstreamError>(McpUpstreamError.marker);

  constructor(
    /** The upstream server's name (its key in the `mcpServers` config). */
    readonly server: string,
    readonly reason: McpUpstreamErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('mcp-upstream', message, options);
  }
}
