import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsResultSchema,
  McpError,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidCursorError } from '@toolscout/core/errors';
import { CallsInProgress, pageOf, routeToSession } from '@toolscout/core/sources';
import type { ForwardedCall, UpstreamClientRequest, UpstreamRequestExtra } from './upstream-client-hooks.js';

/** What a request handler of a client session gets from the SDK. */
export type ClientRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * One client session of the gateway: its MCP server and its requests in progress (its subscriptions
 * and log level are kept by core's `SessionInterests`).
 */
export class ClientSession {
  readonly #calls = new CallsInProgress<ClientRequestExtra>();

  constructor(
    readonly server: Server,
    /** What the session advertises beyond tools (the upstreams' offer when it was created). */
    readonly capabilities: ServerCapabilities,
  ) {}

  /** Its requests forwarded to `upstream` and still running, the latest last. */
  callsTo(upstream: string): ClientRequestExtra[] {
    return this.#calls.to(upstream);
  }

  /** Notes a request forwarded to `upstream` until `done` is called. */
  startCall(upstream: string, extra: ClientRequestExtra): () => void {
    return this.#calls.start(upstream, extra);
  }

  /**
   * Wraps the search server's own handlers of this session: `tools/list` paged (core's `pageOf`),
   * and `tools/call` run so that the calls it forwards know the session and request they are for.
   */
  wrapSearchHandlers(pageSize: number): void {
    wrapRequestHandler(this.server, 'tools/list', (list) => async (request, extra) => {
      const { cursor } = (request as { params?: { cursor?: string } }).params ?? {};
      return pageOfTools((await list(request, extra)) as { tools: unknown[] }, cursor, pageSize);
    });
    wrapRequestHandler(this.server, 'tools/call', (call) => (request, extra) => {
      return runForClient(this, extra as ClientRequestExtra, () => call(request, extra));
    });
  }
}

const current = new AsyncLocalStorage<{ session: ClientSession; extra: ClientRequestExtra }>();

/**
 * Runs a client's request handler so that the tool calls it forwards know the session and request
 * they are for (core runs the tool between the two, so they are found by async context).
 */
export function runForClient<T>(session: ClientSession, extra: ClientRequestExtra, run: () => T): T {
  return current.run({ session, extra }, run);
}

/**
 * The {@link ForwardedCall} of a request forwarded to `upstream` for `session`: it is noted as in
 * progress (requests of the upstream are routed to it) until `done`, and the upstream's progress
 * notifications go to the client under the client's own progress token, when it gave one.
 */
export function forwardedCall(session: ClientSession, extra: ClientRequestExtra, upstream: string): ForwardedCall {
  const done = session.startCall(upstream, extra);
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return { done };
  return {
    done,
    onprogress: (progress) => {
      extra
        .sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } })
        .catch(() => {});
    },
  };
}

/** The forwarded call of the client request being handled now, if a client's request is being handled. */
export function currentForwardedCall(upstream: string): ForwardedCall | undefined {
  const store = current.getStore();
  return store ? forwardedCall(store.session, store.extra, upstream) : undefined;
}

/** Where a request of an upstream goes: a session, and the client request it is about, when known. */
export interface RequestRoute {
  session: ClientSession;
  extra?: ClientRequestExtra;
}

/**
 * The client session a request of `upstream` (sampling, elicitation, roots) is for, by core's
 * `routeToSession`; when it cannot tell, the request is refused with an Invalid request that says why.
 */
export function routeUpstreamRequest(
  sessions: Iterable<ClientSession>,
  upstream: string,
  method: string,
  soleSession = false,
): RequestRoute {
  const route = routeToSession<ClientSession, ClientRequestExtra>(sessions, upstream, soleSession);
  if (route.session) {
    return route.call === undefined ? { session: route.session } : { session: route.session, extra: route.call };
  }
  if (route.waiting > 1) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `toolscout-mcp cannot tell which client session this ${method} request of server "${upstream}" is for: ${route.waiting} sessions have requests to it in progress. Send it while serving one session's request only.`,
    );
  }
  const connected =
    route.sessions === 0 ? 'no client is connected' : `${route.sessions} client session(s) are or may be connected`;
  throw new McpError(
    ErrorCode.InvalidRequest,
    `toolscout-mcp cannot tell which client session this ${method} request of server "${upstream}" is for: no client request to it is in progress and ${connected}. Send it while serving a client's request.`,
  );
}

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
 * Sends an upstream's request (sampling, elicitation, roots) on to the client session it is for
 * ({@link routeUpstreamRequest}): on the stream of the client request it is about when there is one, with the upstream's
 * cancellation, a timeout, and the client's progress passed back to the upstream. Refused with an
 * `McpError` when the client lacks the capability.
 */
export function sendToClient(
  sessions: Iterable<ClientSession>,
  upstream: string,
  request: UpstreamClientRequest,
  extra: UpstreamRequestExtra,
  { soleSession, timeout }: { soleSession: boolean; timeout: number },
): Promise<unknown> {
  const route = routeUpstreamRequest(sessions, upstream, request.method, soleSession);
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

/**
 * `error` as the gateway answers it: core's {@link InvalidCursorError} as the specification asks
 * (a -32602 Invalid params naming the method), others unchanged.
 */
export function asMcpCursorError(error: unknown): unknown {
  if (!InvalidCursorError.isInstance(error)) return error;
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

/** A request handler as the SDK keeps it: the raw request and the handler's extra. */
type RawRequestHandler = (request: { method: string; params?: unknown }, extra: unknown) => Promise<unknown>;

/**
 * Replaces the handler of `method` on `server` with `wrap(handler)`, to add behaviour around a
 * handler someone else set (the search server's `tools/list` and `tools/call`). The SDK keeps its
 * handlers in a private map; without it (another SDK version), the handler stays as it is.
 */
function wrapRequestHandler(server: Server, method: string, wrap: (handler: RawRequestHandler) => RawRequestHandler) {
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const handler = handlers instanceof Map ? (handlers.get(method) as RawRequestHandler | undefined) : undefined;
  if (handler) (handlers as Map<string, RawRequestHandler>).set(method, wrap(handler));
}

/**
 * One page of a `tools/list` result: core's {@link pageOf} over its tools (a session's offered tools
 * only grow at the end, so an offset stays valid between pages). An unknown cursor is a -32602.
 */
function pageOfTools(result: { tools: unknown[]; nextCursor?: string }, cursor: string | undefined, pageSize: number) {
  let page: ReturnType<typeof pageOf>;
  try {
    page = pageOf('tools', result.tools, cursor, pageSize);
  } catch (error) {
    throw asMcpCursorError(error);
  }
  const { nextCursor: _ignored, ...rest } = result;
  return page.nextCursor === undefined
    ? { ...rest, tools: page.items }
    : { ...rest, tools: page.items, nextCursor: page.nextCursor };
}
