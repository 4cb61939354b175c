import { KeyValueFeedbackStore } from '@toolscout/core';
import { createRedisKeyValueStore, type RedisCommandClient } from './redis-key-value-store.js';

/** Options of `createRedisFeedbackStore`. */
export interface RedisFeedbackStoreOptions {
  /** Put before every key of the store; give each store its own. Default `'toolscout:feedback:'`. */
  prefix?: string;
  /** How long one Redis command may take, in ms, before the call fails with `StoreUnavailableError`. Default 2,000. */
  commandTimeoutMs?: number;
}

/**
 * Where a session's learned queries (the `feedback` option) live in Redis, shared by every server
 * instance: one key per tool (`prefix + 'tool:' + id`, a JSON array of learned queries) and one
 * listing the tools (`prefix + 'tools'`), expiring with the learned queries (`maxAgeMs`).
 * `client` is a node-redis 5 or 6 client that you create, connect and close yourself.
 */
export function createRedisFeedbackStore(
  client: RedisCommandClient,
  options: RedisFeedbackStoreOptions = {},
): KeyValueFeedbackStore {
  const keyValueStore = createRedisKeyValueStore(client, { commandTimeoutMs: options.commandTimeoutMs });
  return new KeyValueFeedbackStore(keyValueStore, { prefix: options.prefix, name: 'Redis feedback store' });
}
