import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpUpstream } from './mcp-upstream.js';

/** A request an upstream sends to the client side (sampling, elicitation, roots). */
export type UpstreamClientRequest = Extract<
  ServerRequest,
  { method: 'sampling/createMessage' | 'elicitation/create' | 'roots/list' }
>;

/** A notification an upstream sends about what it offers besides tools (resources, prompts, logs). */
export type UpstreamNotification = Extract<
  ServerNotification,
  {
    method:
      | 'notifications/resources/updated'
      | 'notifications/resources/list_changed'
      | 'notifications/prompts/list_changed'
      | 'notifications/message';
  }
>;

/** What the upstream's request handler gets: its cancellation and a way to report progress back. */
export interface UpstreamRequestExtra {
  signal: AbortSignal;
  /** The upstream's progress token for this request, when it asked for progress. */
  progressToken?: string | number;
  /** Sends a notification to the upstream, about this request. */
  sendProgress(progress: { progress: number; total?: number; message?: string }): Promise<void>;
}

/** One tool call forwarded for a client: where its progress goes, and its end. */
export interface ForwardedCall {
  onprogress?: RequestOptions['onprogress'];
  done(): void;
}

/**
 * How a gateway hears from its upstreams beyond tools: the pass-through of resources, prompts,
 * logs and client requests. Every hook is optional; without one, the upstream's notifications are
 * dropped and its requests refused.
 */
export interface UpstreamClientHooks {
  /** A resource, prompt or log notification of `upstream`. */
  onNotification?(upstream: McpUpstream, notification: UpstreamNotification): void;
  /** A request of `upstream` to the client side; resolves with its result or rejects with an `McpError`. */
  onRequest?(upstream: McpUpstream, request: UpstreamClientRequest, extra: UpstreamRequestExtra): Promise<unknown>;
  /** `upstream` is connected (first start or restart): subscriptions and log levels can be restored. */
  onReady?(upstream: McpUpstream): void;
  /** A tool call is about to be forwarded to `upstream`: the client it is for, if any. */
  forwardCall?(upstream: McpUpstream): ForwardedCall | undefined;
}

/** Hooks that call `first`'s, then `second`'s `onReady` and `onNotification`; the rest are `first`'s. */
export function combineHooks(
  first: UpstreamClientHooks,
  second: Pick<UpstreamClientHooks, 'onReady' | 'onNotification'>,
): UpstreamClientHooks {
  return {
    ...first,
    onReady: (upstream) => {
      first.onReady?.(upstream);
      second.onReady?.(upstream);
    },
    onNotification: (upstream, notification) => {
      first.onNotification?.(upstream, notification);
      second.onNotification?.(upstream, notification);
    },
  };
}

/**
 * What the gateway tells upstreams it can do as a client: sampling, elicitation and roots, which it
 * passes on to the client session they are for (or refuses, when that client cannot).
 */
export const PASS_THROUGH_CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: {},
};

const NOTIFICATIONS = [
  ResourceUpdatedNotificationSchema,
  ResourceListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  LoggingMessageNotificationSchema,
];

const REQUESTS = [CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema];

/**
 * Routes what `client` (the gateway's connection to `upstream`) receives beyond tools to `hooks`.
 * Call before connecting, on a client created with {@link PASS_THROUGH_CLIENT_CAPABILITIES}.
 */
export function watchClient(client: Client, upstream: McpUpstream, hooks: UpstreamClientHooks): void {
  const { onNotification, onRequest } = hooks;
  if (onNotification) {
    for (const schema of NOTIFICATIONS) {
      client.setNotificationHandler(schema, (notification) => {
        onNotification(upstream, notification as UpstreamNotification);
      });
    }
  }
  for (const schema of REQUESTS) {
    client.setRequestHandler(schema, async (request, extra) => {
      if (!onRequest) {
        throw new McpError(ErrorCode.MethodNotFound, `toolscout-mcp does not pass ${request.method} on to clients.`);
      }
      const progressToken = request.params?._meta?.progressToken;
      return (await onRequest(upstream, request as UpstreamClientRequest, {
        signal: extra.signal,
        progressToken,
        sendProgress: async (progress) => {
          if (progressToken === undefined) return;
          await extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } });
        },
      })) as never;
    });
  }
}
