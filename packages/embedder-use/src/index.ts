// The public API of @toolscout/embedder-use.
export {
  createUseEmbedder,
  USE_DIMENSIONS,
  USE_PACKAGES,
  type UseEmbedder,
  type UseEmbedderOptions,
} from './use-embedder.js';
