// Reads a tool-retrieval dataset folder (tools.jsonl + queries.jsonl, format in the datasets' README)
// with core's JSON Lines importers. The data stays where it is: nothing is copied into the project.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseQueriesJsonl, parseToolsJsonl, type ToolDescriptor } from '@toolscout/core';
import type { Judgement } from './metrics.js';

/** One request with the tools that serve it. */
export interface DatasetQuery extends Judgement {
  /** Unique within the dataset. */
  id: string;
  /** The request, as a user would type it. */
  query: string;
  /** The dataset's own split label (e.g. `G1_instruction`, `test_in_domain/easy`). */
  split: string;
}

/** A dataset: its tools as descriptors and its judged queries. */
export interface Dataset {
  /** The folder's name (e.g. `toolbench`). */
  name: string;
  /** The tools, in file order. */
  tools: ToolDescriptor[];
  /** The queries, in file order. */
  queries: DatasetQuery[];
}

/**
 * Where the datasets are: `$TOOLSCOUT_DATASETS`, else `../shared/datasets` from the project root
 * (the folder holding `pnpm-workspace.yaml`).
 */
export function datasetsRoot(): string {
  const fromEnv = process.env.TOOLSCOUT_DATASETS;
  if (fromEnv) return resolve(fromEnv);
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (pnpm-workspace.yaml) above the bench app.');
    dir = parent;
  }
  return resolve(dir, '..', 'shared', 'datasets');
}

/** The dataset folders under `root` (those holding both files), sorted by name. */
export function listDatasets(root: string = datasetsRoot()): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() &&
        existsSync(join(root, entry.name, 'tools.jsonl')) &&
        existsSync(join(root, entry.name, 'queries.jsonl')),
    )
    .map((entry) => entry.name)
    .sort();
}

/** Parses a `tools.jsonl` into descriptors with core's importer (`parameters` becomes `inputSchema`). */
export function readTools(file: string): ToolDescriptor[] {
  return parseToolsJsonl(readFileSync(file, 'utf8'), { file });
}

/** Parses a `queries.jsonl` with core's importer. */
export function readQueries(file: string): DatasetQuery[] {
  return parseQueriesJsonl(readFileSync(file, 'utf8'), { file }).map((query) => {
    const out: DatasetQuery = { id: query.id, query: query.query, relevant: query.relevant, split: query.split ?? '' };
    if (query.alternatives !== undefined) out.alternatives = query.alternatives;
    return out;
  });
}

/** Loads the dataset in `folder` (a path, or a name under {@link datasetsRoot}). */
export function loadDataset(folder: string): Dataset {
  const dir = existsSync(join(folder, 'tools.jsonl')) ? folder : join(datasetsRoot(), folder);
  return {
    name: dir.split(/[\\/]/).filter(Boolean).pop() ?? folder,
    tools: readTools(join(dir, 'tools.jsonl')),
    queries: readQueries(join(dir, 'queries.jsonl')),
  };
}
