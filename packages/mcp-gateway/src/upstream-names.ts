import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type SourceItem, SourceNames } from '@toolscout/core/sources';

/**
 * How the gateway names what its upstreams offer besides tools: core's {@link SourceNames}, with
 * prompts named like tools (`<server>__<prompt>`) and resource URIs as `<server>+<uri>`.
 */
export class UpstreamNames extends SourceNames {
  /** The gateway's name of an upstream's prompt. */
  prompt(server: string, name: string): string {
    return this.name(server, name);
  }

  /** The server and its own name of a gateway prompt name; undefined when it names no server. */
  resolvePrompt(name: string): SourceItem | undefined {
    return this.resolveName(name);
  }
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
