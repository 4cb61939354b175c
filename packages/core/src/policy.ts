import type { CatalogTool } from './types.js';

/**
 * When the policy is asked:
 * - `search`: may the tool appear in search results, suggestions and catalog listings?
 * - `load`: may the model load (or discover, or describe) it?
 * - `active`: may a loaded or pinned tool be offered at this step?
 * - `call`: may this call run?
 */
export type PolicyPhase = 'search' | 'load' | 'active' | 'call';

/** What a policy filter is asked about. */
export interface PolicyRequest<TTool = unknown> {
  toolId: string;
  tool: CatalogTool<TTool>;
  phase: PolicyPhase;
  /** The host's request context, as given to the step. */
  context: unknown;
  threadId?: string;
  resourceId?: string;
  /** For `call`: the arguments of the call. */
  input?: unknown;
}

/**
 * Decides whether a tool is allowed. Sync or async. A filter that throws or rejects means "not
 * allowed" (fail closed), and the session reports a `blocked` event with reason `filter-error`.
 */
export type PolicyFilter<TTool = unknown> = (request: PolicyRequest<TTool>) => boolean | Promise<boolean>;

/** Asks the filter, failing closed; `error` is set when the filter threw. */
export async function askPolicy<TTool>(
  filter: PolicyFilter<TTool> | undefined,
  request: PolicyRequest<TTool>,
): Promise<{ allowed: boolean; error?: unknown }> {
  if (!filter) return { allowed: true };
  try {
    return { allowed: (await filter(request)) === true };
  } catch (error) {
    return { allowed: false, error };
  }
}
