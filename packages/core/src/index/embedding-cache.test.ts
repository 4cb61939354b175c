import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { embeddingCacheKey, InMemoryEmbeddingCache, sha256Hex } from './embedding-cache.js';

describe('InMemoryEmbeddingCache', () => {
  it('stores a Float32Array copy of each vector', () => {
    const cache = new InMemoryEmbeddingCache();
    const vector = [0.6, 0.8];
    cache.set('k', vector);
    vector[0] = 99;
    const stored = cache.get('k');
    expect(stored).toBeInstanceOf(Float32Array);
    expect([...(stored ?? [])]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(cache.get('missing')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.delete('k')).toBe(true);
    expect(cache.size).toBe(0);
  });

  it('drops the least recently used vectors beyond maxEntries', () => {
    const cache = new InMemoryEmbeddingCache({ maxEntries: 2 });
    cache.set('a', [1]);
    cache.set('b', [2]);
    cache.get('a'); // a is now the most recently used
    cache.set('c', [3]);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.[0]).toBe(1);
    expect(cache.get('c')?.[0]).toBe(3);
    cache.set('a', [4]); // overwriting does not grow the cache
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('rejects a maxEntries that is not a positive integer', () => {
    expect(() => new InMemoryEmbeddingCache({ maxEntries: 0 })).toThrow(InvalidOptionError);
    expect(() => new InMemoryEmbeddingCache({ maxEntries: 2.5 })).toThrow(/maxEntries/);
    expect(() => new InMemoryEmbeddingCache({ maxEntries: Number.NaN })).toThrow(/maxEntries/);
    expect(new InMemoryEmbeddingCache({ maxEntries: Number.POSITIVE_INFINITY }).size).toBe(0);
  });
});

describe('embeddingCacheKey', () => {
  it('is the embedder id and the SHA-256 of the text', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await embeddingCacheKey('use-lite-512', 'abc')).toBe(
      'use-lite-512:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await embeddingCacheKey('m', 'café ☕')).not.toBe(await embeddingCacheKey('m', 'cafe ☕'));
  });
});
