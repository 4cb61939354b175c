// A fresh process's first answer, for `bench perf`'s cold-start figures: reads the catalog's tools
// (and toolscout's saved index), imports only the engine it needs, builds or loads its index,
// answers one search and prints the first hit's id. `perf` times the whole process from outside.
//
//   node dist/cold-start.js <toolscout|mastra> <load|build> <folder with tools.json, query.txt[, index.bin]>
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolDescriptor } from '@toolscout/core';
import { compiledModule } from './child-run.js';

/** What a cold start does: load toolscout's saved index, or build the engine's index. */
export type ColdStartMode = 'load' | 'build';

/** The files a cold start reads from its folder. */
export const COLD_START_FILES = { tools: 'tools.json', query: 'query.txt', index: 'index.bin' } as const;

/** The first hit's id (or the empty string) of one search, after a cold build or load. */
export async function coldStart(engine: string, mode: ColdStartMode, dir: string): Promise<string> {
  const tools = JSON.parse(readFileSync(join(dir, COLD_START_FILES.tools), 'utf8')) as ToolDescriptor[];
  const query = readFileSync(join(dir, COLD_START_FILES.query), 'utf8');
  if (engine === 'toolscout') {
    const { ToolCatalog, ToolIndex } = await import('@toolscout/core');
    const catalog = new ToolCatalog(tools);
    const index =
      mode === 'load'
        ? ToolIndex.fromBinary(catalog, readFileSync(join(dir, COLD_START_FILES.index)))
        : new ToolIndex(catalog);
    const hits = await index.search(query, { limit: 10 });
    return hits[0]?.id ?? '';
  }
  if (engine === 'mastra' && mode === 'build') {
    const { mastraEngine } = await import('./engines/mastra.js');
    const index = await (await mastraEngine.prepare(tools)).build({ limit: 10 });
    return (await index.search(query))[0] ?? '';
  }
  throw new Error(`cold-start: no ${mode} for engine "${engine}"`);
}

/** The cold-start figures of one engine at one size. */
export interface ColdStartFigures {
  /**
   * Milliseconds from starting a fresh Node process to its first answer, exit included: the saved
   * index loaded (toolscout), else the index built (Mastra, which has no saved form).
   */
  coldStartMs: number;
  /** The same with the index built (toolscout too). */
  coldBuildMs: number;
  /** Milliseconds of a fresh Node process that does nothing (`node -e 0`), measured just before. */
  nodeStartMs: number;
}

/**
 * Times fresh processes (this Node, same flags as a user's: none) that answer one search over
 * `tools`: Node alone, then the engine with its index loaded from `saved` (when given) and built.
 * Each must answer `expected` (the first hit of the same search in this process), or it throws.
 */
export function timeColdStarts(
  engine: string,
  tools: readonly ToolDescriptor[],
  query: string,
  expected: string,
  saved?: Uint8Array,
): ColdStartFigures {
  const dir = mkdtempSync(join(tmpdir(), 'toolscout-cold-start-'));
  try {
    writeFileSync(join(dir, COLD_START_FILES.tools), JSON.stringify(tools));
    writeFileSync(join(dir, COLD_START_FILES.query), query);
    if (saved) writeFileSync(join(dir, COLD_START_FILES.index), saved);
    const program = compiledModule('cold-start.js');
    const run = (args: string[], check: boolean) => {
      const started = performance.now();
      const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
      const ms = performance.now() - started;
      if (child.status !== 0) throw new Error(`cold start ${args.join(' ')} failed: ${child.stderr || child.error}`);
      if (check && child.stdout !== expected) {
        throw new Error(`cold start ${args.slice(1).join(' ')} answered "${child.stdout}", expected "${expected}"`);
      }
      return ms;
    };
    const nodeStartMs = run(['-e', '0'], false);
    const coldBuildMs = run([program, engine, 'build', dir], true);
    const coldStartMs = saved ? run([program, engine, 'load', dir], true) : coldBuildMs;
    return { coldStartMs, coldBuildMs, nodeStartMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [engine = '', mode = '', dir = ''] = process.argv.slice(2);
  if (mode !== 'load' && mode !== 'build') throw new Error(`cold-start: mode "${mode}" is neither load nor build`);
  process.stdout.write(await coldStart(engine, mode, dir));
}
