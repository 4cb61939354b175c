import { requestOutcome } from './format-trace.js';
import { FRAMEWORK_LABELS, type FrameworkId, type RequestTrace } from './request-trace.js';

/** The token figures of one framework's run. */
export interface TokenRow {
  framework: FrameworkId;
  /** Requests run (the failed ones included). */
  requests: number;
  /** Requests that went search → load → a successful call. */
  succeeded: number;
  /** Model steps over all requests. */
  steps: number;
  /** The most tokens of tool definitions offered at one step with toolscout. */
  maxTokens: number;
  /** The mean tokens of tool definitions offered per step with toolscout. */
  meanTokens: number;
  /** Tokens of offering the whole catalog at every step instead. */
  catalogTokens: number;
}

/** One row per framework that ran, in the order given. */
export function tokenRows(
  frameworks: readonly FrameworkId[],
  traces: readonly RequestTrace[],
  catalogTokens: number,
): TokenRow[] {
  return frameworks.flatMap((framework) => {
    const runs = traces.filter((trace) => trace.framework === framework);
    if (runs.length === 0) return [];
    const offered = runs.flatMap((trace) => trace.steps.map((step) => step.offeredTokens));
    return [
      {
        framework,
        requests: runs.length,
        succeeded: runs.filter((trace) => requestOutcome(trace).callSucceeded).length,
        steps: offered.length,
        maxTokens: offered.length === 0 ? 0 : Math.max(...offered),
        meanTokens: offered.length === 0 ? 0 : offered.reduce((sum, tokens) => sum + tokens, 0) / offered.length,
        catalogTokens,
      },
    ];
  });
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A number with thousands separators. */
export function formatNumber(value: number): string {
  return numberFormat.format(Math.round(value));
}

/** Lays out rows as a plain-text table: text columns left-aligned, numbers right-aligned. */
export function alignTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: readonly boolean[],
): string[] {
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (numeric[index] ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
}

/** The token table: per framework, the requests that succeeded and tokens per step with toolscout (max, mean) against the whole catalog. */
export function formatTokenTable(rows: readonly TokenRow[]): string[] {
  const header = [
    'framework',
    'requests',
    'succeeded',
    'steps',
    'toolscout max',
    'toolscout mean',
    'whole catalog',
    'saved per step',
  ];
  const body = rows.map((row) => [
    FRAMEWORK_LABELS[row.framework],
    String(row.requests),
    String(row.succeeded),
    String(row.steps),
    formatNumber(row.maxTokens),
    formatNumber(row.meanTokens),
    formatNumber(row.catalogTokens),
    row.catalogTokens === 0 ? '-' : `${(100 * (1 - row.meanTokens / row.catalogTokens)).toFixed(1)}%`,
  ]);
  return alignTable(header, body, [false, true, true, true, true, true, true, true]);
}
