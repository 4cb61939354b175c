import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  type ClientRequest,
  CompleteRequestSchema,
  CompleteResultSchema,
  EmptyResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  type LoggingLevel,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { answerInvalidParams } from '@toolscout/mcp/internal';
import {
  type ClientRequestExtra,
  ClientSession,
  currentForwardedCall,
  forwardedCall,
  MAX_SUBSCRIPTIONS_PER_SESSION,
  routeUpstreamRequest,
  runForClient,
  subscriptionKey,
} from './client-sessions.js';
import type { Logger } from './logger.js';
import type { McpUpstream } from './mcp-upstream.js';
import { type MergedListSource, mergedPage } from './merged-list.js';
import { pageOfTools, wrapRequestHandler } from './tools-list-pages.js';
import type {
  UpstreamClientHooks,
  UpstreamClientRequest,
  UpstreamNotification,
  UpstreamRequestExtra,
} from './upstream-client-hooks.js';
import { type UpstreamItem, type UpstreamNames, unknownName } from './upstream-names.js';
import { sendToClient } from './upstream-requests.js';

/** The severities of `logging/setLevel`, least severe first. */
const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export interface PassThroughOptions {
  /** The gateway's upstreams by name, in the order their lists are merged. Filled after construction. */
  upstreams: ReadonlyMap<string, McpUpstream>;
  names: UpstreamNames;
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
 * is for. Names are namespaced by {@link UpstreamNames}. A session advertises what its upstreams
 * offer, at the time it is created.
 */
export class McpPassThrough {
  readonly #options: PassThroughOptions;
  readonly #sessions = new Set<ClientSession>();
  /** The log level last set on each upstream. */
  readonly #appliedLevels = new Map<string, LoggingLevel>();
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
    const { pageSize } = this.#options;
    wrapRequestHandler(server, 'tools/list', (list) => async (request, extra) => {
      const { cursor } = (request as { params?: { cursor?: string } }).params ?? {};
      return pageOfTools((await list(request, extra)) as { tools: unknown[] }, cursor, pageSize);
    });
    wrapRequestHandler(
      server,
      'tools/call',
      (call) => (request, extra) => runForClient(session, extra as ClientRequestExtra, () => call(request, extra)),
    );
    if (capabilities.resources) this.#answerResources(server, session, Boolean(capabilities.resources.subscribe));
    if (capabilities.prompts) this.#answerPrompts(server, session);
    if (capabilities.completions) {
      server.setRequestHandler(CompleteRequestSchema, (request, extra) => {
        const { ref } = request.params;
        const item = ref.type === 'ref/prompt' ? this.#prompt(ref.name) : this.#resource(ref.uri);
        const forwarded = ref.type === 'ref/prompt' ? { ...ref, name: item.name } : { ...ref, uri: item.name };
        const params = { ...request.params, ref: forwarded };
        return this.#forward(
          session,
          extra,
          item.server,
          { method: 'completion/complete', params },
          CompleteResultSchema,
        );
      });
    }
    if (capabilities.logging) {
      server.setRequestHandler(SetLevelRequestSchema, async (request) => {
        session.logLevel = request.params.level;
        await this.#applyLogLevel();
        return {};
      });
    }
    answerInvalidParams(server);
    this.#sessions.add(session);
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      this.#detach(session);
    };
  }

  #answerResources(server: Server, session: ClientSession, subscribe: boolean): void {
    const { names } = this.#options;
    server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
      const page = await mergedPage(this.#listing(), 'resources', request.params?.cursor, async (upstream, cursor) => {
        const result = await this.#forward(
          session,
          extra,
          upstream.name,
          listRequest('resources/list', cursor),
          ListResourcesResultSchema,
        );
        return {
          items: result.resources.map((r) => ({ ...r, uri: names.uri(upstream.name, r.uri) })),
          nextCursor: result.nextCursor,
        };
      });
      return { resources: page.items, ...page.next };
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request, extra) => {
      const page = await mergedPage(
        this.#listing(),
        'resourceTemplates',
        request.params?.cursor,
        async (upstream, cursor) => {
          const request = listRequest('resources/templates/list', cursor);
          const result = await this.#forward(session, extra, upstream.name, request, ListResourceTemplatesResultSchema);
          const items = result.resourceTemplates.map((t) => ({
            ...t,
            uriTemplate: names.uri(upstream.name, t.uriTemplate),
          }));
          return { items, nextCursor: result.nextCursor };
        },
      );
      return { resourceTemplates: page.items, ...page.next };
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const item = this.#resource(request.params.uri);
      const params = { ...request.params, uri: item.name };
      const result = await this.#forward(
        session,
        extra,
        item.server,
        { method: 'resources/read', params },
        ReadResourceResultSchema,
      );
      return { ...result, contents: result.contents.map((c) => ({ ...c, uri: names.uri(item.server, c.uri) })) };
    });
    if (!subscribe) return;
    server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
      const item = this.#resource(request.params.uri);
      const key = subscriptionKey(item.server, item.name);
      if (session.subscriptions.has(key)) return {};
      if (session.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          `Too many subscriptions: a session may hold ${MAX_SUBSCRIPTIONS_PER_SESSION}; unsubscribe from some first.`,
        );
      }
      if (!this.#upstream(item.server).capabilities?.resources?.subscribe) {
        throw new McpError(ErrorCode.InvalidParams, `Server "${item.server}" does not support resource subscriptions.`);
      }
      if (!this.#subscribed(key)) {
        const params = { ...request.params, uri: item.name };
        await this.#forward(session, extra, item.server, { method: 'resources/subscribe', params }, EmptyResultSchema);
      }
      session.subscriptions.add(key);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      const item = this.#resource(request.params.uri);
      const key = subscriptionKey(item.server, item.name);
      if (session.subscriptions.delete(key)) await this.#unsubscribeIfUnused(item);
      return {};
    });
  }

  #answerPrompts(server: Server, session: ClientSession): void {
    const { names } = this.#options;
    server.setRequestHandler(ListPromptsRequestSchema, async (request, extra) => {
      const page = await mergedPage(this.#listing(), 'prompts', request.params?.cursor, async (upstream, cursor) => {
        const result = await this.#forward(
          session,
          extra,
          upstream.name,
          listRequest('prompts/list', cursor),
          ListPromptsResultSchema,
        );
        return {
          items: result.prompts.map((p) => ({ ...p, name: names.prompt(upstream.name, p.name) })),
          nextCursor: result.nextCursor,
        };
      });
      return { prompts: page.items, ...page.next };
    });
    server.setRequestHandler(GetPromptRequestSchema, (request, extra) => {
      const item = this.#prompt(request.params.name);
      const params = { ...request.params, name: item.name };
      return this.#forward(session, extra, item.server, { method: 'prompts/get', params }, GetPromptResultSchema);
    });
  }

  /** Sends a client's request on to an upstream, with its cancellation, progress and timeout. */
  async #forward<T extends AnySchema>(
    session: ClientSession,
    extra: ClientRequestExtra,
    server: string,
    request: ClientRequest,
    schema: T,
  ): Promise<SchemaOutput<T>> {
    const upstream = this.#upstream(server);
    const call = forwardedCall(session, extra, server);
    try {
      const what = describeRequest(request);
      return await upstream.request(request, schema, { what, signal: extra.signal, onprogress: call.onprogress });
    } finally {
      call.done();
    }
  }

  /**
   * Reads a resource by its gateway URI, for a caller that is not a client session (the
   * `read_resource` tool). Throws -32602 for a URI of no server.
   */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const item = this.#resource(uri);
    const request = { method: 'resources/read', params: { uri: item.name } } as const;
    const result = await this.#upstream(item.server).request(request, ReadResourceResultSchema, {
      what: describeRequest(request),
      signal,
    });
    return this.#renamed(item.server, result);
  }

  /** A read result with the contents' URIs under their gateway names. */
  #renamed(server: string, result: ReadResourceResult): ReadResourceResult {
    const { names } = this.#options;
    return { ...result, contents: result.contents.map((c) => ({ ...c, uri: names.uri(server, c.uri) })) };
  }

  #upstream(server: string): McpUpstream {
    const upstream = this.#options.upstreams.get(server);
    if (!upstream) throw new McpError(ErrorCode.InvalidParams, `Unknown server "${server}".`);
    return upstream;
  }

  #prompt(name: string): UpstreamItem {
    const item = this.#options.names.resolvePrompt(name);
    if (!item) throw unknownName('prompt', name);
    return item;
  }

  /**
   * The upstream and URI of a gateway URI. A URI without a server prefix (e.g. a resource link in a
   * tool's result) goes to the only server with resources, when there is only one.
   */
  #resource(uri: string): UpstreamItem {
    const item = this.#options.names.resolveUri(uri) ?? this.#onlyServerWithResources(uri);
    if (!item) throw unknownName('resource', uri);
    // A resource URI is absolute (RFC 3986): anything else is the client's mistake, answered here
    // rather than left to the upstream (whose URL parser may fail as an internal error).
    if (!URL.canParse(item.name)) throw unknownName('resource', uri);
    return item;
  }

  #onlyServerWithResources(uri: string): UpstreamItem | undefined {
    const withResources = [...this.#options.upstreams.values()].filter((upstream) => upstream.capabilities?.resources);
    return withResources.length === 1 ? { server: withResources[0]!.name, name: uri } : undefined;
  }

  /** What a merged list needs of the gateway: the upstreams in order, the page size, where to warn. */
  #listing(): MergedListSource {
    const { upstreams, pageSize, logger } = this.#options;
    return { upstreams: [...upstreams.values()], pageSize, logger };
  }

  /** Whether any session holds the subscription `key`. */
  #subscribed(key: string): boolean {
    for (const session of this.#sessions) if (session.subscriptions.has(key)) return true;
    return false;
  }

  async #unsubscribeIfUnused(item: UpstreamItem): Promise<void> {
    if (this.#subscribed(subscriptionKey(item.server, item.name))) return;
    const upstream = this.#options.upstreams.get(item.server);
    if (upstream?.status !== 'ready') return;
    await upstream
      .request({ method: 'resources/unsubscribe', params: { uri: item.name } }, EmptyResultSchema, {
        what: `resources/unsubscribe "${item.name}"`,
      })
      .catch((error: unknown) =>
        this.#options.logger.debug(`server "${item.server}": unsubscribing failed: ${String(error)}`),
      );
  }

  /** The most detailed level any session asked for, set on every upstream with logging when it changed. */
  async #applyLogLevel(only?: McpUpstream): Promise<void> {
    const asked = [...this.#sessions].flatMap((session) =>
      session.logLevel ? [LOG_LEVELS.indexOf(session.logLevel)] : [],
    );
    if (asked.length === 0) return;
    const level = LOG_LEVELS[Math.min(...asked)]!;
    const targets = only ? [only] : [...this.#options.upstreams.values()];
    await Promise.all(
      targets.map(async (upstream) => {
        if (!upstream.capabilities?.logging || upstream.status !== 'ready') return;
        if (!only && this.#appliedLevels.get(upstream.name) === level) return;
        try {
          await upstream.request({ method: 'logging/setLevel', params: { level } }, EmptyResultSchema, {
            what: 'logging/setLevel',
          });
          this.#appliedLevels.set(upstream.name, level);
        } catch (error) {
          this.#options.logger.warn(`server "${upstream.name}": logging/setLevel ${level} failed: ${String(error)}`);
        }
      }),
    );
  }

  /** After a (re)start: the upstream forgot subscriptions and log level; ask again. */
  #restore(upstream: McpUpstream): void {
    this.#appliedLevels.delete(upstream.name);
    void this.#applyLogLevel(upstream);
    const uris = new Set<string>();
    for (const session of this.#sessions) {
      for (const key of session.subscriptions) {
        const [server, uri] = key.split('\n') as [string, string];
        if (server === upstream.name) uris.add(uri);
      }
    }
    for (const uri of uris) {
      upstream
        .request({ method: 'resources/subscribe', params: { uri } }, EmptyResultSchema, {
          what: `resources/subscribe "${uri}"`,
        })
        .catch((error: unknown) =>
          this.#options.logger.warn(`server "${upstream.name}": re-subscribing failed: ${String(error)}`),
        );
    }
  }

  #detach(session: ClientSession): void {
    if (!this.#sessions.delete(session)) return;
    for (const key of session.subscriptions) {
      const [server, name] = key.split('\n') as [string, string];
      void this.#unsubscribeIfUnused({ server, name });
    }
    session.subscriptions.clear();
  }

  #onNotification(upstream: McpUpstream, notification: UpstreamNotification): void {
    const { names } = this.#options;
    const sessions = [...this.#sessions];
    const send = (session: ClientSession, message: Parameters<Server['notification']>[0]) => {
      if (session.server.transport) session.server.notification(message).catch(() => {});
    };
    switch (notification.method) {
      case 'notifications/resources/updated': {
        const key = subscriptionKey(upstream.name, notification.params.uri);
        const params = { ...notification.params, uri: names.uri(upstream.name, notification.params.uri) };
        for (const session of sessions)
          if (session.subscriptions.has(key)) send(session, { method: notification.method, params });
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
          if (session.logLevel && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(session.logLevel)) {
            send(session, { method: notification.method, params });
          }
        }
      }
    }
  }

  /**
   * Who may see a log message of `upstream`: the session whose request to it is in progress (the log
   * may be about that request), every session when none is (a log of the server's own), and no one
   * when several sessions wait on it (it cannot be told whose request it is about).
   */
  #logAudience(upstream: McpUpstream, sessions: ClientSession[]): ClientSession[] {
    const waiting = sessions.filter((session) => session.callsTo(upstream.name).length > 0);
    if (waiting.length <= 1) return waiting.length === 1 ? waiting : sessions;
    this.#options.logger.debug(
      `server "${upstream.name}": a log message dropped: ${waiting.length} sessions have requests to it in progress`,
    );
    return [];
  }

  #onRequest(upstream: McpUpstream, request: UpstreamClientRequest, extra: UpstreamRequestExtra): Promise<unknown> {
    const route = routeUpstreamRequest(this.#sessions, upstream.name, request.method, this.#options.soleSession);
    return sendToClient(route, upstream.name, request, extra, this.#options.requestTimeoutMs);
  }
}

function listRequest<M extends 'resources/list' | 'resources/templates/list' | 'prompts/list'>(
  method: M,
  cursor: string | undefined,
) {
  return { method, params: cursor === undefined ? {} : { cursor } } as const;
}

/** A forwarded request in words, for error messages: its method, and the URI or name it is about. */
function describeRequest(request: ClientRequest): string {
  const params = (request.params ?? {}) as { uri?: unknown; name?: unknown };
  const about = typeof params.uri === 'string' ? params.uri : typeof params.name === 'string' ? params.name : undefined;
  return about === undefined ? request.method : `${request.method} "${about}"`;
}
