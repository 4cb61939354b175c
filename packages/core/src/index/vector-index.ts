import { EmbedderOutputError, ImportError, InvalidOptionError } from '../errors.js';
import type { Embedder } from '../types.js';
import { allFinite } from '../values.js';
import { type EmbeddingCache, sha256Hex } from './embedding-cache.js';
import { decodeVector, encodedFloatCount, encodeVector } from './vector-encoding.js';

export interface VectorIndexOptions {
  /** Turns tool texts and queries into vectors. Its `id` prefixes cache keys and must match in `fromJSON`. */
  embedder: Embedder;
  /**
   * Keeps vectors beyond the index's own rows, keyed by `${embedder.id}:${sha256(text)}`: share one
   * between instances, or use a persistent one, so unchanged tools are never embedded again. Without
   * it, re-setting a tool to the text it already has still costs nothing; a deleted tool's vector is
   * dropped.
   */
  cache?: EmbeddingCache;
  /** Texts per `embedder.embed` call. Default 64. */
  batchSize?: number;
}

/** One tool found by `VectorIndex.search`. */
export interface VectorHit {
  /** The tool id given to `set`. */
  id: string;
  /** Cosine similarity between the query and the tool's text, in [-1, 1]. */
  similarity: number;
}

/** One embedded tool in `SerializedVectorIndex`. */
export interface SerializedVectorEntry {
  /** The tool id. */
  id: string;
  /** SHA-256 (hex) of the text the vector was made from: an unchanged text is not embedded again. */
  hash: string;
  /** The unit-length vector: little-endian float32, base64. */
  vector: string;
}

/** `VectorIndex.toJSON()`: plain JSON, safe to `JSON.stringify` and store. */
export interface SerializedVectorIndex {
  /** Format version (2: each tool's name as words and first sentence embedded; 1, its whole text). */
  version: 2;
  /** The embedder the vectors came from; `fromJSON` refuses another. */
  embedderId: string;
  /** Vector length (0 while nothing is embedded). */
  dimensions: number;
  /** The embedded tools. */
  entries: SerializedVectorEntry[];
  /** Tools recorded by `set` but not embedded yet; `fromJSON` embeds them on the next flush. */
  pending: { id: string; text: string }[];
}

const DEFAULT_BATCH_SIZE = 64;

interface PendingText {
  text: string;
  hash?: string;
}

/** Thrown when an embedder breaks its contract (vector count, length, non-finite values). */
function embedderError(embedder: Embedder, problem: string): EmbedderOutputError {
  return new EmbedderOutputError(embedder.id, problem);
}

/**
 * Semantic search over tool texts: cosine similarity between a query's embedding and each tool's.
 *
 * `set` only records a text; embedding happens on the next `search` or `flush()`, in batches of
 * `batchSize`, once per distinct text: a vector is reused when the tool's text is unchanged (same
 * SHA-256), when the cache has it, or when another tool in the same flush has the same text.
 * Concurrent `search`/`flush` calls share one running flush. Vectors are stored normalised, in one
 * contiguous `Float32Array`; a search is a brute-force scan with a bounded heap (about 80 ms per
 * 100,000 tools of 512 dimensions), allocating nothing proportional to the catalog.
 *
 * @example
 * const index = new VectorIndex({ embedder: createUseEmbedder() });
 * index.set('get_weather', 'get_weather: Current weather and forecast for a city');
 * index.set('convert_currency', 'convert_currency: Convert an amount between currencies');
 * await index.search("what's the temperature outside", 5);
 * // [{ id: 'get_weather', similarity: ≈0.4 }, { id: 'convert_currency', similarity: ≈0.05 }]
 */
/** How many recent queries' vectors a {@link VectorIndex} keeps. */
const MAX_CACHED_QUERIES = 256;

export class VectorIndex {
  readonly #embedder: Embedder;
  readonly #cache: EmbeddingCache | undefined;
  readonly #batchSize: number;

  #dimensions = 0;
  /** Row-major, `#ids.length` rows of `#dimensions` floats (capacity may be larger). */
  #matrix = new Float32Array(0);
  readonly #ids: string[] = [];
  readonly #hashes: string[] = [];
  readonly #rows = new Map<string, number>();
  readonly #pending = new Map<string, PendingText>();
  #flushing: Promise<void> | undefined;
  #query: Float32Array = new Float32Array(0);
  /**
   * The normalised vectors of the latest queries, least recently used first: an agent asks about
   * one request at every step of its loop, and embedding it again costs a model call.
   */
  readonly #queries = new Map<string, Float32Array>();

