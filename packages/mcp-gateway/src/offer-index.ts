import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDescriptor } from '@toolscout/core';
import { describeValue, isRecord } from '@toolscout/core/internal';
import {
  MAX_OFFER_HITS as MAX_LIMIT,
  type Offer,
  type SourceNames,
  OfferIndex as SourceOffers,
} from '@toolscout/core/sources';
import type { Logger } from './logger.js';
import type { McpUpstream } from './mcp-upstream.js';
import type { UpstreamClientHooks } from './upstream-client-hooks.js';
import { gatewayName, MERGED_LISTS, send } from './upstream-lists.js';

/** What an entry of the offer index is. */
export type OfferKind = 'resource' | 'resource template' | 'prompt';

/** One resource, resource template or prompt as `search_resources` returns it, under its gateway name. */
export interface OfferHit {
  kind: OfferKind;
  /** The server it comes from. */
  server: string;
  /** A resource's gateway URI (`<server>+<uri>`). */
  uri?: string;
  /** A resource template's gateway URI template. */
  uriTemplate?: string;
  /** A prompt's gateway name (`<server>__<prompt>`). */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** A prompt's arguments. */
  arguments?: Prompt['arguments'];
  /** Relevance in [0, 1]. */
  score: number;
}

/** The names of the two tools the gateway offers with `searchResources`. */
export const OFFER_TOOL_NAMES = { search: 'search_resources', read: 'read_resource' } as const;

/** Most pages of each list read from one server when indexing it. */
const MAX_PAGES = 20;

type Entry = Omit<OfferHit, 'score'>;

/**
 * The resources, resource templates and prompts of a gateway's servers, in core's offer index (the
 * same ranking as tools), for the `search_resources` tool. Each server's entries are re-listed when
 * it (re)connects and on its `list_changed`, and stay searchable while it is down.
 */
export class OfferIndex {
  readonly #offers: SourceOffers<Entry>;
  readonly #names: SourceNames;

  constructor(names: SourceNames, logger: Logger) {
    this.#names = names;
    this.#offers = new SourceOffers<Entry>({
      onRefused: (error, offer, server) =>
        logger.warn(`server "${server}": "${offer.id}" is not searchable: ${String(error)}`),
      onError: (error, server) =>
        logger.warn(`server "${server}": indexing its resources and prompts failed: ${String(error)}`),
    });
  }

  /** The hooks that keep the index in step with `upstream`s (to compose with the pass-through's). */
  hooks(): Pick<UpstreamClientHooks, 'onReady' | 'onNotification'> {
    return {
      onReady: (upstream) => this.refresh(upstream),
      onNotification: (upstream, notification) => {
        if (notification.method.endsWith('/list_changed')) this.refresh(upstream);
      },
    };
  }

  /** Re-lists `upstream`'s resources, templates and prompts (once more if asked again meanwhile). */
  refresh(upstream: McpUpstream): Promise<void> {
    return this.#offers.refresh(upstream.name, () => this.#list(upstream));
  }

  /** Resolves once every re-listing under way is over. */
  settled(): Promise<void> {
    return this.#offers.settled();
  }

  /** The best entries for `query`, of one kind or all (`resource` takes in resource templates). */
  async search(query: string, options: { kind?: 'resource' | 'prompt'; limit?: number } = {}): Promise<OfferHit[]> {
    const { kind, limit } = options;
    const kinds = kind === 'resource' ? ['resource', 'resource template'] : kind === undefined ? undefined : [kind];
    const hits = await this.#offers.search(query, { kinds, limit });
    return hits.map((hit) => ({ ...hit.payload, score: hit.score }));
  }

  dispose(): void {
    this.#offers.dispose();
  }

  async #list(upstream: McpUpstream): Promise<Offer<Entry>[]> {
    const server = upstream.name;
    const listed: Offer<Entry>[] = [];
    for (const { method, result, list, capability, field, kind } of MERGED_LISTS) {
      if (!upstream.capabilities?.[capability]) continue;
      for (const page of await allPages(upstream, method, result)) {
        for (const item of (page as Record<string, unknown>)[list] as OfferedItem[]) {
          const ownName = item[field] as string;
          const named = gatewayName(this.#names, server, field, ownName);
          const args = kind === 'prompt' && item.arguments ? { arguments: item.arguments } : {};
          const entry: Entry = { kind, server, [field]: named, ...shown(item), ...args };
          listed.push({
            kind,
            id: `${kind === 'resource template' ? 'template' : kind} ${named}`,
            title: entry.title,
            description: entry.description,
            text: entry.mimeType ? [ownName, entry.mimeType] : [ownName],
            payload: entry,
          });
        }
      }
    }
    return listed;
  }
}

/** An item of a list of an upstream, as the offer index reads it. */
type OfferedItem = Record<string, unknown> & {
  title?: string;
  description?: string;
  mimeType?: string;
  arguments?: Prompt['arguments'];
};

/** What a search hit shows of a resource, template or prompt: its title, description and type. */
function shown(item: { title?: string; description?: string; mimeType?: string }): Partial<Entry> {
  const out: Partial<Entry> = {};
  if (typeof item.title === 'string') out.title = item.title;
  if (typeof item.description === 'string') out.description = item.description;
  if (typeof item.mimeType === 'string') out.mimeType = item.mimeType;
  return out;
}

/** Every page of one of `upstream`'s lists (at most {@link MAX_PAGES}). */
async function allPages<T extends AnySchema>(
  upstream: McpUpstream,
  method: string,
  schema: T,
): Promise<SchemaOutput<T>[]> {
  const all: SchemaOutput<T>[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await send(upstream, method, cursor === undefined ? {} : { cursor }, schema);
    all.push(result);
    cursor = (result as { nextCursor?: string }).nextCursor;
    if (!cursor) break;
  }
  return all;
}

/** The `search_resources` and `read_resource` tools, offered at every step beside the meta-tools. */
export function offerTools(
  offers: OfferIndex,
  read: (uri: string, signal: AbortSignal | undefined) => Promise<unknown>,
): ToolDescriptor[] {
  return [
    {
      id: OFFER_TOOL_NAMES.search,
      description: 'Search the resources (files, documents, data) and prompts of the MCP servers.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          kind: { type: 'string', enum: ['resource', 'prompt'] },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
        },
        required: ['query'],
        additionalProperties: false,
      },
      execute: async (args) => {
        const { query, kind, limit } = args as { query: string; kind?: 'resource' | 'prompt'; limit?: number };
        return { results: await offers.search(query, { kind, limit }) };
      },
    },
    {
      id: OFFER_TOOL_NAMES.read,
      description: 'Read a resource by a URI search_resources found.',
      inputSchema: {
        type: 'object',
        properties: { uri: { type: 'string' } },
        required: ['uri'],
        additionalProperties: false,
      },
      execute: async (args, context) => {
        const { uri } = args as { uri: unknown };
        if (typeof uri !== 'string') throw new Error(`uri must be a string, got ${describeValue(uri)}`);
        const result = await read(uri, context.abortSignal);
        return isRecord(result) ? result : { contents: [] };
      },
    },
  ];
}
