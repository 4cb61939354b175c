import { describe, expect, it } from 'vitest';
import { HashEmbedder } from './hash-embedder.js';

const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('HashEmbedder', () => {
  it('is deterministic, word-based and case-insensitive', async () => {
    const embedder = new HashEmbedder({ dimensions: 32 });
    const [a, b, c] = await embedder.embed(['Get the Weather', 'get the weather', 'convert currency']);
    expect(a).toHaveLength(32);
    expect(a).toEqual(b);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
    expect(embedder.vector('')).toEqual(new Array(32).fill(0));
  });

  it('records every call and names itself after its dimensions', async () => {
    const embedder = new HashEmbedder();
    await embedder.embed(['one', 'two']);
    await embedder.embed(['three']);
    expect(embedder.id).toBe('hash-64');
    expect(embedder.calls).toEqual([['one', 'two'], ['three']]);
    expect(embedder.embeddedTexts).toEqual(['one', 'two', 'three']);
    expect(new HashEmbedder({ id: 'custom' }).id).toBe('custom');
  });
});
