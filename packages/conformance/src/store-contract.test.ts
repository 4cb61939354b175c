import { InMemoryLoadedToolStore, KeyValueLoadedToolStore, type KeyValueStore } from '@toolscout/core';
import { runStoreContract } from './store-contract.js';
import { MapKeyValueStore } from './test-utils/map-key-value-store.js';

runStoreContract({
  name: 'InMemoryLoadedToolStore',
  create: (options) => new InMemoryLoadedToolStore({ cleanupIntervalMs: 0, ...options }),
  capabilities: { ttl: true },
});

/** The backend of each key-value store the suite made, for its peers and its corrupted values. */
const backends = new WeakMap<KeyValueLoadedToolStore, KeyValueStore>();

for (const atomic of [true, false]) {
  runStoreContract({
    name: `KeyValueLoadedToolStore (${atomic ? 'appendUnique/removeValues' : 'read-modify-write'})`,
    create(options) {
      const backend = new MapKeyValueStore({ atomic });
      const store = new KeyValueLoadedToolStore(backend, options);
      backends.set(store, backend);
      return store;
    },
    peer: (store, options) => new KeyValueLoadedToolStore(backends.get(store as KeyValueLoadedToolStore)!, options),
    corrupt: (store, threadKey, raw) => {
      const keyValue = store as KeyValueLoadedToolStore;
      return backends.get(keyValue)!.set(keyValue.keyOf(threadKey), raw);
    },
    capabilities: { ttl: true, atomicAdds: atomic },
  });
}

runStoreContract({
  name: 'KeyValueLoadedToolStore (a backend without deletePrefix and scanKeys)',
  create(options) {
    const backend = new MapKeyValueStore({ atomic: true });
    const { get, set, delete: remove, appendUnique, removeValues } = backend;
    const withoutDeletePrefix: KeyValueStore = {
      get: get.bind(backend),
      set: set.bind(backend),
      delete: remove.bind(backend),
      appendUnique,
      removeValues,
    };
    return new KeyValueLoadedToolStore(withoutDeletePrefix, options);
  },
  capabilities: { ttl: true, clearAll: false, clearThread: false },
  skip: {
    'an idle thread expires after ttlMs': 'checked above, on the same store with deletePrefix',
    'get and add restart the idle timeout': 'checked above, on the same store with deletePrefix',
  },
});
