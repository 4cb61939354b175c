import { unwrapToolOutput } from '@toolscout/core/internal';
import type { RequestTrace, TraceCall } from './request-trace.js';
import { loadedNames, oneLine, resultText, searchHits } from './scripted-agent.js';

/** Text styles: ANSI colours on a terminal, plain text otherwise. */
export interface OutputStyle {
  bold(text: string): string;
  dim(text: string): string;
  good(text: string): string;
  bad(text: string): string;
  accent(text: string): string;
}

/** The styles for a terminal (`color: true`) or for plain text. */
export function outputStyle(color: boolean): OutputStyle {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return { bold: wrap(1, 22), dim: wrap(2, 22), good: wrap(32, 39), bad: wrap(31, 39), accent: wrap(36, 39) };
}

/** The meta-tools' names as the session names them by default. */
const SEARCH = 'search_tools';
const LOAD = 'load_tool';

/** How a request went: did the model search, load the top hit and call it successfully? */
export interface RequestOutcome {
  searched: boolean;
  /** The tool the model loaded, when the load succeeded. */
  loaded?: string;
  /** The tool the model called after loading it, when it called one. */
  called?: string;
  /** Whether that call succeeded. */
  callSucceeded: boolean;
}

/** The outcome of a request (see {@link RequestOutcome}). */
export function requestOutcome(trace: RequestTrace): RequestOutcome {
  const calls = trace.steps.flatMap((step) => step.calls);
  const search = calls.find((call) => call.toolName === SEARCH && call.result?.ok);
  const load = calls.find(
    (call) => call.toolName === LOAD && call.result?.ok && loadedNames(call.result.output).length > 0,
  );
  const loaded = load?.result ? loadedNames(load.result.output)[0] : undefined;
  const call = calls.find((item) => item.toolName !== SEARCH && item.toolName !== LOAD);
  const outcome: RequestOutcome = { searched: search !== undefined, callSucceeded: call?.result?.ok === true };
  if (loaded !== undefined) outcome.loaded = loaded;
  if (call !== undefined) outcome.called = call.toolName;
  return outcome;
}

function offeredList(names: readonly string[], max = 6): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')}, +${names.length - max} more`;
}

function describeResult(call: TraceCall, style: OutputStyle): string {
  const result = call.result;
  if (result === undefined) return style.dim('(no result: the run stopped before the model saw one)');
  if (!result.ok) return style.bad(`error: ${oneLine(resultText(unwrapMessage(result.output)), 200)}`);
  if (call.toolName === SEARCH) {
    const hits = searchHits(result.output);
    if (hits.length === 0) return 'no hits';
    const shown = hits
      .slice(0, 3)
      .map((hit) => (hit.score === undefined ? hit.name : `${hit.name} (${hit.score.toFixed(2)})`))
      .join(', ');
    return `${hits.length} hit${hits.length === 1 ? '' : 's'}: ${shown}${hits.length > 3 ? ', …' : ''}`;
  }
  if (call.toolName === LOAD) {
    const value = unwrapToolOutput(result.output) as { message?: unknown } | undefined;
    const names = loadedNames(result.output);
    return typeof value?.message === 'string' ? oneLine(value.message, 200) : `loaded ${names.join(', ')}`;
  }
  const value = unwrapToolOutput(result.output) as { dryRun?: unknown; arguments?: unknown } | undefined;
  if (typeof value === 'object' && value !== null && value.dryRun === true) {
    return style.good(
      `dry run (no executor): arguments valid, ${oneLine(JSON.stringify(value.arguments) ?? '{}', 160)}`,
    );
  }
  return style.good(`ok: ${oneLine(resultText(result.output), 200)}`);
}

/** Error results that are an MCP result or JSON keep their text; others read as they are. */
function unwrapMessage(output: unknown): unknown {
  return typeof output === 'object' && output !== null && 'content' in output ? output : unwrapToolOutput(output);
}

/** One request's trace: a numbered line per step with what was offered, the calls and their results. */
export function formatTrace(trace: RequestTrace, index: number, style: OutputStyle): string[] {
  const lines = [style.bold(`  Request ${index + 1}: ${trace.request}`)];
  trace.steps.forEach((step, number) => {
    for (const note of step.notes ?? []) lines.push(style.dim(`       (${note})`));
    lines.push(
      `    ${String(number + 1).padStart(2)}. offered ${step.offered.length} tool${step.offered.length === 1 ? '' : 's'} ` +
        style.dim(`(${step.offeredTokens} tokens): ${offeredList(step.offered)}`),
    );
    for (const call of step.calls) {
      lines.push(`        → ${style.accent(call.toolName)} ${oneLine(JSON.stringify(call.input) ?? '{}', 200)}`);
      lines.push(`        ← ${describeResult(call, style)}`);
    }
    if (step.answer !== undefined) lines.push(`        answer: ${oneLine(step.answer, 240)}`);
  });
  if (trace.error !== undefined) lines.push(style.bad(`    the run failed: ${oneLine(trace.error, 300)}`));
  const outcome = requestOutcome(trace);
  const summary =
    outcome.searched && outcome.loaded && outcome.called
      ? `search → load ${outcome.loaded} → call ${outcome.callSucceeded ? 'succeeded' : 'failed'}`
      : `stopped after ${outcome.loaded ? 'load' : outcome.searched ? 'search' : 'no search'}`;
  lines.push(`    ${outcome.callSucceeded ? style.good(`✓ ${summary}`) : style.bad(`✗ ${summary}`)}`);
  return lines;
}

/**
 * One framework's requests in one line, for a framework whose trace is not shown: how many went
 * search → load → call, and the tools called.
 */
export function formatSummary(traces: readonly RequestTrace[], style: OutputStyle): string {
  const outcomes = traces.map(requestOutcome);
  const succeeded = outcomes.filter((outcome) => outcome.callSucceeded);
  const called = succeeded.map((outcome) => outcome.called).join(', ');
  const line = `${succeeded.length} of ${traces.length} requests: search → load the top hit → call succeeded${called ? ` (${called})` : ''}`;
  return `  ${succeeded.length === traces.length ? style.good(`✓ ${line}`) : style.bad(`✗ ${line}`)}`;
}
