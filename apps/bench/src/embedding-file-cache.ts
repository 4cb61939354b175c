// An on-disk EmbeddingCache for the bench: the offline embedder takes minutes per catalog on a small
// machine, and the catalogs do not change between runs. One append-only file per embedder under the
// system's temporary folder (outside the project): records of a SHA-256 (32 bytes) and the unit
// vector (float32, little-endian). Delete the folder to start afresh.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbeddingCache } from '@toolscout/core';

/** Where the bench keeps embeddings: `$TOOLSCOUT_EMBEDDING_CACHE`, else `<tmpdir>/toolscout-bench-embeddings`. */
export function embeddingCacheDir(): string {
  return process.env.TOOLSCOUT_EMBEDDING_CACHE || join(tmpdir(), 'toolscout-bench-embeddings');
}

const HASH_BYTES = 32;

/**
 * A persistent `EmbeddingCache` for the vectors of one embedder of `dimensions` dimensions, read
 * whole on construction and appended to on every `set`. Keys are `${embedderId}:${sha256 hex}`;
 * other keys, and vectors of another length, are ignored. A truncated last record (an interrupted
 * run) is skipped.
 */
export class EmbeddingFileCache implements EmbeddingCache {
  readonly #vectors = new Map<string, Float32Array>();
  readonly #file: string;
  readonly #prefix: string;
  readonly #dimensions: number;

  constructor(embedderId: string, dimensions: number, dir: string = embeddingCacheDir()) {
    if (!/^[\w.-]+$/.test(embedderId)) throw new Error(`embedding cache: unusable embedder id "${embedderId}"`);
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new Error(`embedding cache: dimensions must be a positive integer, got ${String(dimensions)}`);
    }
    this.#prefix = `${embedderId}:`;
    this.#dimensions = dimensions;
    this.#file = join(dir, `${embedderId}-${dimensions}.bin`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(this.#file)) return;
    const data = readFileSync(this.#file);
    const record = HASH_BYTES + 4 * dimensions;
    for (let offset = 0; offset + record <= data.length; offset += record) {
      const vector = new Float32Array(dimensions);
      for (let j = 0; j < dimensions; j++) vector[j] = data.readFloatLE(offset + HASH_BYTES + 4 * j);
      this.#vectors.set(data.toString('hex', offset, offset + HASH_BYTES), vector);
    }
  }

  /** How many vectors the file holds. */
  get size(): number {
    return this.#vectors.size;
  }

  get(key: string): Float32Array | undefined {
    return key.startsWith(this.#prefix) ? this.#vectors.get(key.slice(this.#prefix.length)) : undefined;
  }

  set(key: string, vector: number[] | Float32Array): void {
    const hash = key.slice(this.#prefix.length);
    if (!key.startsWith(this.#prefix) || !/^[0-9a-f]{64}$/.test(hash) || vector.length !== this.#dimensions) return;
    const copy = Float32Array.from(vector);
    this.#vectors.set(hash, copy);
    appendFileSync(this.#file, Buffer.concat([Buffer.from(hash, 'hex'), Buffer.from(copy.buffer)]));
  }
}
