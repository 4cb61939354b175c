// How a session searches for `search_tools` and for "did you mean" suggestions: the catalog's
// index, and, for a request that brings its own tools, the request-tool pool among that request's
// tools, merged by score (both scores are absolute, in [0, 1]).
import type { ToolCatalog } from '../catalog/catalog.js';
import { fuseFeedback } from '../feedback/learned-queries.js';
import type { ToolFeedback } from '../feedback/tool-feedback.js';
import type { ToolIndex } from '../index/tool-index.js';
import type { CatalogTool, MatchReason } from '../types.js';
import { MODEL_INPUT_LIMITS, nameStart } from './model-input-limits.js';
import type { PolicyCheck, PolicyPhase } from './policy.js';
import type { RequestToolSets, RequestTools } from './request-tools.js';
import type { StepRequest } from './step-types.js';
import { orderSuggestions, SUGGESTION_CANDIDATES } from './suggestion-order.js';
import type { TelemetryEmitter } from './telemetry.js';

/** The phases a "did you mean" suggestion must pass: the model can find, load and be offered it. */
export const SUGGESTION_PHASES: readonly PolicyPhase[] = ['search', 'load', 'active'];

/** A ranked tool; with `reasons` when the search was asked to explain its hits. */
export type ScoredTool<TTool> = { tool: CatalogTool<TTool>; score: number; reasons?: MatchReason[] };

/** What a session's searches read. */
export interface SearchSources<TTool> {
  catalog: ToolCatalog<TTool>;
  index: ToolIndex<TTool>;
  requestTools: RequestToolSets<TTool>;
  isMetaTool(toolName: string): boolean;
  emit: TelemetryEmitter['emit'];
  /** Learning from use (the `feedback` option), whose evidence `search_tools` fuses in. */
  feedback?: ToolFeedback;
}

/**
 * Ranks the catalog (and the request's own tools, when it brings any) for a query, each hit
 * allowed by `allowed`'s `phases`; a catalog tool the request replaces is left out. The best
 * `limit` of both.
 */
async function rank<TTool>(
  sources: SearchSources<TTool>,
  set: RequestTools<TTool> | undefined,
  query: string,
  options: {
    limit: number;
    minScore?: number;
    explain?: boolean;
    keep: (tool: CatalogTool<TTool>) => Promise<boolean>;
    learned?: ReadonlyMap<string, number>;
  },
): Promise<ScoredTool<TTool>[]> {
  const { catalog, index, isMetaTool } = sources;
  const keep = async (tool: CatalogTool<TTool>) => !isMetaTool(tool.toolName) && (await options.keep(tool));
  const { learned } = options;
  const fromIndex = index
    .search(query, {
      // (deeper with learned evidence: a hit just below the limit may rise past the ones above it)
      limit: options.limit + (learned?.size ?? 0),
      minScore: options.minScore,
      explain: options.explain,
      filter: async (id) => {
        const tool = catalog.get(id);
        return tool !== undefined && !set?.shadows(tool) && (await keep(tool));
      },
    })
    .then((hits) =>
      hits.flatMap((hit) => {
        const tool = catalog.get(hit.id);
        if (tool === undefined) return [];
        return hit.reasons === undefined
          ? [{ tool, score: hit.score }]
          : [{ tool, score: hit.score, reasons: hit.reasons }];
      }),
    );
  const fromCatalog =
    learned && sources.feedback && learned.size > 0
      ? fromIndex.then((hits) => withLearned(sources, set, query, hits, learned, { ...options, keep }))
      : fromIndex;
  if (set === undefined || set.size === 0) return fromCatalog;
  const [own, fromRequest] = await Promise.all([
    fromCatalog,
    sources.requestTools.search(set, query, { ...options, filter: keep }),
  ]);
  return [...own, ...fromRequest].sort((a, b) => b.score - a.score).slice(0, options.limit);
}

/**
 * Keyword hits with learned evidence fused in (`fuseFeedback`), and the tools only learned
 * evidence finds (keyword score 0) when they pass `keep` and score at least the `minScore`.
 */
