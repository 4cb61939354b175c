// The options of a ToolIndex as given, checked when the index is made (see {@link checkIndexOptions}).
import { InvalidOptionError } from '../errors.js';
import type { Embedder } from '../types.js';
import { describeValue, isRecord } from '../values.js';
import { resolveFusion } from './fuse-rankings.js';
import type { ToolIndexOptions } from './tool-index.js';

/** Whether `value` is an object with a method of each name. */
function hasMethods(value: unknown, names: readonly string[]): value is Record<string, unknown> {
  return isRecord(value) && names.every((name) => typeof value[name] === 'function');
}

/** Whether `value` is an {@link Embedder}: an object with an `id` string and an `embed` method. */
export function isEmbedder(value: unknown): boolean {
  return hasMethods(value, ['embed']) && typeof value.id === 'string';
}

/**
 * A ToolIndex's options, checked for their kinds (their numbers are checked where they are read):
 * an object, or absent; an `embedder` with an `id` string and an `embed` method; an
 * `embeddingCache` with `get` and `set` methods; `fusion` an object. Each bad one is an
 * {@link InvalidOptionError} naming it (under `path`, e.g. `indexOptions.` for a session's), when the
 * index is made rather than at its first search.
 */
export function checkIndexOptions(options: unknown, path = ''): ToolIndexOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) {
    const name = path === '' ? 'options' : path.slice(0, -1);
    throw new InvalidOptionError(name, `${name} must be an object (ToolIndexOptions); got ${describeValue(options)}.`);
  }
  const { embedder, embeddingCache, fusion } = options;
  if (embedder !== undefined && !isEmbedder(embedder)) {
    throw new InvalidOptionError(
      `${path}embedder`,
      `${path}embedder must be an Embedder: an object with an "id" string and an embed(texts) method; got ${describeValue(embedder)}${isRecord(embedder) ? ' without them' : ''}.`,
    );
  }
  if (embeddingCache !== undefined && !hasMethods(embeddingCache, ['get', 'set'])) {
    throw new InvalidOptionError(
      `${path}embeddingCache`,
      `${path}embeddingCache must be an EmbeddingCache: an object with get(key) and set(key, vector) methods; got ${describeValue(embeddingCache)}.`,
    );
  }
  if (fusion !== undefined && !isRecord(fusion)) {
    throw new InvalidOptionError(
      `${path}fusion`,
      `${path}fusion must be an object of fusion settings; got ${describeValue(fusion)}.`,
    );
  }
  if (fusion !== undefined) resolveFusion(fusion, `${path}fusion.`); // (not only at the first hybrid search)
  return options as ToolIndexOptions;
}
