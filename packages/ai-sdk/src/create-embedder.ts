import type { Embedder } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { checkOptionsObject } from '@toolscout/core/internal';
import { type EmbeddingModel, embedMany } from 'ai';

/** Options of {@link createEmbedder}: its `id`, and options of `embedMany`, passed on to it. */
export interface EmbedderOptions
  extends Pick<
    EmbedManyOptions,
    'dimensions' | 'providerOptions' | 'maxParallelCalls' | 'maxRetries' | 'headers' | 'abortSignal'
  > {
  /** The key of cached vectors (change it when they would change); default `ai-sdk:<provider>:<modelId>[@<dimensions>]`. */
  id?: string;
}

type EmbedManyOptions = Parameters<typeof embedMany>[0];

/** A toolscout `Embedder` over the AI SDK's `embedMany`, for any AI SDK embedding model or model id. */
export function createEmbedder(model: EmbeddingModel, options: EmbedderOptions = {}): Embedder {
  if (model === null || (typeof model !== 'string' && typeof model !== 'object')) {
    const message = `createEmbedder needs an AI SDK embedding model or a model id; got ${String(model)}.`;
    throw new InvalidOptionError('model', message);
  }
  checkOptionsObject(options as unknown, "createEmbedder's options must be an object");
  const { id, dimensions, ...callOptions } = options;
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1)) {
    throw new InvalidOptionError('dimensions', `dimensions must be a positive integer; got ${String(dimensions)}.`);
  }
  const name = typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
  return {
    id: id ?? `ai-sdk:${name}${dimensions === undefined ? '' : `@${dimensions}`}`,
    async embed(texts: string[]): Promise<number[][]> {
      if (texts.length === 0) return [];
      const { embeddings } = await embedMany({
        model,
        values: texts,
        ...(dimensions === undefined ? {} : { dimensions }),
        ...callOptions,
      });
      return embeddings;
    },
  };
}
