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
  /**
   * Identifies the model and its settings; cached vectors are keyed by it, so change it whenever the
   * vectors would change. Default: `ai-sdk:<provider>:<modelId>` (plus `@<dimensions>` when set).
   */
  id?: string;
}

type EmbedManyOptions = Parameters<typeof embedMany>[0];

/**
 * A toolscout `Embedder` over the AI SDK's `embedMany`: any AI SDK embedding model (OpenAI, Google,
 * Cohere, Mistral, a gateway id...) turns tool texts and queries into vectors for hybrid search.
 * `embedMany` splits large batches and retries as the model requires.
 *
 * @example
 * ```ts
 * const embedder = createEmbedder(openai.embedding('text-embedding-3-small'));
 * const search = createToolSearch({ catalog: tools, indexOptions: { embedder } });
 * ```
 */
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
