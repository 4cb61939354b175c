import { InvalidOptionError } from '../errors.js';
import { checkHostOptions } from './host-options.js';

/**
 * The id of an embedder over a framework's embeddings model, which keys its cached vectors: the
 * `id` option when given (a non-empty string), else `derived` (the host's name for the model and its
 * settings); an {@link InvalidOptionError} (`id`) when there is neither, as two models must never
 * share cached vectors. `model` names the model's kind in that error (`OpenAIEmbeddings`).
 */
export function embedderId(options: unknown, derived: string | undefined, model: string): string {
  checkHostOptions(options, "An embedder's options must be an object, e.g. { id: 'my-model-v1' }", {
    id: 'non-empty string',
  });
  const id = (options.id as string | undefined) ?? derived;
  if (id !== undefined) return id;
  throw new InvalidOptionError(
    'id',
    `This ${model} does not name its model, so give the embedder an id (e.g. { id: 'my-model-v1' }): cached vectors are keyed by it.`,
  );
}
