import { describe, expect, it } from 'vitest';
import type { Dataset } from './datasets.js';
import { baselineRankings } from './ranking-eval.js';

const dataset: Dataset = {
  name: 'mini',
  tools: [
    { id: 'weather', name: 'getWeatherForecast', description: 'Weather forecast for a city' },
    { id: 'email', name: 'send_email', description: 'Send an email' },
    { id: 'stock', name: 'StockQuote', description: 'Latest price', tags: ['finance'], source: 'Markets' },
  ],
  queries: [
    { id: 'q1', query: 'what is the weather forecast', relevant: ['weather'], split: '' },
    { id: 'q2', query: 'email someone', relevant: ['email'], split: '' },
    { id: 'q3', query: 'markets finance stock', relevant: ['stock'], split: '' },
    { id: 'q4', query: 'nothing matches this', relevant: ['stock'], split: '' },
  ],
};

describe('baselineRankings (plain BM25 floor)', () => {
  it('splits camelCase and snake_case and searches every field', () => {
    const rankings = baselineRankings(dataset);
    expect(rankings[0]![0]).toBe('weather');
    expect(rankings[1]).toEqual(['email']);
    expect(rankings[2]).toEqual(['stock']);
    expect(rankings[3]).toEqual([]);
  });
});
