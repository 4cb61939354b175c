import type { AnyObjectSchema, AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  type ClientRequest,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { SourceNames } from '@toolscout/core/sources';
import type { McpUpstream, UpstreamRequestOptions } from './mcp-upstream.js';

/** One row of {@link MERGED_LISTS}. */
export interface MergedList {
  method: string;
  request: AnyObjectSchema;
  result: AnySchema;
  list: 'resources' | 'resourceTemplates' | 'prompts';
  capability: 'resources' | 'prompts';
  field: 'uri' | 'uriTemplate' | 'name';
  kind: 'resource' | 'resource template' | 'prompt';
}

/**
 * The lists of what upstreams offer besides tools, merged over them for clients and indexed for
 * `search_resources`: the method and its schemas, the list (core's name and the result's field),
 * the capability that offers it, the field of an item under a gateway name, and the kind of its
 * entries in the offer index. A list more is a row more.
 */
export const MERGED_LISTS: readonly MergedList[] = [
  {
    method: 'resources/list',
    request: ListResourcesRequestSchema,
    result: ListResourcesResultSchema,
    list: 'resources',
    capability: 'resources',
    field: 'uri',
    kind: 'resource',
  },
  {
    method: 'resources/templates/list',
    request: ListResourceTemplatesRequestSchema,
    result: ListResourceTemplatesResultSchema,
    list: 'resourceTemplates',
    capability: 'resources',
    field: 'uriTemplate',
    kind: 'resource template',
  },
  {
    method: 'prompts/list',
    request: ListPromptsRequestSchema,
    result: ListPromptsResultSchema,
    list: 'prompts',
    capability: 'prompts',
    field: 'name',
    kind: 'prompt',
  },
];

/** Sends `method` to `upstream`, named in its errors by the URI or name it is about: `resources/read "file:///a"`. */
export function send<T extends AnySchema>(
  upstream: McpUpstream,
  method: string,
  params: object,
  schema: T,
  options: Omit<UpstreamRequestOptions, 'what'> = {},
): Promise<SchemaOutput<T>> {
  const { uri, name } = params as { uri?: unknown; name?: unknown };
  const about = typeof uri === 'string' ? uri : typeof name === 'string' ? name : undefined;
  const what = about === undefined ? method : `${method} "${about}"`;
  return upstream.request({ method, params } as ClientRequest, schema, { what, ...options });
}

/** An item's `field` under its gateway name: a prompt's like a tool's (`<server>__<name>`), a URI as `<server>+<uri>`. */
export function gatewayName(names: SourceNames, server: string, field: MergedList['field'], value: string): string {
  return field === 'name' ? names.name(server, value) : names.uri(server, value);
}
