import { randomUUID } from 'node:crypto';
import { runStoreContract } from '@toolscout/conformance';
import type { KeyValueLoadedToolStore } from '@toolscout/core';
import { createRedisLoadedToolStore } from './redis-loaded-tool-store.js';
import { useTwoClients } from './test-utils/two-clients.js';

// Two clients stand for two server instances sharing one Redis (the redis-server of this run).
const clients = useTwoClients();

/** The prefix of each store the suite made: a store of its own, and its peer on the other client. */
const prefixes = new WeakMap<KeyValueLoadedToolStore, string>();

runStoreContract({
  name: 'Redis loaded-tool store',
  create(options) {
    const prefix = `contract:${randomUUID()}:`;
    const store = createRedisLoadedToolStore(clients.a, { prefix, ...options });
    prefixes.set(store, prefix);
    return store;
  },
  peer: (store, options) =>
    createRedisLoadedToolStore(clients.b, { prefix: prefixes.get(store as KeyValueLoadedToolStore), ...options }),
  corrupt: async (store, threadKey, raw) => {
    await clients.a.set((store as KeyValueLoadedToolStore).keyOf(threadKey), raw);
  },
  capabilities: { ttl: true },
});
