// Tokens: offering every tool definition directly, against what toolscout offers per step in each mode.
import {
  countTokens,
  TOOL_SEARCH_MODES,
  ToolCatalog,
  ToolIndex,
  type ToolSearchMode,
  ToolSearchSession,
} from '@toolscout/core';
import { createQuickJsSandbox } from '@toolscout/core/code-mode';
import type { Dataset } from './datasets.js';
import { type MultiToolResult, runMultiTool } from './multi-tool.js';
import { median } from './stats.js';

/** Queries sampled (evenly spaced) per dataset by default. */
export const DEFAULT_TOKEN_QUERIES = 50;
/** How many tools the "with five loaded" figure loads. */
const LOADED = 5;

/** One mode's figures (o200k tokens, medians over the sampled queries). */
export interface TokenModeFigures {
  /** The meta-tools' definitions alone, as offered at the first step. */
  metaTools: number;
  /** The mode's default instructions (`step.instructions`), the system text an adapter adds once per request. */
  instructions: number;
  /** Everything offered at the step after five tools were loaded (in `proxy` and `code` nothing is ever loaded). */
  withFiveLoaded: number;
  /**
   * The JSON result of one `search_tools` call (in `code` mode, of a program that returns
   * `await tools.search(query)`); null in `catalog` mode, which has no search tool.
   */
  searchResult: number | null;
}

/** The token figures of one dataset. */
export interface TokenResult {
  /** The dataset folder's name. */
  dataset: string;
  /** Tools in its catalog. */
  tools: number;
  /** Every tool definition offered directly (name, description, input schema, as a provider gets them). */
  direct: number;
  /** By mode. */
  modes: Record<ToolSearchMode, TokenModeFigures>;
  /** Queries the medians are over. */
  sampledQueries: number;
  /** Steps and tokens of requests that need several tools, `search-load` vs `code` (absent: the dataset has none). */
  multiTool?: MultiToolResult;
  /** What the session option `search.explain` costs: one `search_tools` result without and with the `why` lines. */
  explain: ExplainCost;
}

/** The tokens of one `search_tools` result (search-load mode, 5 hits), medians over the sampled queries. */
export interface ExplainCost {
  /** Without `search.explain` (the default). */
  off: number;
  /** With `search.explain: true`. */
  on: number;
  /** Tokens the `why` line adds per result (per query: the difference over its hits). */
  perHit: number;
  /** Queries measured (those with at least one hit). */
  queries: number;
}

/** {@link ExplainCost} over a catalog, for the sampled queries. */
async function measureExplain(
  catalog: ToolCatalog,
  index: ToolIndex,
  queries: readonly string[],
): Promise<ExplainCost> {
  const off = new ToolSearchSession({ catalog, index });
  const on = new ToolSearchSession({ catalog, index, search: { explain: true } });
  const figures = { off: [] as number[], on: [] as number[], perHit: [] as number[] };
  try {
    const [stepOff, stepOn] = [await off.prepareStep({ threadId: 'e' }), await on.prepareStep({ threadId: 'e' })];
    for (const query of queries) {
      const plain = outputOf(await stepOff.execute('search_tools', { query }), 'search_tools') as {
        results: unknown[];
      };
      const explained = outputOf(await stepOn.execute('search_tools', { query }), 'search_tools (explain)');
      if (plain.results.length === 0) continue;
      const [a, b] = [await countTokens(JSON.stringify(plain)), await countTokens(JSON.stringify(explained))];
      figures.off.push(a);
      figures.on.push(b);
      figures.perHit.push((b - a) / plain.results.length);
    }
  } finally {
    off.dispose();
    on.dispose();
  }
  const at = (values: number[]) => (values.length > 0 ? median(values) : 0);
  return { off: at(figures.off), on: at(figures.on), perHit: at(figures.perHit), queries: figures.off.length };
}

/** Options of {@link runTokens}. */
export interface TokenOptions {
  /** Queries sampled per dataset. Default {@link DEFAULT_TOKEN_QUERIES}. */
  queries?: number;
  /** Receives progress lines. */
  onProgress?: (line: string) => void;
}

/** `count` items spread evenly over `items`, first included. */
function evenly<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

function outputOf(outcome: { ok: boolean; output?: unknown; error?: { message: string } }, what: string): unknown {
  if (!outcome.ok) throw new Error(`${what} failed: ${outcome.error?.message ?? 'unknown error'}`);
  return outcome.output;
}

