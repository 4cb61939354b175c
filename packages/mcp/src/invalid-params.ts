import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** What a schema's parse error says: where, and what is wrong there. */
export interface ZodLikeError extends Error {
  issues: { path: PropertyKey[]; message: string }[];
}

/**
 * A schema's parse error: `ZodError` (zod classic) or `$ZodError` (zod mini, which the MCP SDK
 * parses requests and results with).
 */
export function isZodError(error: unknown): error is ZodLikeError {
  return (
    error instanceof Error && /^\$?ZodError$/.test(error.name) && Array.isArray((error as Partial<ZodLikeError>).issues)
  );
}

type RequestHandler = (request: { method: string }, extra: unknown) => Promise<unknown>;

/**
 * Makes a server answer a request whose params do not fit its method with -32602 Invalid params,
 * saying which ones, instead of -32603 Internal error: the SDK parses a request with its method's
 * schema before the handler runs and lets the parse error through. Wraps every handler the server
 * has (initialize, ping, tools/list, tools/call); call after the last `setRequestHandler`.
 */
export function answerInvalidParams(server: Server): void {
  // The SDK keeps its handlers in a private map; without it, bad params stay -32603.
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers as Map<string, RequestHandler>) {
    handlers.set(method, async (request: { method: string }, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        if (!isZodError(error)) throw error;
        const issues = error.issues.map(
          (issue) => `${issue.path.map(String).join('.') || 'the request'}: ${issue.message}`,
        );
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${issues.join('; ')}.`);
      }
    });
  }
}
