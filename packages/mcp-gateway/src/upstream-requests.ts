import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsResultSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestRoute } from './client-sessions.js';
import type { UpstreamClientRequest, UpstreamRequestExtra } from './upstream-client-hooks.js';

type ClientCapabilities = NonNullable<ReturnType<Server['getClientCapabilities']>>;

/** What a client lacks to answer `request`, in words; undefined when it can. */
function missingCapability(request: UpstreamClientRequest, client: ClientCapabilities): string | undefined {
  switch (request.method) {
    case 'sampling/createMessage':
      if (!client.sampling) return 'sampling';
      return request.params.tools && !client.sampling.tools ? 'sampling with tools' : undefined;
    case 'elicitation/create': {
      if (!client.elicitation) return 'elicitation';
      const mode = request.params.mode ?? 'form';
      const modes = client.elicitation as { form?: unknown; url?: unknown };
      if (mode === 'url' && !modes.url) return 'URL-mode elicitation';
      return mode === 'form' && modes.url && !modes.form ? 'form-mode elicitation' : undefined;
    }
    case 'roots/list':
      return client.roots ? undefined : 'roots';
  }
}

function resultSchemaOf(request: UpstreamClientRequest) {
  switch (request.method) {
    case 'sampling/createMessage':
      return request.params.tools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema;
    case 'elicitation/create':
      return ElicitResultSchema;
    case 'roots/list':
      return ListRootsResultSchema;
  }
}

/** `request` without the upstream's progress token (the client gets the gateway's own). */
function withoutProgressToken(request: UpstreamClientRequest): { method: string; params: Record<string, unknown> } {
  const { _meta, ...params } = (request.params ?? {}) as { _meta?: { progressToken?: unknown } };
  const { progressToken: _token, ...meta } = _meta ?? {};
  return { method: request.method, params: { ...params, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) } };
}

/**
 * Sends an upstream's request (sampling, elicitation, roots) on to the client session `route`
 * names: on the stream of the client request it is about when there is one, with the upstream's
 * cancellation, a timeout, and the client's progress passed back to the upstream. Refused with an
 * `McpError` when the client lacks the capability.
 */
export function sendToClient(
  route: RequestRoute,
  upstream: string,
  request: UpstreamClientRequest,
  extra: UpstreamRequestExtra,
  timeout: number,
): Promise<unknown> {
  const { server } = route.session;
  const missing = missingCapability(request, server.getClientCapabilities() ?? {});
  if (missing) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `The client of this toolscout-mcp session does not support ${missing}, which server "${upstream}" asked for (${request.method}).`,
    );
  }
  const onprogress =
    extra.progressToken === undefined
      ? undefined
      : (progress: { progress: number; total?: number; message?: string }) => void extra.sendProgress(progress);
  const options = { signal: extra.signal, timeout, ...(onprogress ? { onprogress } : {}) };
  const send = route.extra?.sendRequest ?? server.request.bind(server);
  return send(withoutProgressToken(request) as never, resultSchemaOf(request), options);
}
