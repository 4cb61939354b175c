import { VectorIndex } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createEmbedder } from './create-embedder.js';

/** A toy embedding model: one dimension per concept, set when the text says a word of it. */
const CONCEPTS: Record<string, string[]> = {
  weather: ['weather', 'temperature', 'rain', 'umbrella', 'sunny', 'forecast'],
  money: ['currency', 'money', 'dollars', 'euros', 'exchange', 'convert'],
  email: ['email', 'mail', 'message', 'inbox', 'write'],
};

function embedText(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return Object.values(CONCEPTS).map((concept) => words.filter((word) => concept.includes(word)).length + 0.01);
}

function conceptModel(maxEmbeddingsPerCall = 2) {
  return new MockEmbeddingModelV4({
    provider: 'toy',
    modelId: 'concepts-3',
    maxEmbeddingsPerCall,
    doEmbed: async ({ values }) => ({ embeddings: values.map(embedText), warnings: [] }),
  });
}

describe('createEmbedder', () => {
  it('embeds through embedMany, in order, in as many model calls as the model needs', async () => {
    const model = conceptModel(2);
    const embedder = createEmbedder(model);
    expect(embedder.id).toBe('ai-sdk:toy:concepts-3');
    const texts = ['rain and umbrella', 'convert euros', 'write an email', 'sunny'];
    expect(await embedder.embed(texts)).toEqual(texts.map(embedText));
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([texts.slice(0, 2), texts.slice(2, 4)]);
    expect(await embedder.embed([])).toEqual([]);
    expect(model.doEmbedCalls).toHaveLength(2);
  });

  it('drives semantic search over tools: a query that shares no word with the tool finds it', async () => {
    const index = new VectorIndex({ embedder: createEmbedder(conceptModel(16)) });
    index.set('get_weather', 'get_weather: current temperature and forecast for a city');
    index.set('convert_currency', 'convert_currency: exchange an amount between currencies');
    index.set('send_email', 'send_email: send a mail message');
    const hits = await index.search('do I need an umbrella, will it rain?', 3);
    expect(hits[0]!.id).toBe('get_weather');
    expect(hits[0]!.similarity).toBeGreaterThan(hits[1]!.similarity);
  });

  it('passes dimensions and provider options on, and keys its id by the dimensions', async () => {
    const model = conceptModel(8);
    const embedder = createEmbedder(model, { dimensions: 3, providerOptions: { toy: { normalize: true } } });
    expect(embedder.id).toBe('ai-sdk:toy:concepts-3@3');
    await embedder.embed(['weather']);
    expect(model.doEmbedCalls[0]).toMatchObject({ dimensions: 3, providerOptions: { toy: { normalize: true } } });
    expect(createEmbedder(model, { id: 'my-embedder-v2' }).id).toBe('my-embedder-v2');
    expect(createEmbedder('openai/text-embedding-3-small').id).toBe('ai-sdk:openai/text-embedding-3-small');
  });

  it('surfaces a model that returns the wrong number of vectors, and rejects bad options', async () => {
    const broken = new MockEmbeddingModelV4({
      provider: 'toy',
      modelId: 'broken',
      maxEmbeddingsPerCall: 8,
      doEmbed: async () => ({ embeddings: [[1, 0]], warnings: [] }),
    });
    await expect(createEmbedder(broken).embed(['a', 'b'])).rejects.toThrow(/Expected 2 embeddings, but received 1/);
    expect(() => createEmbedder(conceptModel(), { dimensions: 0 })).toThrow(InvalidOptionError);
    expect(() => createEmbedder(undefined as never)).toThrow(/needs an AI SDK embedding model/);
  });

  it('rejects options of the wrong kind by name, never with a TypeError or in silence', () => {
    const optionOf = (build: () => unknown): unknown => {
      try {
        build();
      } catch (error) {
        return InvalidOptionError.isInstance(error) ? error.option : error;
      }
      return 'no error';
    };
    expect(optionOf(() => createEmbedder(conceptModel(), null as never))).toBe('options');
    expect(optionOf(() => createEmbedder(conceptModel(), 'openai' as never))).toBe('options');
  });
});
