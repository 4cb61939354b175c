import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import type { Embedder } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { embedderId } from '@toolscout/core/internal';

/** Options of {@link LangChainEmbedder}. */
export interface LangChainEmbedderOptions {
  /** The model's id, keying cached vectors. Default `langchain:<class>:<model>`; required if no model is named. */
  id?: string;
}

/** A core `Embedder` over any LangChain `Embeddings` (hybrid search); texts and queries go through `embedDocuments`. */
export class LangChainEmbedder implements Embedder {
  /** Keys the cached vectors: {@link LangChainEmbedderOptions.id}, or the default made from the model's name. */
  readonly id: string;
  /** The LangChain embeddings that embed the texts. */
  readonly embeddings: EmbeddingsInterface;

  constructor(embeddings: EmbeddingsInterface, options: LangChainEmbedderOptions = {}) {
    if (typeof embeddings !== 'object' || embeddings === null || typeof embeddings.embedDocuments !== 'function') {
      throw new InvalidOptionError(
        'embeddings',
        'LangChainEmbedder needs a LangChain Embeddings object (with embedDocuments).',
      );
    }
    const { model, modelName } = embeddings as { model?: unknown; modelName?: unknown };
    const name = model ?? modelName;
    const kind = embeddings.constructor.name;
    this.id = embedderId(
      options,
      typeof name === 'string' && name !== '' ? `langchain:${kind}:${name}` : undefined,
      kind,
    );
    this.embeddings = embeddings;
  }

  /** Embeds a batch of texts; core checks the vectors (one per text, same length, finite). */
  async embed(texts: string[]): Promise<number[][]> {
    return this.embeddings.embedDocuments(texts);
  }
}
