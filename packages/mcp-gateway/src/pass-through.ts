import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnyObjectSchema, AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  CompleteRequestSchema,
  CompleteResultSchema,
  EmptyResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  type ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SubscriptionLimitError } from '@toolscout/core/errors';
import {
  audienceOf,
  type ListedSource,
  mergedPage,
  SessionInterests,
  type SourceItem,
  type SourceNames,
  type SourcePage,
} from '@toolscout/core/sources';
import { answerInvalidParams } from '@toolscout/mcp/internal';
import {
  asMcpCursorError,
  type ClientRequestExtra,
  ClientSession,
  currentForwardedCall,
  forwardedCall,
  sendToClient,
} from './client-sessions.js';
import type { Logger } from './logger.js';
import type { McpUpstream } from './mcp-upstream.js';
import type {
  UpstreamClientHooks,
  UpstreamClientRequest,
  UpstreamNotification,
  UpstreamRequestExtra,
} from './upstream-client-hooks.js';
import { gatewayName, MERGED_LISTS, type MergedList, send } from './upstream-lists.js';

export interface PassThroughOptions {
  /** The gateway's upstreams by name, in the order their lists are merged. Filled after construction. */
  upstreams: ReadonlyMap<string, McpUpstream>;
  /** Prompts named like tools (`<server>__<prompt>`), resource URIs as `<server>+<uri>`. */
  names: SourceNames;
  /** Items per page of every list the gateway serves. */
  pageSize: number;
  /** How long a request forwarded to a client (sampling, elicitation, roots) may take. */
  requestTimeoutMs: number;
  /** One client session at a time (stdio): a server's request no client request caused goes to it. */
  soleSession: boolean;
  logger: Logger;
}

/**
 * Everything an upstream offers besides tools, passed through to each client session: resources
 * (merged lists, read, subscriptions), prompts, completions, logging, progress, cancellation, and
 * the upstreams' requests to clients (sampling, elicitation, roots), each routed to the session it
 * is for. Names are namespaced by core's {@link SourceNames}. A session advertises what its upstreams
 * offer, at the time it is created.
 */
export class McpPassThrough {
  readonly #options: PassThroughOptions;
  /** The client sessions, their subscriptions and log levels, and the level set on each upstream. */
  readonly #interests = new SessionInterests<ClientSession>();
  /** What upstreams send and ask, and the tool calls forwarded to them: give these to every upstream. */
  readonly hooks: UpstreamClientHooks;

  constructor(options: PassThroughOptions) {
    this.#options = options;
    this.hooks = {
      onNotification: (upstream, notification) => this.#onNotification(upstream, notification),
      onRequest: (upstream, request, extra) => this.#onRequest(upstream, request, extra),
      onReady: (upstream) => this.#restore(upstream),
      forwardCall: (upstream) => currentForwardedCall(upstream.name),
    };
  }