/** One mode on one query: a search (where the mode has one), five tools loaded, the next step measured. */
async function measureQuery(
  session: ToolSearchSession,
  mode: ToolSearchMode,
  query: string,
  threadId: string,
): Promise<{ searchResult: number | null; withFiveLoaded: number } | undefined> {
  const step = await session.prepareStep({ threadId });
  const search = session.metaToolName('search');
  let searchResult: number | null = null;
  const top = (await session.search(query, { threadId }, LOADED)).map((hit) => hit.tool.toolName);
  if (top.length < LOADED) return undefined;
  if (search !== undefined) {
    const output = outputOf(await step.execute(search, { query }), `${mode} ${search}`);
    searchResult = await countTokens(JSON.stringify(output));
  } else if (mode === 'code') {
    const program = { code: `return await tools.search(${JSON.stringify(query)});` };
    const output = outputOf(await step.execute(session.metaToolName('code')!, program), 'code run_tool_code');
    searchResult = await countTokens(JSON.stringify(output));
  }
  if (mode === 'search-load') {
    outputOf(await step.execute(session.metaToolName('load')!, { toolNames: top }), 'load_tool');
  } else if (mode === 'catalog') {
    outputOf(await step.execute(session.metaToolName('discover')!, { toolNames: top }), 'discover_tools');
  }
  // auto-load: the search loaded its hits (limit 5); proxy, code: nothing is loaded, tools run through the session.
  const next = await session.prepareStep({ threadId });
  const expectedLoaded = mode === 'proxy' || mode === 'code' ? 0 : LOADED;
  if (next.loadedIds.length !== expectedLoaded) {
    throw new Error(`${mode}: expected ${expectedLoaded} loaded tools after the step, got ${next.loadedIds.length}.`);
  }
  return { searchResult, withFiveLoaded: (await session.measureStep(next)).offered.tokens };
}

/** Token figures for each dataset, each of toolscout's modes. */
export async function runTokens(datasets: readonly Dataset[], options: TokenOptions = {}): Promise<TokenResult[]> {
  const { queries: queryCount = DEFAULT_TOKEN_QUERIES, onProgress = () => {} } = options;
  const results: TokenResult[] = [];
  const sandbox = await createQuickJsSandbox();
  for (const dataset of datasets) {
    const catalog = new ToolCatalog(dataset.tools);
    const index = new ToolIndex(catalog);
    const sample = evenly(dataset.queries, queryCount);
    let direct = 0;
    const modes = {} as Record<ToolSearchMode, TokenModeFigures>;
    for (const mode of TOOL_SEARCH_MODES) {
      onProgress(`tokens: ${dataset.name}, ${mode} mode...`);
      const session = new ToolSearchSession({ catalog, index, mode, ...(mode === 'code' && { code: { sandbox } }) });
      const first = await session.measureStep(await session.prepareStep({ threadId: 'meta' }));
      direct = first.catalog.tokens;
      const searchResults: number[] = [];
      const loaded: number[] = [];
      for (const [i, query] of sample.entries()) {
        const figures = await measureQuery(session, mode, query.query, `q${i}`);
        if (!figures) continue;
        if (figures.searchResult !== null) searchResults.push(figures.searchResult);
        loaded.push(figures.withFiveLoaded);
      }
      session.dispose();
      modes[mode] = {
        metaTools: first.offered.tokens,
        instructions: await countTokens(session.instructions ?? ''),
        withFiveLoaded: loaded.length > 0 ? median(loaded) : first.offered.tokens,
        searchResult: searchResults.length > 0 ? median(searchResults) : null,
      };
    }
    onProgress(`tokens: ${dataset.name}, search_tools results with and without search.explain...`);
    const explain = await measureExplain(
      catalog,
      index,
      sample.map((query) => query.query),
    );
    index.dispose();
    onProgress(`tokens: ${dataset.name}, multi-tool requests (search-load vs code)...`);
    const multiTool = await runMultiTool(dataset, sandbox, queryCount);
    const result: TokenResult = {
      dataset: dataset.name,
      tools: catalog.size,
      direct,
      modes,
      sampledQueries: sample.length,
      explain,
    };
    results.push(multiTool ? { ...result, multiTool } : result);
    onProgress(`tokens: ${dataset.name}: direct ${direct}, search-load meta-tools ${modes['search-load'].metaTools}`);
  }
  return results;
}
