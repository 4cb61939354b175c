import type { ToolCatalog } from '../catalog/catalog.js';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import { describeValue, isRecord } from '../values.js';

/** Options for a {@link CatalogMirror}. */
export interface CatalogMirrorOptions<TTool = unknown> {
  /** The catalog the source's descriptors are kept in, shared with other sources and tools. */
  catalog: ToolCatalog<TTool>;
  /** What a descriptor is compared by: one listed again with the same signature is left as it is. Default: every listed descriptor is replaced. */
  signature?: (descriptor: ToolDescriptor<TTool>) => string;
  /** Whether a changed descriptor the catalog refuses leaves the earlier version in place, rather than removing it. Default false. */
  keepRefused?: boolean;
  /** Hears of each descriptor that was skipped (the catalog refused it, or its signature failed); the others go on. */
  onRefused?: (error: unknown, descriptor: ToolDescriptor<TTool>) => void;
}

/** What one {@link CatalogMirror.apply} changed in the catalog, and how many descriptors it skipped. */
export interface MirrorChanges {
  added: number;
  replaced: number;
  removed: number;
  refused: number;
}

/**
 * A source's list of descriptors kept in step with a catalog: the mirror owns the ids it added and
 * the signature of the descriptor each came from, and `apply` makes them exactly the listed ones
 * (new ids added, changed ones replaced, gone ones removed, unchanged ones untouched), leaving every
 * other id in the catalog alone. A descriptor the catalog refuses is skipped (`onRefused`), a second
 * one with an id already applied in the same list is ignored, and `close()` removes every owned id.
 *
 * ```ts
 * const mirror = new CatalogMirror({ catalog, signature: (tool) => JSON.stringify(tool.inputSchema) });
 * mirror.apply(await source.listTools()); // { added: 3, replaced: 0, removed: 0, refused: 0 }
 * ```
 */
export class CatalogMirror<TTool = unknown> {
  readonly #catalog: ToolCatalog<TTool>;
  readonly #signature: ((descriptor: ToolDescriptor<TTool>) => string) | undefined;
  readonly #keepRefused: boolean;
  readonly #onRefused: (error: unknown, descriptor: ToolDescriptor<TTool>) => void;
  /** Owned ids, each with the signature of the descriptor it came from (in catalog order). */
  readonly #owned = new Map<string, string | undefined>();
  #closed = false;

  constructor(options: CatalogMirrorOptions<TTool>) {
    if (!isRecord(options)) {
      throw new InvalidOptionError('options', `A catalog mirror needs options, got ${describeValue(options)}.`);
    }
    const { catalog, signature, keepRefused, onRefused } = options;
    if (!isRecord(catalog) || typeof (catalog as { replace?: unknown }).replace !== 'function') {
      throw new InvalidOptionError('catalog', `A catalog mirror needs a ToolCatalog, got ${describeValue(catalog)}.`);
    }
    for (const [name, value] of [
      ['signature', signature],
      ['onRefused', onRefused],
    ] as const) {
      if (value !== undefined && typeof value !== 'function') {
        throw new InvalidOptionError(name, `${name} must be a function, got ${describeValue(value)}.`);
      }
    }
    if (keepRefused !== undefined && typeof keepRefused !== 'boolean') {
      throw new InvalidOptionError(
        'keepRefused',
        `keepRefused must be true or false, got ${describeValue(keepRefused)}.`,
      );
    }
    this.#catalog = catalog;
    this.#signature = signature;
    this.#keepRefused = keepRefused ?? false;
    this.#onRefused = onRefused ?? (() => {});
  }

  /** The ids the mirror owns in the catalog (a new array each call). */
  get ids(): string[] {
    return [...this.#owned.keys()];
  }

  /** How many ids the mirror owns. */
  get size(): number {
    return this.#owned.size;
  }

  /** Whether `close()` ran: the mirror then owns nothing and applies nothing. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the mirror owns this id. */
  has(id: string): boolean {
    return this.#owned.has(id);
  }

  /**
   * Makes the owned ids exactly those of `descriptors`: removes the gone ones first (freeing their
   * names), then adds the new ones and replaces the changed ones, in list order. Throws
   * {@link InvalidArgumentError} when `descriptors` is not an array or the mirror is closed.
   */
  apply(descriptors: readonly ToolDescriptor<TTool>[]): MirrorChanges {
    if (this.#closed) {
      throw new InvalidArgumentError(
        'mirror',
        'This catalog mirror was closed (its ids removed): it applies no more lists.',
      );
    }
    if (!Array.isArray(descriptors)) {
      throw new InvalidArgumentError(
        'descriptors',
        `A catalog mirror applies an array of descriptors, got ${describeValue(descriptors)}.`,
      );
    }
    const changes: MirrorChanges = { added: 0, replaced: 0, removed: 0, refused: 0 };
    const listed = new Set<string>();
    for (const descriptor of descriptors) {
      if (isRecord(descriptor as unknown) && typeof descriptor.id === 'string') listed.add(descriptor.id);
    }
    for (const id of [...this.#owned.keys()]) if (!listed.has(id)) this.#remove(id, changes);
    const applied = new Set<string>();
    const refusedIds = new Set<string>();
    for (let i = 0; i < descriptors.length; i++) {
      const descriptor = descriptors[i]!;
      if (!isRecord(descriptor as unknown) || typeof descriptor.id !== 'string') {
        changes.refused++;
        this.#refuse(
          new InvalidArgumentError(
            `descriptors[${i}]`,
            `A listed descriptor must be an object with a string id, got ${describeValue(descriptor)}.`,
          ),
          descriptor,
        );
        continue;
      }
      const id = descriptor.id;
      if (applied.has(id)) continue;
      try {
        const signature = this.#signature?.(descriptor);
        // (an owned id someone else took out of the catalog is added again)
        const present = this.#owned.has(id) && this.#catalog.has(id);
        if (present && signature !== undefined && this.#owned.get(id) === signature) {
          applied.add(id);
          refusedIds.delete(id);
          continue;
        }
        if (present) {
          this.#catalog.replace(descriptor);
          changes.replaced++;
        } else {
          this.#catalog.add(descriptor);
          changes.added++;
        }
        this.#owned.set(id, signature);
        applied.add(id);
        refusedIds.delete(id);
      } catch (error) {
        changes.refused++;
        refusedIds.add(id);
        this.#refuse(error, descriptor);
      }
    }
    if (!this.#keepRefused) for (const id of refusedIds) this.#remove(id, changes);
    return changes;
  }

  /** Removes every owned id from the catalog; later `apply` calls throw. Returns how many were removed. Idempotent. */
  close(): number {
    this.#closed = true;
    const changes: MirrorChanges = { added: 0, replaced: 0, removed: 0, refused: 0 };
    for (const id of [...this.#owned.keys()]) this.#remove(id, changes);
    return changes.removed;
  }

  #remove(id: string, changes: MirrorChanges): void {
    if (!this.#owned.delete(id)) return;
    // An id someone else removed meanwhile is no longer the catalog's: nothing to count.
    if (this.#catalog.remove(id)) changes.removed++;
  }

  #refuse(error: unknown, descriptor: ToolDescriptor<TTool>): void {
    try {
      this.#onRefused(error, descriptor);
    } catch {
      // A reporter that throws must not stop the rest of the list from being applied.
    }
  }
}
