import type { Embedder } from '../types.js';

export interface HashEmbedderOptions {
  /** Vector length. Default 64. */
  dimensions?: number;
  /** The embedder's id (the cache key prefix). Default `hash-<dimensions>`. */
  id?: string;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A deterministic, dependency-free embedder for tests: a bag of lowercase words hashed into
 * `dimensions` buckets with a ±1 sign (feature hashing). Texts sharing words get similar vectors,
 * texts with no word in common are near-orthogonal, and an empty text gets the zero vector.
 *
 * It records every call, so tests can count what was embedded (`calls`, `embeddedTexts`).
 */
export class HashEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Each `embed` call's texts, in call order. */
  readonly calls: string[][] = [];

  constructor(options: HashEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 64;
    this.id = options.id ?? `hash-${this.dimensions}`;
  }

  /** Every text embedded so far, over all calls. */
  get embeddedTexts(): string[] {
    return this.calls.flat();
  }

  /** The vector for one text, without recording a call. */
  vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const hash = fnv1a(word);
      const bucket = hash % this.dimensions;
      vector[bucket] = (vector[bucket] ?? 0) + (hash & 0x80000000 ? -1 : 1);
    }
    return vector;
  }

  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push([...texts]);
    return texts.map((text) => this.vector(text));
  }
}
