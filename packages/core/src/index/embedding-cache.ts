import { InvalidOptionError } from '../errors.js';

/**
 * Where a `VectorIndex` keeps tool vectors so that an unchanged tool is never embedded again: across
 * deletes and re-adds, across index instances sharing the cache, across processes (for a persistent
 * implementation). Keys are `embeddingCacheKey(embedder.id, text)`: `${embedder.id}:${sha256(text)}`.
 * Both methods may be synchronous or return a promise, so a Map, a file or Redis can back it.
 *
 * Vectors handed to `set` are already normalised to unit length. What `get` returns is copied by the
 * index, never mutated; a vector of the wrong length is ignored (treated as a miss).
 */
export interface EmbeddingCache {
  get(key: string): Promise<Float32Array | number[] | undefined> | Float32Array | number[] | undefined;
  set(key: string, vector: number[] | Float32Array): Promise<void> | void;
}

export interface InMemoryEmbeddingCacheOptions {
  /**
   * The most vectors kept; beyond it the least recently used are dropped. Default: unbounded (a
   * 512-dimension vector takes 2 KiB, so 10,000 tools take about 20 MiB).
   */
  maxEntries?: number;
}

/**
 * A Map-backed `EmbeddingCache` for one process: share one between `VectorIndex` instances (or
 * `ToolIndex`es) so that rebuilding an index does not embed unchanged tools again.
 *
 * @example
 * const cache = new InMemoryEmbeddingCache();
 * const a = new VectorIndex({ embedder, cache });
 * const b = new VectorIndex({ embedder, cache }); // reuses every vector `a` computed
 */
export class InMemoryEmbeddingCache implements EmbeddingCache {
  readonly #entries = new Map<string, Float32Array>();
  readonly #maxEntries: number;

  constructor(options: InMemoryEmbeddingCacheOptions = {}) {
    const { maxEntries = Number.POSITIVE_INFINITY } = options;
    if (!(maxEntries >= 1) || (Number.isFinite(maxEntries) && !Number.isInteger(maxEntries))) {
      throw new InvalidOptionError(
        'maxEntries',
        `maxEntries must be a positive integer (or Infinity), got ${String(options.maxEntries)}.`,
      );
    }
    this.#maxEntries = maxEntries;
  }

  /** How many vectors the cache holds. */
  get size(): number {
    return this.#entries.size;
  }

  get(key: string): Float32Array | undefined {
    const vector = this.#entries.get(key);
    if (vector !== undefined && Number.isFinite(this.#maxEntries)) {
      // Mark as most recently used: Map iteration follows insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, vector);
    }
    return vector;
  }

  set(key: string, vector: number[] | Float32Array): void {
    this.#entries.delete(key);
    this.#entries.set(key, Float32Array.from(vector));
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const encoder = new TextEncoder();

/** The SHA-256 of a string's UTF-8 bytes, as 64 lowercase hex digits (Web Crypto: Node, browsers, workers). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of digest) hex += HEX[byte];
  return hex;
}

/** The key a `VectorIndex` stores a text's vector under: `${embedderId}:${sha256(text)}`. */
export async function embeddingCacheKey(embedderId: string, text: string): Promise<string> {
  return `${embedderId}:${await sha256Hex(text)}`;
}
