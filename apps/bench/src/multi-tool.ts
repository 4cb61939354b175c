// Multi-tool requests (issue #17): the model steps and tokens a scripted agent spends to run every
// relevant tool of a request, in `search-load` mode (one step per search, load and call round) and in
// `code` mode (one program). Same catalog, same search, same tool results; only the mode differs.
import {
  type CodeSandbox,
  countTokens,
  type JsonSchema,
  ToolCatalog,
  ToolIndex,
  ToolSearchSession,
  type ToolSearchStep,
} from '@toolscout/core';
import type { Dataset, DatasetQuery } from './datasets.js';
import { relevantSlots } from './metrics.js';
import { median } from './stats.js';

/** The two modes compared. */
export const MULTI_TOOL_MODES = ['search-load', 'code'] as const;
export type MultiToolMode = (typeof MULTI_TOOL_MODES)[number];

/** One mode's figures: medians over the sampled queries. */
export interface MultiToolFigures {
  /** Model calls, the final answer included. */
  steps: number;
  /** o200k tokens the model reads over all its calls: instructions, tool definitions, the conversation so far. */
  inputTokens: number;
  /** o200k tokens the model writes: its tool calls. */
  outputTokens: number;
  /** The share of the queries' relevant tools that ran (mean, 0-100): the same in both modes when the search is. */
  ranPercent: number;
}

/** The multi-tool figures of one dataset. */
export interface MultiToolResult {
  /** Queries with two or more relevant tools in the dataset. */
  queries: number;
  /** Of those, the ones measured (evenly spaced). */
  sampled: number;
  modes: Record<MultiToolMode, MultiToolFigures>;
}

/** A message of the scripted conversation, as the model re-reads it at every step. */
type Message = { role: 'user' | 'assistant' | 'tool'; content: unknown };

/** What one query cost in one mode. */
interface QueryCost {
  steps: number;
  inputTokens: number;
  outputTokens: number;
  ran: number;
}

/** The smallest arguments a schema accepts, as a model would fill them: each required property. */
export function argumentsFor(schema: JsonSchema | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  for (const name of (schema?.required ?? []) as string[]) args[name] = valueFor(properties[name]);
  return args;
}

function valueFor(schema: JsonSchema | undefined): unknown {
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return 'example';
  }
}

/** The query a scripted model searches again for a relevant tool its first search missed. */
function hintFor(description: string): string {
  return description.split(/\s+/).slice(0, 10).join(' ');
}

/** Measures one scripted conversation: each model call's input (re-read) and output tokens. */
class Meter {
  readonly messages: Message[];
  steps = 0;
  inputTokens = 0;
  outputTokens = 0;

  constructor(
    readonly session: ToolSearchSession,
    query: string,
  ) {
    this.messages = [{ role: 'user', content: query }];
  }

  /** One model call at `step`: it reads everything so far and writes `calls`. */
  async call(step: ToolSearchStep, calls: { name: string; input: unknown }[]): Promise<void> {
    this.steps++;
    const offered = (await this.session.measureStep(step)).offered.tokens;
    const instructions = await countTokens(step.instructions ?? '');
    this.inputTokens += offered + instructions + (await countTokens(JSON.stringify(this.messages)));
    const written = JSON.stringify(calls);
    this.outputTokens += await countTokens(written);
    this.messages.push({ role: 'assistant', content: calls });
  }

  /** The tools' answers, appended to the conversation. */
  results(outputs: unknown[]): void {
    for (const output of outputs) this.messages.push({ role: 'tool', content: output });
  }
}

/** `search-load`: search; search again (in parallel) for each relevant tool missed; load; call them all; answer. */
async function searchLoad(session: ToolSearchSession, query: DatasetQuery, threadId: string): Promise<QueryCost> {
  const meter = new Meter(session, query.query);
  const gold = relevantTools(session, query);
  const run = async (calls: { name: string; input: unknown }[]) => {
    const step = await session.prepareStep({ threadId });
    await meter.call(step, calls);
    const outcomes = await Promise.all(calls.map((call) => step.execute(call.name, call.input)));
    meter.results(outcomes.map((outcome) => (outcome.ok ? outcome.output : outcome.error.message)));
    return outcomes;
  };
  const [first] = await run([{ name: 'search_tools', input: { query: query.query } }]);
  const found = new Set(namesIn(first));
  const missed = gold.filter((tool) => !found.has(tool.name));
  if (missed.length > 0) {
    const again = await run(
      missed.map((tool) => ({ name: 'search_tools', input: { query: hintFor(tool.description) } })),
    );
    for (const outcome of again) for (const name of namesIn(outcome)) found.add(name);
  }
  const usable = gold.filter((tool) => found.has(tool.name));
  let ran = 0;
  if (usable.length > 0) {
    await run([{ name: 'load_tool', input: { toolNames: usable.map((tool) => tool.name) } }]);
    const outcomes = await run(usable.map((tool) => ({ name: tool.name, input: tool.args })));
    ran = outcomes.filter((outcome) => outcome.ok).length;
  }
  await meter.call(await session.prepareStep({ threadId }), []); // the answer
  return { steps: meter.steps, inputTokens: meter.inputTokens, outputTokens: meter.outputTokens, ran };
}

