// The public API of @toolscout/redis.

export { createRedisFeedbackStore, type RedisFeedbackStoreOptions } from './redis-feedback-store.js';
export {
  createRedisKeyValueStore,
  type RedisCommandClient,
  type RedisKeyValueStore,
  type RedisKeyValueStoreOptions,
} from './redis-key-value-store.js';
export { createRedisLoadedToolStore, type RedisLoadedToolStoreOptions } from './redis-loaded-tool-store.js';
