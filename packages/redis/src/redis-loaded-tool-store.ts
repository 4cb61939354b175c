import { KeyValueLoadedToolStore } from '@toolscout/core';
import { createRedisKeyValueStore, type RedisCommandClient } from './redis-key-value-store.js';

/** Options of `createRedisLoadedToolStore`. */
export interface RedisLoadedToolStoreOptions {
  /**
   * Put before every thread key to make the Redis key; `clearAll` deletes (by SCAN) every key with
   * this prefix, so give each store its own. Default `'toolscout:loaded:'`.
   */
  prefix?: string;
  /**
   * Idle timeout per thread, in ms (Redis `PX`): each `get` and `add` restarts it. `0` = keys never
   * expire. Default 1 hour.
   */
  ttlMs?: number;
  /** The `COUNT` hint of each `SCAN` step in `clearAll`. Default 500. */
  scanCount?: number;
  /**
   * The most tools one thread may have loaded, as in the in-memory store: an `add` that would go
   * beyond it throws `ToolLimitError` and adds nothing (checked atomically in Redis). Default 256.
   */
  maxToolsPerThread?: number;
  /**
   * How long one Redis command may take, in ms, before the call fails with `StoreUnavailableError`
   * (while Redis is down, node-redis queues commands and keeps reconnecting). A command already sent
   * when it times out may still run on the server. `0` = no limit of the store's own. Default 2,000.
   */
  commandTimeoutMs?: number;
}

/**
 * A `LoadedToolStore` on Redis that several server instances share: one Redis string per thread
 * (`prefix + threadKey`) holding a JSON array of tool ids, added to atomically (a Lua script), so
 * concurrent loads from any instance end up in one list, in order, without duplicates.
 * `clearThread(threadId)` (what `session.clearState(threadId)` without a resource calls) finds the
 * thread's keys under every resource by `SCAN` (a walk of the database's keys: an administrative
 * call, not one for every request).
 *
 * `client` is a node-redis 5 or 6 client that you create, connect and close yourself. While Redis
 * is down or silent, every call fails within `commandTimeoutMs` with `StoreUnavailableError`
 * (code `store-unavailable`), whose message names the "Redis loaded-tool store", the operation
 * (e.g. reading the loaded tools of thread "T") and the reason.
 */
export function createRedisLoadedToolStore(
  client: RedisCommandClient,
  options: RedisLoadedToolStoreOptions = {},
): KeyValueLoadedToolStore {
  const keyValueStore = createRedisKeyValueStore(client, {
    scanCount: options.scanCount,
    commandTimeoutMs: options.commandTimeoutMs,
  });
  return new KeyValueLoadedToolStore(keyValueStore, {
    prefix: options.prefix,
    ttlMs: options.ttlMs,
    maxToolsPerThread: options.maxToolsPerThread,
    name: 'Redis loaded-tool store',
  });
}