/** `code`: one program that searches, searches again for what it missed, and calls every relevant tool; answer. */
async function codeMode(session: ToolSearchSession, query: DatasetQuery, threadId: string): Promise<QueryCost> {
  const meter = new Meter(session, query.query);
  const gold = relevantTools(session, query);
  const want = Object.fromEntries(
    gold.map((tool) => [tool.name, { hint: hintFor(tool.description), args: tool.args }]),
  );
  const code = `const want = ${JSON.stringify(want)};
const found = new Set((await tools.search(${JSON.stringify(query.query)})).map((hit) => hit.id));
const results = {};
for (const [id, { hint, args }] of Object.entries(want)) {
  if (!found.has(id) && !(await tools.search(hint)).some((hit) => hit.id === id)) continue;
  try { results[id] = await tools.call(id, args); } catch (error) { results[id] = { error: error.message }; }
}
return results;`;
  const step = await session.prepareStep({ threadId });
  const call = { name: 'run_tool_code', input: { code } };
  await meter.call(step, [call]);
  const outcome = await step.execute(call.name, call.input);
  if (!outcome.ok) throw new Error(`code mode: ${outcome.error.message}`);
  meter.results([outcome.output]);
  const results = (outcome.output as { result: Record<string, unknown> }).result;
  const ran = Object.values(results).filter(
    (value) => !(value && typeof value === 'object' && 'error' in value),
  ).length;
  await meter.call(await session.prepareStep({ threadId }), []);
  return { steps: meter.steps, inputTokens: meter.inputTokens, outputTokens: meter.outputTokens, ran };
}

/** The tool of each relevant slot (the first of an `alternatives` group), as the model names and calls it. */
function relevantTools(session: ToolSearchSession, query: DatasetQuery) {
  return slotTools(query).flatMap((id) => {
    const tool = session.catalog.get(id);
    return tool
      ? [{ name: tool.toolName, description: tool.description ?? '', args: argumentsFor(tool.jsonSchema) }]
      : [];
  });
}

/** One tool id per relevant slot, in order. */
function slotTools(query: DatasetQuery): string[] {
  const first = new Map<number, string>();
  for (const [id, slot] of relevantSlots(query).slotOf) if (!first.has(slot)) first.set(slot, id);
  return [...first.values()];
}

function namesIn(outcome: { ok: boolean; output?: unknown } | undefined): string[] {
  const results = (outcome?.output as { results?: { name: string }[] } | undefined)?.results;
  return Array.isArray(results) ? results.map((result) => result.name) : [];
}

/** `count` items spread evenly over `items`, first included. */
function evenly<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

/**
 * The multi-tool figures of a dataset: for its queries with two or more relevant tools (at most
 * `queries`, evenly spaced), what a scripted agent spends in each mode. Tools answer `{ ok, tool }`.
 */
export async function runMultiTool(
  dataset: Dataset,
  sandbox: CodeSandbox,
  queries: number,
): Promise<MultiToolResult | undefined> {
  const multi = dataset.queries.filter((query) => relevantSlots(query).slots >= 2);
  if (multi.length === 0) return undefined;
  const sample = evenly(multi, queries);
  const catalog = new ToolCatalog(
    dataset.tools.map((tool) => ({ ...tool, execute: () => ({ ok: true, tool: tool.id }) })),
  );
  const index = new ToolIndex(catalog);
  const modes = {} as Record<MultiToolMode, MultiToolFigures>;
  for (const mode of MULTI_TOOL_MODES) {
    const session = new ToolSearchSession({
      catalog,
      index,
      mode,
      ...(mode === 'code' && { code: { sandbox, timeoutMs: 30_000 } }),
    });
    const costs: QueryCost[] = [];
    let relevant = 0;
    for (const [i, query] of sample.entries()) {
      const cost = await (mode === 'code' ? codeMode : searchLoad)(session, query, `m${i}`);
      costs.push(cost);
      relevant += slotTools(query).length;
    }
    session.dispose();
    modes[mode] = {
      steps: median(costs.map((cost) => cost.steps)),
      inputTokens: median(costs.map((cost) => cost.inputTokens)),
      outputTokens: median(costs.map((cost) => cost.outputTokens)),
      ranPercent: (100 * costs.reduce((sum, cost) => sum + cost.ran, 0)) / Math.max(relevant, 1),
    };
  }
  index.dispose();
  return { queries: multi.length, sampled: sample.length, modes };
}
