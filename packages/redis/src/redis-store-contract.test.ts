import { randomUUID } from 'node:crypto';
import { runStoreContract } from '@toolscout/conformance';
import type { KeyValueLoadedToolStore } from '@toolscout/core';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, inject } from 'vitest';
import { createRedisLoadedToolStore } from './redis-loaded-tool-store.js';

// Two clients stand for two server instances sharing one Redis (the redis-server of this run).
let clientA: RedisClientType;
let clientB: RedisClientType;

beforeAll(async () => {
  clientA = createClient({ url: inject('redisUrl') });
  clientB = createClient({ url: inject('redisUrl') });
  await Promise.all([clientA.connect(), clientB.connect()]);
});

afterAll(async () => {
  await Promise.all([clientA?.close(), clientB?.close()]);
});

/** The prefix of each store the suite made: a store of its own, and its peer on the other client. */
const prefixes = new WeakMap<KeyValueLoadedToolStore, string>();

runStoreContract({
  name: 'Redis loaded-tool store',
  create(options) {
    const prefix = `contract:${randomUUID()}:`;
    const store = createRedisLoadedToolStore(clientA, { prefix, ...options });
    prefixes.set(store, prefix);
    return store;
  },
  peer: (store, options) =>
    createRedisLoadedToolStore(clientB, { prefix: prefixes.get(store as KeyValueLoadedToolStore), ...options }),
  corrupt: async (store, threadKey, raw) => {
    await clientA.set((store as KeyValueLoadedToolStore).keyOf(threadKey), raw);
  },
  capabilities: { ttl: true },
});
