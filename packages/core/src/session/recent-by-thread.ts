/**
 * What a session remembers per thread between a model call and the calls it makes (or an approval
 * resumed without its messages): at most `limit` threads, the least recently set dropped first.
 */
export class RecentByThread<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly limit: number) {}

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Sets a thread's entry as the most recent; drops the oldest threads past the limit. */
  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.limit) break;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Deletes the entry of every thread key that `matches`. */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.#entries.keys()]) if (matches(key)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