  constructor(options: VectorIndexOptions) {
    const { embedder, cache, batchSize = DEFAULT_BATCH_SIZE } = options;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new InvalidOptionError('batchSize', `batchSize must be a positive integer, got ${String(batchSize)}.`);
    }
    this.#embedder = embedder;
    this.#cache = cache;
    this.#batchSize = batchSize;
  }

  /** How many tools the index holds, embedded or not yet. */
  get size(): number {
    let size = this.#rows.size;
    for (const id of this.#pending.keys()) if (!this.#rows.has(id)) size++;
    return size;
  }

  /** Vector length, once the first vector is known (0 before). */
  get dimensions(): number {
    return this.#dimensions;
  }

  /** Whether the index holds the tool (embedded or pending). */
  has(id: string): boolean {
    return this.#rows.has(id) || this.#pending.has(id);
  }

  /** Adds a tool or replaces its text. Embedding waits for the next `search` or `flush()`. */
  set(id: string, text: string): void {
    if (this.#pending.get(id)?.text === text) return;
    this.#pending.set(id, { text });
  }

  /** Removes a tool; unknown ids are ignored. */
  delete(id: string): void {
    this.#pending.delete(id);
    const row = this.#rows.get(id);
    if (row === undefined) return;
    const last = this.#ids.length - 1;
    if (row !== last) {
      const lastId = this.#ids[last]!;
      const d = this.#dimensions;
      this.#matrix.copyWithin(row * d, last * d, last * d + d);
      this.#ids[row] = lastId;
      this.#hashes[row] = this.#hashes[last]!;
      this.#rows.set(lastId, row);
    }
    this.#ids.pop();
    this.#hashes.pop();
    this.#rows.delete(id);
  }

  /** Embeds every pending text. Resolves once nothing is pending; a concurrent call joins the running flush. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) {
      this.#flushing ??= this.#embedPending().finally(() => {
        this.#flushing = undefined;
      });
      await this.#flushing;
    }
  }

  /**
   * The `limit` tools most similar to `query` (cosine, best first; ties by id). Flushes first, so
   * every `set` before the call is searched. An empty or blank query finds nothing.
   */
  async search(query: string, limit: number): Promise<VectorHit[]> {
    await this.flush();
    if (this.#rows.size === 0 || !(limit >= 1) || query.trim() === '') return [];
    let normalised = this.#queries.get(query);
    if (normalised === undefined || normalised.length !== this.#dimensions) {
      const [vector] = this.#checkOutput(await this.#embedder.embed([query]), 1);
      normalised = new Float32Array(this.#dimensions);
      normaliseInto(vector!, normalised, 0);
    }
    this.#queries.delete(query);
    this.#queries.set(query, normalised);
    if (this.#queries.size > MAX_CACHED_QUERIES) this.#queries.delete(this.#queries.keys().next().value!);
    const count = this.#ids.length;
    if (count === 0) return [];
    this.#query = normalised;
    return this.#scan(Math.min(Math.floor(limit), count));
  }

  /** A JSON-safe snapshot, vectors included; restore it with `VectorIndex.fromJSON`. */
  toJSON(): SerializedVectorIndex {
    const d = this.#dimensions;
    return {
      version: 2,
      embedderId: this.#embedder.id,
      dimensions: d,
      entries: this.#ids.map((id, row) => ({
        id,
        hash: this.#hashes[row]!,
        vector: encodeVector(this.#matrix.subarray(row * d, row * d + d)),
      })),
      pending: [...this.#pending].map(([id, { text }]) => ({ id, text })),
    };
  }

  /**
   * Restores a `toJSON()` snapshot without embedding anything (pending texts are embedded on the next
   * flush). Throws `ImportError` when the snapshot is malformed or came from another embedder.
   */
  static fromJSON(json: SerializedVectorIndex, options: VectorIndexOptions): VectorIndex {
    const index = new VectorIndex(options);
    const fail = (problem: string, field?: string): never => {
      throw new ImportError(problem, field === undefined ? { file: 'vector index' } : { file: 'vector index', field });
    };
    if (typeof json !== 'object' || json === null) fail('expected an object from VectorIndex#toJSON()');
    if ((json.version as number) === 1) {
      fail(
        "version 1 holds vectors of each tool's whole text, where this version embeds its name and first sentence; rebuild the index from the tools and save it again",
        'version',
      );
    }
    if (json.version !== 2) {
      const found = json.version === undefined ? 'no version' : `unsupported version ${JSON.stringify(json.version)}`;
      fail(`${found} (expected 2)`, 'version');
    }
    if (json.embedderId !== options.embedder.id) {
      fail(
        `the vectors were made by embedder "${String(json.embedderId)}", not "${options.embedder.id}"; vectors of different models cannot be compared, so rebuild the index from the tools`,
        'embedderId',
      );
    }
    const d = json.dimensions;
    if (!Number.isInteger(d) || d < 0) fail('expected a non-negative integer', 'dimensions');
    if (!Array.isArray(json.entries)) fail('expected an array', 'entries');
    if (!Array.isArray(json.pending)) fail('expected an array', 'pending');
    if (d === 0 && json.entries.length > 0) fail("expected a positive length for the entries' vectors", 'dimensions');

    index.#dimensions = d;
    json.entries.forEach((entry, row) => {
      const field = `entries[${row}]`;
      if (typeof entry?.id !== 'string') fail('expected a string', `${field}.id`);
      if (typeof entry.hash !== 'string') fail('expected a string', `${field}.hash`);
      if (index.#rows.has(entry.id)) fail(`duplicate id "${entry.id}"`, `${field}.id`);
      if (row === 0) {
        // (before making room for them all: dimensions that the vectors do not have)
        const floats = encodedFloatCount(entry.vector);
        if (floats < 0) fail(`expected ${d} float32 values in base64`, `${field}.vector`);
        if (floats !== d) fail(`the vector section has ${d} dimensions, its vectors ${floats}`, 'dimensions');
        index.#reserve(json.entries.length);
      }
      const target = index.#matrix.subarray(row * d, row * d + d);
      if (!decodeVector(entry.vector, target)) fail(`expected ${d} float32 values in base64`, `${field}.vector`);
      index.#rows.set(entry.id, row);
      index.#ids.push(entry.id);
      index.#hashes.push(entry.hash);
    });
    json.pending.forEach((entry, i) => {
      if (typeof entry?.id !== 'string') fail('expected a string', `pending[${i}].id`);
      if (typeof entry.text !== 'string') fail('expected a string', `pending[${i}].text`);
      index.set(entry.id, entry.text);
    });
    return index;
  }

  async #embedPending(): Promise<void> {
    const snapshot = [...this.#pending];
    await Promise.all(
      snapshot.map(async ([, entry]) => {
        entry.hash ??= await sha256Hex(entry.text);
      }),
    );

    // Group what still needs a vector by text hash; an unchanged text needs nothing.
    const byHash = new Map<string, { text: string; waiting: [string, PendingText][] }>();
    for (const [id, entry] of snapshot) {
      if (this.#pending.get(id) !== entry) continue; // replaced or deleted meanwhile
      const hash = entry.hash!;
      const row = this.#rows.get(id);
      if (row !== undefined && this.#hashes[row] === hash) {
        this.#pending.delete(id);
        continue;
      }
      const group = byHash.get(hash);
      if (group) group.waiting.push([id, entry]);
      else byHash.set(hash, { text: entry.text, waiting: [[id, entry]] });
    }
    const hashes = [...byHash.keys()];
    const keyOf = (hash: string) => `${this.#embedder.id}:${hash}`;

    // Apply cached vectors, then embed the rest batch by batch (each batch is applied, and cached, as
    // soon as it arrives, so a failure later keeps the work done).
    const missing: string[] = [];
    const cache = this.#cache;
    for (let start = 0; start < hashes.length; start += this.#batchSize) {
      const chunk = hashes.slice(start, start + this.#batchSize);
      const found = cache ? await Promise.all(chunk.map((hash) => cache.get(keyOf(hash)))) : [];
      chunk.forEach((hash, i) => {
        const vector = found[i];
        const usable =
          vector != null &&
          vector.length > 0 &&
          (this.#dimensions === 0 || vector.length === this.#dimensions) &&
          allFinite(vector);
        if (usable) this.#apply(hash, byHash.get(hash)!.waiting, vector);
        else missing.push(hash);
      });
    }
    for (let start = 0; start < missing.length; start += this.#batchSize) {
      const chunk = missing.slice(start, start + this.#batchSize);
      const texts = chunk.map((hash) => byHash.get(hash)!.text);
      const vectors = this.#checkOutput(await this.#embedder.embed(texts), chunk.length);
      if (cache) await Promise.all(chunk.map((hash, i) => cache.set(keyOf(hash), unitVector(vectors[i]!))));
      chunk.forEach((hash, i) => {
        this.#apply(hash, byHash.get(hash)!.waiting, vectors[i]!);
      });
    }
  }

  /** Validates an embedder's answer for `count` texts, fixing the index's dimensions on first use. */
  #checkOutput(output: unknown, count: number): ArrayLike<number>[] {
    if (!Array.isArray(output))
      throw embedderError(this.#embedder, `returned ${typeof output}, not an array of vectors`);
    const vectors: unknown[] = output;
    if (vectors.length !== count) {
      throw embedderError(this.#embedder, `returned ${vectors.length} vector(s) for ${count} text(s)`);
    }
    let expected = this.#dimensions;
    const checked = vectors.map((vector, i) => {
      if (!isNumberArray(vector)) {
        throw embedderError(this.#embedder, `returned ${typeof vector} at position ${i}, not an array of numbers`);
      }
      if (expected === 0) expected = vector.length;
      if (vector.length === 0 || vector.length !== expected) {
        const already = this.#dimensions > 0 ? ' (the length of the vectors already in the index)' : '';
        throw embedderError(
          this.#embedder,
          `returned a vector of ${vector.length} dimensions at position ${i}, expected ${expected}${already}`,
        );
      }
      if (!allFinite(vector)) {
        throw embedderError(this.#embedder, `returned a non-finite value in the vector at position ${i}`);
      }
      return vector;
    });
    this.#dimensions = expected;
    return checked;
  }

  /** Stores one vector for every tool still waiting for it (those replaced or deleted meanwhile are skipped). */
  #apply(hash: string, waiting: [string, PendingText][], vector: ArrayLike<number>): void {
    if (this.#dimensions === 0) this.#dimensions = vector.length;
    for (const [id, entry] of waiting) {
      if (this.#pending.get(id) !== entry) continue;
      this.#pending.delete(id);
      let row = this.#rows.get(id);
      if (row === undefined) {
        row = this.#ids.length;
        this.#reserve(row + 1);
        this.#ids.push(id);
        this.#hashes.push(hash);
        this.#rows.set(id, row);
      } else {
        this.#hashes[row] = hash;
      }
      normaliseInto(vector, this.#matrix, row * this.#dimensions);
    }
  }

  /** Grows the matrix (doubling) to hold at least `rows` rows. */
  #reserve(rows: number): void {
    const needed = rows * this.#dimensions;
    if (needed <= this.#matrix.length) return;
    const grown = new Float32Array(Math.max(needed, this.#matrix.length * 2, 64 * this.#dimensions));
    grown.set(this.#matrix);
    this.#matrix = grown;
  }

  /** Top `k` rows by dot product with `#query`, through a min-heap of size `k`. */
  #scan(k: number): VectorHit[] {
    const matrix = this.#matrix;
    const query = this.#query;
    const ids = this.#ids;
    const d = this.#dimensions;
    const heapScores = new Float64Array(k);
    const heapRows = new Int32Array(k);
    let size = 0;
    // `a` ranks below `b`: lower score, or the same score and a later id.
    const below = (scoreA: number, rowA: number, scoreB: number, rowB: number) =>
      scoreA < scoreB || (scoreA === scoreB && ids[rowA]! > ids[rowB]!);
    const siftDown = (from: number) => {
      let i = from;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) return;
        const right = left + 1;
        let lowest = left;
        if (right < size && below(heapScores[right]!, heapRows[right]!, heapScores[left]!, heapRows[left]!))
          lowest = right;
        if (!below(heapScores[lowest]!, heapRows[lowest]!, heapScores[i]!, heapRows[i]!)) return;
        const score = heapScores[i]!;
        const row = heapRows[i]!;
        heapScores[i] = heapScores[lowest]!;
        heapRows[i] = heapRows[lowest]!;
        heapScores[lowest] = score;
        heapRows[lowest] = row;
        i = lowest;
      }
    };

    for (let row = 0, offset = 0; row < ids.length; row++, offset += d) {
      let score = 0;
      for (let j = 0; j < d; j++) score += matrix[offset + j]! * query[j]!;
      if (size < k) {
        // Sift up.
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (!below(score, row, heapScores[parent]!, heapRows[parent]!)) break;
          heapScores[i] = heapScores[parent]!;
          heapRows[i] = heapRows[parent]!;
          i = parent;
        }
        heapScores[i] = score;
        heapRows[i] = row;
      } else if (below(heapScores[0]!, heapRows[0]!, score, row)) {
        heapScores[0] = score;
        heapRows[0] = row;
        siftDown(0);
      }
    }

    // Pop worst-first into the result from the back.
    const hits = new Array<VectorHit>(size);
    while (size > 0) {
      const score = heapScores[0]!;
      hits[size - 1] = { id: ids[heapRows[0]!]!, similarity: Math.max(-1, Math.min(1, score)) };
      size--;
      heapScores[0] = heapScores[size]!;
      heapRows[0] = heapRows[size]!;
      siftDown(0);
    }
    return hits;
  }
}

function isNumberArray(value: unknown): value is ArrayLike<number> {
  return Array.isArray(value) || value instanceof Float32Array || value instanceof Float64Array;
}

function unitVector(vector: ArrayLike<number>): Float32Array {
  const unit = new Float32Array(vector.length);
  normaliseInto(vector, unit, 0);
  return unit;
}

/** Writes `vector` scaled to unit length into `target` at `offset` (the zero vector stays zero). */
function normaliseInto(vector: ArrayLike<number>, target: Float32Array, offset: number): void {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < vector.length; i++) target[offset + i] = vector[i]! * scale;
}
