import { describe, expect, it } from 'vitest';
import { medianFigures } from './perf.js';

describe('medianFigures', () => {
  it('reports each figure as its median over the runs (each figure on its own)', () => {
    const figures = medianFigures([
      { buildMs: 500, searchP50Ms: 3, searchP99Ms: 9, heapMB: 30, indexMB: 3.7, loadMs: 250 },
      { buildMs: 420, searchP50Ms: 5, searchP99Ms: 8, heapMB: 30, indexMB: 3.7, loadMs: 210 },
      { buildMs: 700, searchP50Ms: 4, searchP99Ms: 12, heapMB: 31, indexMB: 3.7, loadMs: 300 },
    ]);
    expect(figures).toEqual({ buildMs: 500, searchP50Ms: 4, searchP99Ms: 9, heapMB: 30, indexMB: 3.7, loadMs: 250 });
  });

  it('leaves out the saved-index figures of an engine that has none', () => {
    expect(medianFigures([{ buildMs: 1, searchP50Ms: 2, searchP99Ms: 3, heapMB: 4 }])).toEqual({
      buildMs: 1,
      searchP50Ms: 2,
      searchP99Ms: 3,
      heapMB: 4,
    });
  });
});