async function withLearned<TTool>(
  sources: SearchSources<TTool>,
  set: RequestTools<TTool> | undefined,
  query: string,
  hits: ScoredTool<TTool>[],
  learned: ReadonlyMap<string, number>,
  options: { limit: number; minScore?: number; keep: (tool: CatalogTool<TTool>) => Promise<boolean> },
): Promise<ScoredTool<TTool>[]> {
  const weight = sources.feedback?.weight ?? 0;
  const fused: ScoredTool<TTool>[] = hits.map((hit) => ({
    ...hit,
    score: fuseFeedback(hit.score, learned.get(hit.tool.id) ?? 0, weight),
  }));
  const found = new Set(hits.map((hit) => hit.tool.id));
  const minScore = options.minScore ?? sources.index.minScore;
  for (const [id, evidence] of learned) {
    const tool = sources.catalog.get(id);
    const score = fuseFeedback(0, evidence, weight);
    if (found.has(id) || !tool || score < minScore || set?.shadows(tool) || !(await options.keep(tool))) continue;
    fused.push({ tool, score });
  }
  fused.sort((a, b) => b.score - a.score || (a.tool.id < b.tool.id ? -1 : a.tool.id > b.tool.id ? 1 : 0));
  // A query that is exactly a tool's id or name keeps that tool first, as the keyword ranking has it.
  const named = hits[0] && namesTool(query, hits[0].tool) ? fused.findIndex((hit) => hit.tool === hits[0]?.tool) : -1;
  if (named > 0) fused.unshift({ ...fused.splice(named, 1)[0]!, score: fused[0]!.score });
  return fused.slice(0, options.limit);
}

/** Whether a query is exactly a tool's id or provider-safe name, as given or in lower case (see `ToolIndex.search`). */
function namesTool(query: string, tool: CatalogTool<unknown>): boolean {
  const text = query.trim();
  return [text, text.toLowerCase()].some((name) => name === tool.id || name === tool.toolName);
}

/**
 * Searches as `search_tools` does, under the policy's `search` phase: the first 2,000 characters
 * of the query (`MODEL_INPUT_LIMITS.queryLength`), with what was learned from use fused in (the
 * `feedback` option); reports a `search` event.
 */
export async function searchTools<TTool>(
  sources: SearchSources<TTool>,
  set: RequestTools<TTool> | undefined,
  fullQuery: string,
  request: StepRequest,
  options: { limit: number; minScore?: number; explain?: boolean; allowed: PolicyCheck<TTool> },
): Promise<ScoredTool<TTool>[]> {
  const started = performance.now();
  const query = nameStart(fullQuery, MODEL_INPUT_LIMITS.queryLength);
  const learned = await sources.feedback?.scores(query, options.limit);
  const results = await rank(sources, set, query, {
    limit: options.limit,
    minScore: options.minScore,
    explain: options.explain,
    keep: (tool) => options.allowed(tool, ['search']),
    learned,
  });
  sources.emit({
    type: 'search',
    threadId: request.threadId,
    resourceId: request.resourceId,
    query,
    hits: results.map((result) => ({ id: result.tool.id, score: result.score })),
    latencyMs: performance.now() - started,
  });
  return results;
}

/**
 * Tool names to suggest for a name that is unknown (or hidden): ranked by the name's first
 * characters (`MODEL_INPUT_LIMITS.echoLength`), close misspellings of it first
 * (`orderSuggestions`), allowed at search, load and active, never `refused` (the tool the name
 * itself refers to, since it is being suggested against).
 */
export async function suggestTools<TTool>(
  sources: SearchSources<TTool>,
  set: RequestTools<TTool> | undefined,
  name: string,
  refused: string | undefined,
  allowed: PolicyCheck<TTool>,
  limit = 3,
): Promise<string[]> {
  const start = nameStart(name);
  const hits = await rank(sources, set, start, {
    limit: Math.max(limit, SUGGESTION_CANDIDATES),
    keep: async (tool) => tool.id !== refused && (await allowed(tool, SUGGESTION_PHASES)),
  });
  return orderSuggestions(start, hits, (hit) => hit.tool.toolName, limit).map((hit) => hit.tool.toolName);
}
