// What catalog mode's discovery tool lists in its description: the tools a model may discover.
import { firstSentence } from '../text/compact-text.js';
import type { CatalogTool } from '../types.js';
import { discoveryListing } from './messages.js';
import type { PolicyCheck } from './policy.js';

/** What the listing of one step depends on. */
export interface ListingContext<TTool> {
  /** The step's policy: only tools allowed at `search` are listed. */
  allowed: PolicyCheck<TTool>;
  /** The tools already offered at the step (discovered, or direct). */
  offeredIds: ReadonlySet<string>;
  /** Whether a name is a meta-tool's (a tool of that name is never offered, so never listed). */
  isMetaTool: (name: string) => boolean;
  /** Each tool with the first sentence of its description (`names-and-summaries`), or its name alone. */
  summaries: boolean;
}

/**
 * The catalog-mode listing of the tools that are neither pinned nor shadowed by a meta-tool and
 * that the policy lets be found, one `- name: summary` line each; undefined when every one of them
 * is already offered (nothing is left to discover).
 */
export async function undiscoveredListing<TTool>(
  tools: Iterable<CatalogTool<TTool>>,
  { allowed, offeredIds, isMetaTool, summaries }: ListingContext<TTool>,
): Promise<string | undefined> {
  const lines: string[] = [];
  let undiscovered = 0;
  for (const tool of tools) {
    if (tool.pinned || isMetaTool(tool.toolName)) continue;
    if (!(await allowed(tool, ['search']))) continue;
    if (!offeredIds.has(tool.id)) undiscovered++;
    const summary = summaries ? firstSentence(tool.description, 100) : '';
    lines.push(summary ? `- ${tool.toolName}: ${summary}` : `- ${tool.toolName}`);
  }
  return undiscovered === 0 ? undefined : discoveryListing(lines);
}
