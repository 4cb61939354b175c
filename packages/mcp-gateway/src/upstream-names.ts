import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Something an upstream offers, under the upstream's own name for it. */
export interface UpstreamItem {
  /** The upstream server's name. */
  server: string;
  /** The prompt name or resource URI as the upstream knows it. */
  name: string;
}

/** Separates a server from a prompt, as from a tool: `github__summarize_pr`. */
const PROMPT_SEPARATOR = '__';
/** Separates a server from a resource URI: `files+file:///notes.md`. */
const URI_SEPARATOR = '+';

/**
 * How the gateway names what its upstreams offer besides tools, so that names of two servers
 * cannot collide and every name leads back to its server:
 *
 * - prompts like tools: `<server>__<prompt>` (server names contain no `__`);
 * - resource URIs and URI templates: `<server>+<uri>`, e.g. `files+file:///notes.md`, with `_` in
 *   the server name written `.` (server names have no `.`), so that a URI with a scheme keeps a
 *   valid one (`my.files+file`). The server's own URI follows the first `+` unchanged.
 *
 * With `namespace: false` (a gateway of one server, `wrapMcpServer`) names are the server's own.
 */
export class UpstreamNames {
  readonly #servers: readonly string[];
  readonly #namespace: boolean;
  /** The URI prefix (before `+`) of each server. */
  readonly #byUriPrefix: ReadonlyMap<string, string>;

  constructor(servers: readonly string[], namespace = true) {
    this.#servers = servers;
    this.#namespace = namespace;
    this.#byUriPrefix = new Map(servers.map((server) => [uriPrefixOf(server), server]));
  }

  /** The gateway's name of an upstream's prompt. */
  prompt(server: string, name: string): string {
    return this.#namespace ? `${server}${PROMPT_SEPARATOR}${name}` : name;
  }

  /** The gateway's URI (or URI template) of an upstream's resource. */
  uri(server: string, uri: string): string {
    return this.#namespace ? `${uriPrefixOf(server)}${URI_SEPARATOR}${uri}` : uri;
  }

  /** The server and its own name of a gateway prompt name; undefined when it names no server. */
  resolvePrompt(name: string): UpstreamItem | undefined {
    if (!this.#namespace) return this.#only(name);
    const at = name.indexOf(PROMPT_SEPARATOR);
    if (at <= 0) return undefined;
    const server = name.slice(0, at);
    return this.#servers.includes(server) ? { server, name: name.slice(at + PROMPT_SEPARATOR.length) } : undefined;
  }

  /** The server and its own URI of a gateway URI; undefined when it names no server. */
  resolveUri(uri: string): UpstreamItem | undefined {
    if (!this.#namespace) return this.#only(uri);
    const at = uri.indexOf(URI_SEPARATOR);
    const server = at > 0 ? this.#byUriPrefix.get(uri.slice(0, at)) : undefined;
    return server === undefined ? undefined : { server, name: uri.slice(at + URI_SEPARATOR.length) };
  }

  #only(name: string): UpstreamItem | undefined {
    const [server] = this.#servers;
    return server === undefined ? undefined : { server, name };
  }
}

function uriPrefixOf(server: string): string {
  return server.replaceAll('_', '.');
}

/** The -32602 for a prompt name or URI that leads to no server, saying what the names look like. */
export function unknownName(kind: 'prompt' | 'resource', name: string): McpError {
  const shown = name.length > 200 ? `${name.slice(0, 200)}… (${name.length} characters)` : name;
  const form =
    kind === 'prompt'
      ? 'prompts/list names prompts <server>__<prompt>'
      : 'resources/list and resources/templates/list give URIs as <server>+<uri>';
  return new McpError(ErrorCode.InvalidParams, `Unknown ${kind} "${shown}": ${form}.`);
}
