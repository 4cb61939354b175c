import { Embeddings } from '@langchain/core/embeddings';
import { FakeEmbeddings } from '@langchain/core/utils/testing';
import { VectorIndex } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { LangChainEmbedder } from './langchain-embedder.js';

/** A LangChain Embeddings model for tests: lowercase words hashed into 32 buckets (texts sharing words are close). */
class WordHashEmbeddings extends Embeddings {
  readonly model = 'word-hash-32';
  readonly documentBatches: string[][] = [];

  constructor() {
    super({});
  }

  private vector(text: string): number[] {
    const vector = new Array<number>(32).fill(0);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      let hash = 7;
      for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
      vector[hash % 32]! += 1;
    }
    return vector;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.documentBatches.push([...texts]);
    return texts.map((text) => this.vector(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }
}

describe('LangChainEmbedder', () => {
  it('names itself after the embeddings class and model, and embeds through embedDocuments', async () => {
    const embeddings = new WordHashEmbeddings();
    const embedder = new LangChainEmbedder(embeddings);
    expect(embedder.id).toBe('langchain:WordHashEmbeddings:word-hash-32');
    const vectors = await embedder.embed(['send an email', 'weather forecast']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(32);
    expect(embeddings.documentBatches).toEqual([['send an email', 'weather forecast']]);
  });

  it('serves core’s vector index: tools ranked by meaning of the query', async () => {
    const embeddings = new WordHashEmbeddings();
    const index = new VectorIndex({ embedder: new LangChainEmbedder(embeddings) });
    index.set('send_email', 'send an email message to a recipient');
    index.set('get_weather', 'current weather temperature for a city');
    index.set('translate_text', 'translate text into another language');
    const hits = await index.search('what is the weather in this city', 3);
    expect(hits[0]!.id).toBe('get_weather');
    expect(embeddings.documentBatches.flat()).toContain('what is the weather in this city');
  });

  it('requires an id when the model is not named, and rejects what is not Embeddings', () => {
    expect(() => new LangChainEmbedder(new FakeEmbeddings())).toThrow(
      /does not name its model, so give the embedder an id/,
    );
    expect(new LangChainEmbedder(new FakeEmbeddings(), { id: 'fake-v1' }).id).toBe('fake-v1');
    expect(() => new LangChainEmbedder({} as never)).toThrow(/needs a LangChain Embeddings object/);
    expect(() => new LangChainEmbedder(new FakeEmbeddings(), { id: '' })).toThrow(/non-empty string/);
  });
});
