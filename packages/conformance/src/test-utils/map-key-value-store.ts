import type { AppendUniqueOptions, KeyValueStore, KeyValueTtlOptions } from '@toolscout/core';
import { parseLoadedToolIds } from '@toolscout/core/internal';

/**
 * A `KeyValueStore` in a `Map`, with real expiry (`Date.now`) and the sliding refresh on `get`;
 * `atomic` adds `appendUnique` and `removeValues` (atomic here: they never wait between read and
 * write), else `KeyValueLoadedToolStore` reads, modifies and writes.
 */
export class MapKeyValueStore implements KeyValueStore {
  readonly #data = new Map<string, { value: string; expiresAt: number | undefined }>();
  appendUnique?: KeyValueStore['appendUnique'];
  removeValues?: KeyValueStore['removeValues'];

  constructor(options: { atomic: boolean }) {
    if (!options.atomic) return;
    this.appendUnique = async (key: string, values: readonly string[], append?: AppendUniqueOptions) => {
      const all = this.#ids(key);
      const added = [...new Set(values)].filter((value) => !all.includes(value));
      if (append?.maxValues !== undefined && all.length + added.length > append.maxValues) return { all, added: [] };
      all.push(...added);
      this.#write(key, JSON.stringify(all), append);
      return { all, added };
    };
    this.removeValues = async (key: string, values: readonly string[]) => {
      const expiresAt = this.#data.get(key)?.expiresAt;
      const all = this.#ids(key).filter((id) => !values.includes(id));
      if (all.length === 0) this.#data.delete(key);
      else this.#data.set(key, { value: JSON.stringify(all), expiresAt });
      return { all };
    };
  }

  async get(key: string, ttl?: KeyValueTtlOptions): Promise<string | undefined> {
    const value = this.#read(key);
    if (value !== undefined && ttl?.ttlMs) this.#write(key, value, ttl);
    return value;
  }

  async set(key: string, value: string, ttl?: KeyValueTtlOptions): Promise<void> {
    this.#write(key, value, ttl);
  }

  async delete(key: string): Promise<void> {
    this.#data.delete(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (const key of [...this.#data.keys()]) if (key.startsWith(prefix)) this.#data.delete(key);
  }

  async *scanKeys(prefix: string, suffix: string): AsyncIterable<readonly string[]> {
    yield [...this.#data.keys()].filter((key) => key.startsWith(prefix) && key.endsWith(suffix));
  }

  #ids(key: string): string[] {
    const raw = this.#read(key);
    return raw === undefined ? [] : parseLoadedToolIds(key, raw);
  }

  #read(key: string): string | undefined {
    const entry = this.#data.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#data.delete(key);
      return undefined;
    }
    return entry?.value;
  }

  #write(key: string, value: string, ttl?: KeyValueTtlOptions): void {
    this.#data.set(key, { value, expiresAt: ttl?.ttlMs ? Date.now() + ttl.ttlMs : undefined });
  }
}
