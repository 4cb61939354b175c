import type { KeyValueStore } from '../stores/key-value-store.js';

/** A key-value backend in a Map (`data`), with `scanKeys` unless `scan` is false. */
export function mapBackend(scan = true): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  const backend: KeyValueStore & { data: Map<string, string> } = {
    data,
    get: async (key) => data.get(key),
    set: async (key, value) => void data.set(key, value),
    delete: async (key) => void data.delete(key),
  };
  if (scan) {
    backend.scanKeys = async function* (prefix, suffix) {
      yield [...data.keys()].filter((key) => key.startsWith(prefix) && key.endsWith(suffix));
    };
  }
  return backend;
}