  /** The union of what the upstreams offer besides tools (their last known capabilities). */
  capabilities(): ServerCapabilities {
    const all = [...this.#options.upstreams.values()].map((upstream) => upstream.capabilities ?? {});
    const capabilities: ServerCapabilities = {};
    if (all.some((c) => c.resources)) {
      capabilities.resources = {
        subscribe: all.some((c) => c.resources?.subscribe),
        listChanged: all.some((c) => c.resources?.listChanged),
      };
    }
    if (all.some((c) => c.prompts)) capabilities.prompts = { listChanged: all.some((c) => c.prompts?.listChanged) };
    if (all.some((c) => c.completions)) capabilities.completions = {};
    if (all.some((c) => c.logging)) capabilities.logging = {};
    return capabilities;
  }

  /**
   * Makes `server` (one client session, not yet connected) a transparent MCP server: advertises and
   * answers what the upstreams offer, pages `tools/list`, and forwards progress of its tool calls.
   */
  attach(server: Server): void {
    const capabilities = this.capabilities();
    const session = new ClientSession(server, capabilities);
    server.registerCapabilities(capabilities);
    session.wrapSearchHandlers(this.#options.pageSize);
    this.#answerOffers(server, session, capabilities);
    if (capabilities.logging) {
      server.setRequestHandler(SetLevelRequestSchema, async (request) => {
        this.#interests.setLogLevel(session, request.params.level);
        await this.#applyLogLevel();
        return {};
      });
    }
    answerInvalidParams(server);
    this.#interests.addSession(session);
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      this.#detach(session);
    };
  }

  /** Answers the merged lists and the by-name requests of what the session advertises, and subscriptions. */
  #answerOffers(server: Server, session: ClientSession, capabilities: ServerCapabilities): void {
    const { names } = this.#options;
    for (const { method, request: schema, result: resultSchema, list, field, capability } of MERGED_LISTS) {
      if (!capabilities[capability]) continue;
      answer(server, schema, async (request, extra) => {
        const { cursor } = (request as { params?: { cursor?: string } }).params ?? {};
        const page = await this.#mergedPage(list, cursor, async (upstream, at) => {
          const params = at === undefined ? {} : { cursor: at };
          const result = await this.#forward(session, extra, upstream, method, params, resultSchema);
          const items = (result as Record<string, Record<string, string>[]>)[list]!.map((item) => ({
            ...item,
            [field]: gatewayName(names, upstream.name, field, item[field]!),
          }));
          return { items, nextCursor: (result as { nextCursor?: string }).nextCursor };
        });
        return { [list]: page.items, ...next(page) };
      });
    }
    for (const [schema, resultSchema, capability, key] of BY_NAME) {
      if (!capabilities[capability]) continue;
      answer(server, schema, async (request, extra) => {
        const { method, params } = request as { method: string; params: Record<string, unknown> };
        const { item, params: forwarded } = this.#target(params, key);
        const upstream = this.#upstream(item.source);
        return this.#renamed(
          item.source,
          await this.#forward(session, extra, upstream, method, forwarded, resultSchema),
        );
      });
    }
    if (capabilities.resources?.subscribe) this.#answerSubscriptions(server, session);
  }

  #answerSubscriptions(server: Server, session: ClientSession): void {
    const interests = this.#interests;
    server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
      const item = this.#resource(request.params.uri);
      if (interests.holds(session, item.source, item.name)) return {};
      try {
        interests.checkRoom(session);
        const upstream = this.#upstream(item.source);
        if (!upstream.capabilities?.resources?.subscribe) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Server "${item.source}" does not support resource subscriptions.`,
          );
        }
        const params = { ...request.params, uri: item.name };
        const noted = await interests.subscribe(session, item.source, item.name, () =>
          this.#forward(session, extra, upstream, 'resources/subscribe', params, EmptyResultSchema),
        );
        // The session closed meanwhile: end what no session holds.
        if (!noted && !interests.isSubscribed(item.source, item.name)) void this.#unsubscribeAt(item);
      } catch (error) {
        if (!SubscriptionLimitError.isInstance(error)) throw error;
        throw new McpError(ErrorCode.InvalidRequest, error.message);
      }
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      const item = this.#resource(request.params.uri);
      if (interests.unsubscribe(session, item.source, item.name)) await this.#unsubscribeAt(item);
      return {};
    });
  }

  /** Sends a client's request on to an upstream, with its cancellation, progress and timeout. */
  async #forward<T extends AnySchema>(
    session: ClientSession,
    extra: ClientRequestExtra,
    upstream: McpUpstream,
    method: string,
    params: object,
    schema: T,
  ): Promise<SchemaOutput<T>> {
    const call = forwardedCall(session, extra, upstream.name);
    try {
      return await send(upstream, method, params, schema, { signal: extra.signal, onprogress: call.onprogress });
    } finally {
      call.done();
    }
  }

  /**
   * Reads a resource by its gateway URI, for a caller that is not a client session (the
   * `read_resource` tool). Throws -32602 for a URI of no server.
   */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const { item, params } = this.#target({ uri }, 'uri');
    const result = await send(this.#upstream(item.source), 'resources/read', params, ReadResourceResultSchema, {
      signal,
    });
    return this.#renamed(item.source, result);
  }

  /** A result with its contents' URIs (a read's) under their gateway names; any other result unchanged. */
  #renamed<T extends Record<string, unknown>>(server: string, result: T): T {
    if (!Array.isArray(result.contents)) return result;
    const { names } = this.#options;
    const contents = (result.contents as { uri: string }[]).map((c) => ({ ...c, uri: names.uri(server, c.uri) }));
    return { ...result, contents };
  }

  /**
   * The item a by-name request is about (its param `key`; in a completion's `ref`, by the ref's
   * type), and the request's params naming it as its upstream does.
   */
  #target(params: Record<string, unknown>, key: NamedBy): { item: SourceItem; params: Record<string, unknown> } {
    if (key === 'ref') {
      const ref = params.ref as Record<string, unknown>;
      const inner = this.#target(ref, ref.type === 'ref/prompt' ? 'name' : 'uri');
      return { item: inner.item, params: { ...params, ref: inner.params } };
    }
    const name = params[key] as string;
    const item = key === 'uri' ? this.#resource(name) : this.#prompt(name);
    return { item, params: { ...params, [key]: item.name } };
  }

  #upstream(server: string): McpUpstream {
    const upstream = this.#options.upstreams.get(server);
    if (!upstream) throw new McpError(ErrorCode.InvalidParams, `Unknown server "${server}".`);
    return upstream;
  }

  #prompt(name: string): SourceItem {
    const item = this.#options.names.resolveName(name);
    if (!item) throw unknownName('prompt', name);
    return item;
  }

  /**
   * The upstream and URI of a gateway URI; one without a server prefix (e.g. a resource link in a
   * tool's result) goes to the only server with resources, when there is only one.
   */
  #resource(uri: string): SourceItem {
    const { names, upstreams } = this.#options;
    const offering = [...upstreams.values()].flatMap((upstream) =>
      upstream.capabilities?.resources ? [upstream.name] : [],
    );
    const item = names.resolveUri(uri, offering);
    if (!item) throw unknownName('resource', uri);
    // A resource URI is absolute (RFC 3986): anything else is the client's mistake, answered here
    // rather than left to the upstream (whose URL parser may fail as an internal error).
    if (!URL.canParse(item.name)) throw unknownName('resource', uri);
    return item;
  }

  /**
   * One page of `list` merged over the upstreams in order (core's {@link mergedPage}): an upstream
   * without the list is skipped, one that is down or fails its first page is left out with a warning.
   */
  #mergedPage<T>(
    list: MergedList['list'],
    cursor: string | undefined,
    fetch: (upstream: McpUpstream, cursor: string | undefined) => Promise<SourcePage<T>>,
  ) {
    const { upstreams, pageSize, logger } = this.#options;
    const sources = [...upstreams.values()].map(listedUpstream);
    return mergedPage(sources, list, cursor, (source, at) => fetch(source.upstream, at), {
      pageSize,
      onLeftOut: (source, error) =>
        logger.warn(`server "${source.name}": its ${list} are left out of a list: ${String(error)}`),
    }).catch((error: unknown) => {
      throw asMcpCursorError(error);
    });
  }

  /** Ends at its upstream a subscription no session holds any more. */
  async #unsubscribeAt(item: SourceItem): Promise<void> {
    const upstream = this.#options.upstreams.get(item.source);
    if (upstream?.status !== 'ready') return;
    await send(upstream, 'resources/unsubscribe', { uri: item.name }, EmptyResultSchema).catch((error: unknown) =>
      this.#options.logger.debug(`server "${item.source}": unsubscribing failed: ${String(error)}`),
    );
  }

  /** The most detailed level any session asked for, set on every upstream with logging when it changed. */
  async #applyLogLevel(only?: McpUpstream): Promise<void> {
    const targets = only ? [only] : [...this.#options.upstreams.values()];
    await Promise.all(
      targets.map(async (upstream) => {
        if (!upstream.capabilities?.logging || upstream.status !== 'ready') return;
        const level = this.#interests.logLevelFor(upstream.name, Boolean(only));
        if (level === undefined) return;
        try {
          await send(upstream, 'logging/setLevel', { level }, EmptyResultSchema);
          this.#interests.logLevelSet(upstream.name, level);
        } catch (error) {
          this.#options.logger.warn(`server "${upstream.name}": logging/setLevel ${level} failed: ${String(error)}`);
        }
      }),
    );
  }

  /** After a (re)start: the upstream forgot subscriptions and log level; ask again. */
  #restore(upstream: McpUpstream): void {
    const uris = this.#interests.sourceRestarted(upstream.name);
    void this.#applyLogLevel(upstream);
    for (const uri of uris) {
      send(upstream, 'resources/subscribe', { uri }, EmptyResultSchema).catch((error: unknown) =>
        this.#options.logger.warn(`server "${upstream.name}": re-subscribing failed: ${String(error)}`),
      );
    }
  }

  #detach(session: ClientSession): void {
    if (!this.#interests.sessions().includes(session)) return;
    for (const item of this.#interests.removeSession(session)) void this.#unsubscribeAt(item);
  }

  #onNotification(upstream: McpUpstream, notification: UpstreamNotification): void {
    const { names } = this.#options;
    const sessions = this.#interests.sessions();
    const send = (session: ClientSession, message: Parameters<Server['notification']>[0]) => {
      if (session.server.transport) session.server.notification(message).catch(() => {});
    };
    switch (notification.method) {
      case 'notifications/resources/updated': {
        const params = { ...notification.params, uri: names.uri(upstream.name, notification.params.uri) };
        for (const session of this.#interests.subscribers(upstream.name, notification.params.uri)) {
          send(session, { method: notification.method, params });
        }
        return;
      }
      case 'notifications/resources/list_changed':
      case 'notifications/prompts/list_changed': {
        const capability = notification.method === 'notifications/prompts/list_changed' ? 'prompts' : 'resources';
        for (const session of sessions) {
          if (session.capabilities[capability]) send(session, { method: notification.method });
        }
        return;
      }
      case 'notifications/message': {
        const { level, logger } = notification.params;
        const params = { ...notification.params, logger: logger ? `${upstream.name}/${logger}` : upstream.name };
        for (const session of this.#logAudience(upstream, sessions)) {
          if (this.#interests.hears(session, level)) send(session, { method: notification.method, params });
        }
      }
    }
  }

  /** Who may see a log message of `upstream` (core's `audienceOf`); a message no one may see is noted. */
  #logAudience(upstream: McpUpstream, sessions: ClientSession[]): ClientSession[] {
    const audience = audienceOf(sessions, upstream.name);
    if (audience.waiting > 1) {
      this.#options.logger.debug(
        `server "${upstream.name}": a log message dropped: ${audience.waiting} sessions have requests to it in progress`,
      );
    }
    return audience.sessions;
  }

  #onRequest(upstream: McpUpstream, request: UpstreamClientRequest, extra: UpstreamRequestExtra): Promise<unknown> {
    const { soleSession, requestTimeoutMs: timeout } = this.#options;
    return sendToClient(this.#interests.sessions(), upstream.name, request, extra, { soleSession, timeout });
  }
}

/** An upstream as core's merged list reads it: its name, whether it is up, which lists it has. */
function listedUpstream(upstream: McpUpstream): ListedSource & { upstream: McpUpstream } {
  return {
    upstream,
    name: upstream.name,
    get ready() {
      return upstream.status === 'ready';
    },
    has: (list) =>
      list === 'prompts' ? Boolean(upstream.capabilities?.prompts) : Boolean(upstream.capabilities?.resources),
  };
}

/** The `nextCursor` of a result, when there is a next page. */
function next(page: { nextCursor?: string }): { nextCursor?: string } {
  return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
}

/** Which param of a by-name request names its item: a resource's URI, a prompt's name, a completion's ref. */
type NamedBy = 'uri' | 'name' | 'ref';

/**
 * The requests forwarded to the upstream their item names: the request, the result, the capability
 * that offers it, and the param naming the item. A request more is a row more.
 */
const BY_NAME = [
  [ReadResourceRequestSchema, ReadResourceResultSchema, 'resources', 'uri'],
  [GetPromptRequestSchema, GetPromptResultSchema, 'prompts', 'name'],
  [CompleteRequestSchema, CompleteResultSchema, 'completions', 'ref'],
] as const;

/** Sets a handler of a row of a table above (the SDK types each request schema's handler apart). */
function answer(
  server: Server,
  schema: AnyObjectSchema,
  handler: (request: unknown, extra: ClientRequestExtra) => Promise<unknown>,
): void {
  server.setRequestHandler(schema as typeof ListResourcesRequestSchema, handler as never);
}

/** The -32602 for a prompt name or URI that leads to no server, saying what the names look like. */
function unknownName(kind: 'prompt' | 'resource', name: string): McpError {
  const shown = name.length > 200 ? `${name.slice(0, 200)}… (${name.length} characters)` : name;
  const form =
    kind === 'prompt'
      ? 'prompts/list names prompts <server>__<prompt>'
      : 'resources/list and resources/templates/list give URIs as <server>+<uri>';
  return new McpError(ErrorCode.InvalidParams, `Unknown ${kind} "${shown}": ${form}.`);
}
