// A catalog whose tools are named like an engine's own meta-tools (the AI SDK's `tool_search`,
// Mastra's `search_tools` and `load_tool`) is ranked by every engine: such a tool is renamed for
// that engine and mapped back to its id for scoring, never fatal (issue #19 item 6).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDescriptor } from '@toolscout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import { loadDataset } from './datasets.js';
import { AI_SDK_SEARCH_TOOL, toAiSdkToolSet } from './engines/ai-sdk.js';
import { bm25Engine } from './engines/bm25.js';
import { ENGINES, engineToolNames } from './engines/index.js';
import { MASTRA_META_TOOLS, toMastraTools } from './engines/mastra.js';
import { type QualityResult, runQuality } from './quality.js';

const TOOLS = [
  { id: 'tool_search', description: 'Search the web for pages about a topic' },
  { id: 'search_tools', description: 'Find hardware tools in the store inventory by brand' },
  { id: 'load_tool', description: 'Load a truck with cargo pallets' },
  // (taken already: the renamed tools must pick other names)
  { id: 'tool_search_2', description: 'Look up the definition of a dictionary word' },
  { id: 'search_tools_2', description: 'Translate text between languages' },
  {
    id: 'Weather API__forecast',
    name: 'forecast',
    description: 'Weather forecast for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
];
const QUERIES = [
  { id: 'web', query: 'search the web for pages about cats', relevant: ['tool_search'] },
  { id: 'hardware', query: 'find a hammer brand in the hardware store inventory', relevant: ['search_tools'] },
  { id: 'truck', query: 'load cargo pallets on the truck', relevant: ['load_tool'] },
  { id: 'word', query: 'definition of the dictionary word serendipity', relevant: ['tool_search_2'] },
  { id: 'translate', query: 'translate this text between languages', relevant: ['search_tools_2'] },
  { id: 'weather', query: 'weather forecast in Rome', relevant: ['Weather API__forecast'] },
];
const descriptors: ToolDescriptor[] = TOOLS.map(({ parameters, ...tool }) =>
  parameters ? { ...tool, inputSchema: parameters } : tool,
);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolscout-reserved-'));
  const lines = (records: object[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
  writeFileSync(join(dir, 'tools.jsonl'), lines(TOOLS));
  writeFileSync(join(dir, 'queries.jsonl'), lines(QUERIES));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tools named like an engine’s meta-tools', () => {
  it('engineToolNames renames only reserved names, to the first free suffix', () => {
    expect(engineToolNames(['a', 'tool_search', 'tool_search_2', 'b'], ['tool_search'])).toEqual([
      'a',
      'tool_search_3',
      'tool_search_2',
      'b',
    ]);
    expect(engineToolNames(['search_tools', 'load_tool'], MASTRA_META_TOOLS)).toEqual([
      'search_tools_2',
      'load_tool_2',
    ]);
  });

  it('the AI SDK tool set keys them apart from its search tool and maps them back', () => {
    const { tools, idOf } = toAiSdkToolSet(descriptors, 3);
    expect(Object.keys(tools)).toHaveLength(TOOLS.length + 1);
    expect(idOf.get('tool_search_3')).toBe('tool_search');
    expect(idOf.has(AI_SDK_SEARCH_TOOL)).toBe(false);
    expect(idOf.get('tool_search_2')).toBe('tool_search_2');
  });

  it('Mastra’s tools key them apart from search_tools and load_tool and map them back', () => {
    const { tools, idOf } = toMastraTools(descriptors);
    expect(
      Object.keys(tools)
        .filter((name) => !name.startsWith('Weather'))
        .sort(),
    ).toEqual(['load_tool_2', 'search_tools_2', 'search_tools_3', 'tool_search', 'tool_search_2'].sort());
    expect(idOf.get('search_tools_3')).toBe('search_tools');
    expect(idOf.get('load_tool_2')).toBe('load_tool');
    expect(idOf.get('search_tools_2')).toBe('search_tools_2');
  });

  it.each(ENGINES.map((engine) => [engine.name, engine] as const))(
    '%s ranks them under their ids',
    async (_, engine) => {
      const index = await (await engine.prepare(descriptors)).build({ limit: 3 });
      try {
        for (const query of QUERIES) expect((await index.search(query.query))[0], query.id).toBe(query.relevant[0]);
      } finally {
        index.dispose?.();
      }
    },
    60_000,
  );

  it('`bench quality --dataset DIR` runs every engine on such a folder and scores them', async () => {
    let stdout = '';
    let stderr = '';
    const code = await main(['quality', '--dataset', dir, '--json'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      isolatePerf: false,
    });
    expect(stderr).not.toMatch(/failed/);
    expect(code).toBe(0);
    const [result] = (JSON.parse(stdout) as { quality: QualityResult[] }).quality;
    expect(result?.failed).toBeUndefined();
    expect(Object.keys(result!.engines).sort()).toEqual(ENGINES.map((engine) => engine.name).sort());
    for (const figures of Object.values(result!.engines)) expect(figures.r1).toBe(100);
  }, 120_000);
});

describe('an engine that fails on a dataset', () => {
  it('is listed in `failed` with its error and the query, and the other engines still run', async () => {
    const broken = {
      ...bm25Engine,
      async prepare() {
        return {
          async build() {
            return {
              async search(query: string): Promise<string[]> {
                if (query.includes('truck')) throw new Error('no trucks here');
                return [];
              },
            };
          },
        };
      },
    };
    const [result] = await runQuality([loadDataset(dir)], { engines: [broken, 'toolscout'] });
    expect(result?.failed).toEqual({ bm25: 'failed searching for query "truck": no trucks here' });
    expect(result?.engines.toolscout?.r1).toBe(100);
    expect(result?.engines.bm25).toBeUndefined();
  });
});

const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
describe.skipIf(!existsSync(bin))('the built bench (node dist/cli.js quality --dataset DIR)', () => {
  it('ranks the folder with every engine and exits 0', () => {
    const run = spawnSync(process.execPath, [bin, 'quality', '--dataset', dir], { encoding: 'utf8', timeout: 120_000 });
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\| ai-sdk +\| 100\.0 \|/);
    expect(run.stdout).toMatch(/\| mastra +\| 100\.0 \|/);
  }, 120_000);
});
