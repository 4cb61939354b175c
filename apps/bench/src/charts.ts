// SVG charts of the results, rendered in Node by Vega-Lite / Vega (no browser, no canvas).
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { type PerfResult, perfFigures } from './perf.js';
import type { QualityResult } from './quality.js';

/** Renders a Vega-Lite spec to an SVG document. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const FONT = { font: 'Helvetica, Arial, sans-serif', labelFont: 'Helvetica, Arial, sans-serif' };

/** One colour per engine, the same in every chart. */
const ENGINE_COLORS: Readonly<Record<string, string>> = {
  toolscout: '#1f5fbf',
  'toolscout-hybrid': '#6aa6e8',
  mastra: '#e8871e',
  'ai-sdk': '#c4403a',
  bm25: '#8c8c8c',
};

function colorScale(engines: readonly string[]) {
  return { domain: [...engines], range: engines.map((engine) => ENGINE_COLORS[engine] ?? '#555555') };
}

/** NDCG@10 per engine, grouped by dataset. */
export function qualityChartSpec(results: readonly QualityResult[]): TopLevelSpec {
  const values = results.flatMap((result) =>
    Object.entries(result.engines).map(([engine, figures]) => ({
      dataset: `${result.dataset} (${result.tools.toLocaleString('en-US')} tools)`,
      engine,
      ndcg10: figures.ndcg10,
    })),
  );
  const engines = [...new Set(values.map((value) => value.engine))];
  const datasets = [...new Set(values.map((value) => value.dataset))];
  const encoding = {
    x: { field: 'dataset', type: 'nominal', title: null, sort: datasets, axis: { labelAngle: 0, labelLimit: 0 } },
    xOffset: { field: 'engine', type: 'nominal', sort: engines },
    y: { field: 'ndcg10', type: 'quantitative', title: 'NDCG@10', scale: { domain: [0, 100] } },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Ranking quality: NDCG@10 per engine (limit 10)', ...FONT },
    width: { step: 34 },
    height: 260,
    background: 'white',
    data: { values },
    encoding,
    layer: [
      {
        mark: { type: 'bar', tooltip: true },
        encoding: {
          color: { field: 'engine', type: 'nominal', sort: engines, title: 'engine', scale: colorScale(engines) },
        },
      },
      {
        mark: { type: 'text', dy: -6, fontSize: 10 },
        encoding: { text: { field: 'ndcg10', type: 'quantitative', format: '.1f' } },
      },
    ],
    config: { axis: FONT, legend: FONT, text: { font: FONT.font } },
  } as TopLevelSpec;
}

/** Search latency (p50 and p99, log scale) against catalog size (log scale), per engine. */
export function latencyChartSpec(results: readonly PerfResult[]): TopLevelSpec {
  const values = results.flatMap((result) =>
    Object.entries(result.engines).flatMap(([engine, perf]) => {
      const figures = perfFigures(perf);
      if (figures?.searchP50Ms === undefined || figures.searchP99Ms === undefined) return [];
      return [
        { engine, tools: result.tools, statistic: 'p50', ms: Math.max(figures.searchP50Ms, 0.001) },
        { engine, tools: result.tools, statistic: 'p99', ms: Math.max(figures.searchP99Ms, 0.001) },
      ];
    }),
  );
  const engines = [...new Set(values.map((value) => value.engine))];
  const sizes = [...new Set(results.map((result) => result.tools))];
  const missing = results.flatMap((result) =>
    Object.entries(result.engines).flatMap(([engine, perf]) => {
      const figures = perfFigures(perf);
      if (figures?.searchP50Ms !== undefined) return [];
      const why =
        perf && 'error' in perf ? 'failed' : `timed out (> ${(perf as { timeoutMs: number }).timeoutMs / 1000} s)`;
      return [`${engine} ${why} at ${result.tools.toLocaleString('en-US')} tools`];
    }),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Search latency against catalog size (log scales)',
      ...(missing.length > 0 ? { subtitle: `Not plotted: ${missing.join('; ')}` } : {}),
      ...FONT,
    },
    width: 420,
    height: 260,
    background: 'white',
    data: { values },
    mark: { type: 'line', point: true, tooltip: true },
    encoding: {
      x: {
        field: 'tools',
        type: 'quantitative',
        title: 'tools in the catalog',
        scale: { type: 'log' },
        axis: { values: sizes, format: ',d' },
      },
      y: { field: 'ms', type: 'quantitative', title: 'ms per search (limit 10)', scale: { type: 'log' } },
      color: { field: 'engine', type: 'nominal', title: 'engine', sort: engines, scale: colorScale(engines) },
      strokeDash: {
        field: 'statistic',
        type: 'nominal',
        title: 'statistic',
        legend: {
          symbolType: 'stroke',
          symbolStrokeWidth: 2,
          encode: { symbols: { update: { stroke: { value: '#333333' } } } },
        },
      },
      detail: { field: 'statistic', type: 'nominal' },
    },
    config: { axis: FONT, legend: FONT },
  } as TopLevelSpec;
}

/** The quality chart as SVG. */
export function qualityChart(results: readonly QualityResult[]): Promise<string> {
  return renderSvg(qualityChartSpec(results));
}

/** The latency chart as SVG. */
export function latencyChart(results: readonly PerfResult[]): Promise<string> {
  return renderSvg(latencyChartSpec(results));
}
