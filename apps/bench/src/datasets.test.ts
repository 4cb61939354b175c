import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDatasets, loadDataset } from './datasets.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'toolscout-datasets-'));
  const dir = join(root, 'mini');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'tools.jsonl'),
    [
      JSON.stringify({
        id: 'Weather API__Get forecast',
        name: 'Get forecast',
        description: 'Forecast for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        tags: ['Weather', 'Weather API'],
        source: 'Weather API',
      }),
      '',
      JSON.stringify({ id: 'calc', name: 'calc', description: '', parameters: null }),
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    [
      JSON.stringify({ id: 'q1', query: 'weather in Paris', relevant: ['Weather API__Get forecast'], split: 'G1' }),
      JSON.stringify({ id: 'q2', query: 'add numbers', relevant: ['calc'], alternatives: [['calc', 'calc2']] }),
    ].join('\n'),
  );
  mkdirSync(join(root, 'not-a-dataset'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('datasets', () => {
  it('lists only folders holding both files', () => {
    expect(listDatasets(root)).toEqual(['mini']);
  });

  it('loads tools as descriptors and queries as judgements', () => {
    const dataset = loadDataset(join(root, 'mini'));
    expect(dataset.name).toBe('mini');
    expect(dataset.tools).toHaveLength(2);
    expect(dataset.tools[0]).toMatchObject({
      id: 'Weather API__Get forecast',
      name: 'Get forecast',
      source: 'Weather API',
      tags: ['Weather', 'Weather API'],
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    });
    expect(dataset.tools[1]!.inputSchema).toBeUndefined();
    expect(dataset.queries).toEqual([
      { id: 'q1', query: 'weather in Paris', relevant: ['Weather API__Get forecast'], split: 'G1' },
      { id: 'q2', query: 'add numbers', relevant: ['calc'], split: '', alternatives: [['calc', 'calc2']] },
    ]);
  });

  it('names the file and line of a malformed entry', () => {
    const dir = join(root, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'tools.jsonl'), '{"id": "a"}\n{not json}\n');
    writeFileSync(join(dir, 'queries.jsonl'), '');
    expect(() => loadDataset(dir)).toThrow(/tools\.jsonl.*line 2/);
  });
});
