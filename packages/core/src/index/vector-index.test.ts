import { describe, expect, it } from 'vitest';
import { ImportError, InvalidOptionError, ToolscoutError } from '../errors.js';
import { HashEmbedder } from '../test-utils/hash-embedder.js';
import type { Embedder } from '../types.js';
import { embeddingCacheKey, InMemoryEmbeddingCache } from './embedding-cache.js';
import { type SerializedVectorIndex, VectorIndex } from './vector-index.js';

const TOOLS: Record<string, string> = {
  get_weather: 'get weather: current weather, temperature and forecast for a city',
  convert_currency: 'convert currency: convert an amount of money between currencies with exchange rates',
  send_email: 'send email: send an email message to a recipient',
  search_flights: 'search flights: find flights between two airports on a date',
};

function indexOf(embedder: Embedder, options: { cache?: InMemoryEmbeddingCache; batchSize?: number } = {}) {
  const index = new VectorIndex({ embedder, ...options });
  for (const [id, text] of Object.entries(TOOLS)) index.set(id, text);
  return index;
}

/** An embedder whose calls wait until `release()`: lets tests overlap searches with a running flush. */
class GatedEmbedder extends HashEmbedder {
  #gate: Promise<void> = Promise.resolve();
  #open: () => void = () => {};

  close(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  release(): void {
    this.#open();
  }

  override async embed(texts: string[]): Promise<number[][]> {
    const vectors = await super.embed(texts);
    await this.#gate;
    return vectors;
  }
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

describe('VectorIndex', () => {
  it('ranks tools by cosine similarity to the query, best first', async () => {
    const embedder = new HashEmbedder({ dimensions: 256 });
    const index = indexOf(embedder);
    const hits = await index.search('weather forecast in Paris', 4);
    expect(hits[0]?.id).toBe('get_weather');
    expect(hits).toHaveLength(4);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.similarity).toBeGreaterThanOrEqual(hits[i]!.similarity);
    const expected = cosine(embedder.vector('weather forecast in Paris'), embedder.vector(TOOLS.get_weather!));
    expect(hits[0]!.similarity).toBeCloseTo(expected, 5);
    expect((await index.search('flights between airports', 1)).map((hit) => hit.id)).toEqual(['search_flights']);
  });

  it('embeds a query once while it is among the latest ones (an agent asks the same at every step)', async () => {
    const embedder = new HashEmbedder({ dimensions: 64 });
    const index = indexOf(embedder);
    const first = await index.search('weather forecast in Paris', 3);
    const queryCalls = () => embedder.embeddedTexts.filter((text) => text === 'weather forecast in Paris').length;
    expect(queryCalls()).toBe(1);
    expect(await index.search('weather forecast in Paris', 3)).toEqual(first);
    await index.search('flights between airports', 3);
    expect(await index.search('weather forecast in Paris', 3)).toEqual(first);
    expect(queryCalls()).toBe(1);
  });

  it('embeds lazily, in batches, on the first search or flush', async () => {
    const embedder = new HashEmbedder();
    const index = indexOf(embedder, { batchSize: 3 });
    expect(embedder.calls).toHaveLength(0);
    expect(index.size).toBe(4);
    await index.flush();
    expect(embedder.calls.map((call) => call.length)).toEqual([3, 1]);
    await index.search('weather', 2);
    expect(embedder.calls.at(-1)).toEqual(['weather']);
    expect(embedder.embeddedTexts).toHaveLength(5);
  });

  it('never embeds an unchanged text again after a replace, and embeds a changed one once', async () => {
    const embedder = new HashEmbedder();
    const index = indexOf(embedder);
    await index.flush();
    const embedded = embedder.embeddedTexts.length;

    index.set('get_weather', TOOLS.get_weather!); // same text
    await index.flush();
    expect(embedder.embeddedTexts).toHaveLength(embedded);

    index.set('get_weather', 'get weather: weather reports');
    index.set('get_weather', 'get weather: weather reports and alerts'); // replaced before the flush
    await index.flush();
    expect(embedder.embeddedTexts.slice(embedded)).toEqual(['get weather: weather reports and alerts']);
    expect(index.size).toBe(4);
  });

  it('embeds one text once when several tools share it', async () => {
    const embedder = new HashEmbedder();
    const index = new VectorIndex({ embedder });
    index.set('a', 'same text');
    index.set('b', 'same text');
    index.set('c', 'other text');
    const hits = await index.search('same text', 3);
    expect(embedder.embeddedTexts).toEqual(['same text', 'other text', 'same text']);
    expect(hits.slice(0, 2).map((hit) => hit.id)).toEqual(['a', 'b']); // equal similarity: by id
    expect(hits[0]!.similarity).toBeCloseTo(1, 6);
  });

  it('shares vectors between instances through a cache keyed by embedder id and text hash', async () => {
    const embedder = new HashEmbedder();
    const cache = new InMemoryEmbeddingCache();
    await indexOf(embedder, { cache }).flush();
    expect(cache.size).toBe(4);
    for (const text of Object.values(TOOLS)) {
      expect(cache.get(await embeddingCacheKey(embedder.id, text))).toBeInstanceOf(Float32Array);
    }
    const embedded = embedder.embeddedTexts.length;

    const second = indexOf(embedder, { cache });
    expect((await second.search('send an email', 1))[0]?.id).toBe('send_email');
    expect(embedder.embeddedTexts.slice(embedded)).toEqual(['send an email']); // only the query

    // Another embedder id misses the cache.
    const other = new HashEmbedder({ id: 'hash-other' });
    await indexOf(other, { cache }).flush();
    expect(other.embeddedTexts).toHaveLength(4);
  });

  it('keeps a deleted tool re-added with the same text out of the embedder when a cache is given', async () => {
    const embedder = new HashEmbedder();
    const index = indexOf(embedder, { cache: new InMemoryEmbeddingCache() });
    await index.flush();
    const embedded = embedder.embeddedTexts.length;
    index.delete('send_email');
    expect(index.size).toBe(3);
    expect((await index.search('send an email', 4)).map((hit) => hit.id)).not.toContain('send_email');
    index.set('send_email', TOOLS.send_email!);
    expect((await index.search('send an email', 1))[0]?.id).toBe('send_email');
    // the query, once (the second search has its vector), and never the tool's text
    expect(embedder.embeddedTexts.slice(embedded)).toEqual(['send an email']);
  });

  it("ignores a cached vector of another length than the index's and embeds the text instead", async () => {
    const embedder = new HashEmbedder({ dimensions: 8 });
    const cache = new InMemoryEmbeddingCache();
    cache.set(await embeddingCacheKey(embedder.id, 'alpha'), [1, 2, 3]);
    const index = new VectorIndex({ embedder, cache });
    index.set('b', 'beta');
    await index.flush();
    expect(index.dimensions).toBe(8);
    index.set('a', 'alpha');
    await index.flush();
    expect(embedder.embeddedTexts).toEqual(['beta', 'alpha']);
    expect(cache.get(await embeddingCacheKey(embedder.id, 'alpha'))).toHaveLength(8);
  });

  it('round-trips through toJSON/fromJSON without embedding again', async () => {
    const embedder = new HashEmbedder();
    const index = indexOf(embedder);
    await index.flush();
    index.set('later', 'a tool added after the flush');
    const json = JSON.parse(JSON.stringify(index)) as SerializedVectorIndex;
    expect(json.entries).toHaveLength(4);
    expect(json.pending).toEqual([{ id: 'later', text: 'a tool added after the flush' }]);

    const counting = new HashEmbedder();
    const restored = VectorIndex.fromJSON(json, { embedder: counting });
    expect(restored.size).toBe(5);
    restored.set('get_weather', TOOLS.get_weather!); // unchanged: the stored hash matches
    const hits = await restored.search('weather forecast', 5);
    expect(counting.calls).toEqual([['a tool added after the flush'], ['weather forecast']]);
    expect(hits).toEqual(await index.search('weather forecast', 5));
  });

  it('stores vectors as standard base64 of little-endian float32 and reads them back exactly', async () => {
    for (const dimensions of [1, 2, 3, 512]) {
      const raw = Array.from({ length: dimensions }, (_, i) => Math.sin(i + 1) * (i % 3 === 0 ? -1 : 1));
      const embedder: Embedder = { id: `fixed-${dimensions}`, embed: async (texts) => texts.map(() => raw) };
      const index = new VectorIndex({ embedder });
      index.set('a', 'text');
      await index.flush();
      const { entries } = index.toJSON();
      const norm = Math.hypot(...raw);
      const unit = Float32Array.from(raw, (value) => value / norm);
      const view = new DataView(new ArrayBuffer(dimensions * 4));
      unit.forEach((value, i) => {
        view.setFloat32(i * 4, value, true);
      });
      expect(entries[0]!.vector).toBe(btoa(String.fromCharCode(...new Uint8Array(view.buffer))));
      const restored = VectorIndex.fromJSON(index.toJSON(), { embedder });
      expect(restored.toJSON()).toEqual(index.toJSON());
      expect(await restored.search('query', 1)).toEqual([{ id: 'a', similarity: expect.closeTo(1, 6) }]);
    }
  });

  it('refuses a snapshot from another embedder or a damaged one, naming the field', () => {
    const embedder = new HashEmbedder({ dimensions: 4 });
    const good: SerializedVectorIndex = {
      version: 2,
      embedderId: embedder.id,
      dimensions: 4,
      entries: [
        {
          id: 'a',
          hash: 'h',
          vector: btoa(String.fromCharCode(...new Uint8Array(new Float32Array([1, 0, 0, 0]).buffer))),
        },
      ],
      pending: [],
    };
    expect(VectorIndex.fromJSON(good, { embedder }).size).toBe(1);

    const attempt = (json: unknown) => () => VectorIndex.fromJSON(json as SerializedVectorIndex, { embedder });
    expect(attempt({ ...good, embedderId: 'use-lite-512' })).toThrow(/embedder "use-lite-512", not "hash-4"/);
    expect(attempt({ ...good, version: 3 })).toThrow(ImportError);
    // (vectors of the older embedded text: refused with the way out, never mixed with new ones)
    expect(attempt({ ...good, version: 1 as never })).toThrow(/version 1 holds vectors .* rebuild the index/);
    // (a missing version is said so, not "unsupported version undefined": found by the property test)
    expect(attempt({ ...good, version: undefined })).toThrow(/: no version \(expected 2\)/);
    expect(attempt({ ...good, entries: [{ ...good.entries[0], vector: 'AAAA' }] })).toThrow(/entries\[0\]\.vector/);
    for (const vector of [
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'AAAAAAAAAAAAAAAAAAAA*AAA',
      'AAAAAAAAAAAAAAAAAAAAAAA',
      'AACAfwAAAAAAAAAAAAAAAA==',
    ]) {
      expect(attempt({ ...good, entries: [{ ...good.entries[0], vector }] })).toThrow(/entries\[0\]\.vector/);
    }
    expect(attempt({ ...good, entries: [good.entries[0], good.entries[0]] })).toThrow(/duplicate id "a"/);
    // Dimensions that the vectors do not have are refused before room is made for them.
    expect(attempt({ ...good, dimensions: 2 ** 40 })).toThrow(
      /field "dimensions": the vector section has 1099511627776 dimensions, its vectors 4/,
    );
    expect(attempt({ ...good, dimensions: 2 ** 40 })).toThrow(ImportError);
    expect(attempt({ ...good, pending: [{ id: 'b' }] })).toThrow(/pending\[0\]\.text/);
    expect(attempt(null)).toThrow(ImportError);
  });

  it('reports an embedder that returns the wrong number of vectors or the wrong dimensions', async () => {
    const short: Embedder = { id: 'short', embed: async (texts) => texts.slice(1).map(() => [1, 0]) };
    const index = new VectorIndex({ embedder: short });
    index.set('a', 'one');
    index.set('b', 'two');
    const error = await index.flush().catch((caught: unknown) => caught);
    expect(ToolscoutError.isInstance(error) && error.code).toBe('embedder-output');
    expect(String(error)).toMatch(/Embedder "short" returned 1 vector\(s\) for 2 text\(s\)/);

    const ragged: Embedder = {
      id: 'ragged',
      embed: async (texts) => texts.map((_, i) => (i === 0 ? [1, 0] : [1, 0, 0])),
    };
    const raggedIndex = new VectorIndex({ embedder: ragged });
    raggedIndex.set('a', 'one');
    raggedIndex.set('b', 'two');
    await expect(raggedIndex.flush()).rejects.toThrow(/3 dimensions at position 1, expected 2/);

    let dimensions = 2;
    const drifting: Embedder = {
      id: 'drifting',
      embed: async (texts) => texts.map(() => new Array(dimensions).fill(1)),
    };
    const driftingIndex = new VectorIndex({ embedder: drifting });
    driftingIndex.set('a', 'one');
    await driftingIndex.flush();
    dimensions = 3;
    await expect(driftingIndex.search('query', 1)).rejects.toThrow(/expected 2 \(the length of the vectors already/);

    const broken: Embedder = { id: 'nan', embed: async (texts) => texts.map(() => [Number.NaN, 1]) };
    const brokenIndex = new VectorIndex({ embedder: broken });
    brokenIndex.set('a', 'one');
    await expect(brokenIndex.flush()).rejects.toThrow(/non-finite/);
    expect(brokenIndex.size).toBe(1); // still pending: a later flush retries
  });

  it('shares one running flush between concurrent searches and embeds nothing twice', async () => {
    const embedder = new GatedEmbedder();
    const index = indexOf(embedder);
    embedder.close();
    const searches = [index.search('weather', 1), index.search('email', 1), index.flush()];
    await Promise.resolve();
    index.set('translate', 'translate text between languages'); // arrives while the flush runs
    const more = index.search('translate', 1);
    embedder.release();
    const [weather, email] = await Promise.all(searches);
    expect(weather?.[0]?.id).toBe('get_weather');
    expect(email?.[0]?.id).toBe('send_email');
    expect((await more)[0]?.id).toBe('translate');
    const toolTexts = embedder.embeddedTexts.filter((text) => !['weather', 'email', 'translate'].includes(text));
    expect(toolTexts.sort()).toEqual([...Object.values(TOOLS), 'translate text between languages'].sort());
  });

  it('drops a tool deleted or replaced while its flush was running', async () => {
    const embedder = new GatedEmbedder();
    const index = indexOf(embedder);
    embedder.close();
    const flushing = index.flush();
    await Promise.resolve();
    index.delete('send_email');
    index.set('get_weather', 'weather alerts');
    embedder.release();
    await flushing;
    expect(index.size).toBe(3);
    const hits = await index.search('weather alerts', 10);
    expect(hits.map((hit) => hit.id)).not.toContain('send_email');
    expect(hits[0]).toEqual({ id: 'get_weather', similarity: expect.closeTo(1, 6) });
  });

  it('returns nothing for an empty index, a blank query or a zero limit, and at most size hits', async () => {
    const embedder = new HashEmbedder();
    expect(await new VectorIndex({ embedder }).search('weather', 5)).toEqual([]);
    const index = indexOf(embedder);
    expect(await index.search('   ', 5)).toEqual([]);
    expect(await index.search('weather', 0)).toEqual([]);
    expect(await index.search('weather', 100)).toHaveLength(4);
    expect(await index.search('weather', 2.7)).toHaveLength(2);
  });

  it('gives a tool with an empty text (the zero vector) similarity 0', async () => {
    const index = new VectorIndex({ embedder: new HashEmbedder() });
    index.set('empty', '');
    index.set('weather', 'weather');
    expect(await index.search('weather', 2)).toEqual([
      { id: 'weather', similarity: expect.closeTo(1, 6) },
      { id: 'empty', similarity: 0 },
    ]);
  });

  it('matches a brute-force reference through many adds, replaces and deletes', async () => {
    const dimensions = 16;
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648 - 0.5;
    };
    const vectors = new Map<string, number[]>();
    const embedder: Embedder = {
      id: 'table',
      embed: async (texts) =>
        texts.map((text) => {
          const known = vectors.get(text);
          if (known) return known;
          const vector = Array.from({ length: dimensions }, random);
          vectors.set(text, vector);
          return vector;
        }),
    };
    const index = new VectorIndex({ embedder, batchSize: 50 });
    const live = new Map<string, string>();
    for (let step = 0; step < 3000; step++) {
      const id = `tool-${Math.floor((random() + 0.5) * 400)}`;
      if (random() < -0.3) {
        index.delete(id);
        live.delete(id);
      } else {
        const text = `text-${Math.floor((random() + 0.5) * 1000)}`;
        index.set(id, text);
        live.set(id, text);
      }
      if (step % 500 === 499) await index.flush();
    }
    expect(index.size).toBe(live.size);
    const hits = await index.search('query', 25);
    const query = vectors.get('query')!;
    const expected = [...live]
      .map(([id, text]) => ({ id, similarity: cosine(query, vectors.get(text)!) }))
      .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
      .slice(0, 25);
    expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
    hits.forEach((hit, i) => {
      expect(hit.similarity).toBeCloseTo(expected[i]!.similarity, 5);
    });
  });

  it('rejects a batchSize that is not a positive integer', () => {
    expect(() => new VectorIndex({ embedder: new HashEmbedder(), batchSize: 0 })).toThrow(InvalidOptionError);
    expect(() => new VectorIndex({ embedder: new HashEmbedder(), batchSize: 1.5 })).toThrow(/batchSize/);
  });
});
