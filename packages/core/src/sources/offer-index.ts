import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import { ToolIndex } from '../index/tool-index.js';
import { MODEL_INPUT_LIMITS, nameStart } from '../session/model-input-limits.js';
import type { ToolDescriptor } from '../types.js';
import { describeValue, isRecord } from '../values.js';
import { CatalogMirror, type MirrorChanges } from './catalog-mirror.js';
import { CoalescedTask } from './coalesced-task.js';

/** An entry a source offers that is not a tool (a document, a template, a prompt), as the caller lists it. */
export interface Offer<TPayload = unknown> {
  /** What the entry is, e.g. `document` or `prompt`: searches can be limited to some kinds. */
  kind: string;
  /** The entry's id, unique over every source and kind (namespace it per source). */
  id: string;
  title?: string;
  description?: string;
  /** More searchable text, after the title and description (e.g. the entry's own name, its media type). */
  text?: readonly string[];
  /** The caller's data, returned with each hit (compared as JSON to tell a changed entry). */
  payload: TPayload;
}

/** One entry found by {@link OfferIndex.search}. */
export interface OfferMatch<TPayload = unknown> {
  kind: string;
  /** The source the entry comes from. */
  source: string;
  id: string;
  payload: TPayload;
  /** Relevance in [0, 1], rounded to hundredths. */
  score: number;
}

/** Options for an {@link OfferIndex}. */
export interface OfferIndexOptions<TPayload = unknown> {
  /** Hears of each entry that is not searchable (bad fields, an id another entry has); the others go on. */
  onRefused?: (error: unknown, offer: Offer<TPayload>, source: string) => void;
  /** Hears of each failed `refresh` listing (which leaves the source's entries as they were). */
  onError?: (error: unknown, source: string) => void;
}

/** Options for {@link OfferIndex.search}. */
export interface OfferSearchOptions {
  /** Only entries of these kinds. Default: every kind. */
  kinds?: readonly string[];
  /** How many hits at most, from 1 to {@link MAX_OFFER_HITS}. Default 5. */
  limit?: number;
}

/** The most hits one {@link OfferIndex.search} returns. */
export const MAX_OFFER_HITS = 20;
const DEFAULT_OFFER_HITS = 5;

type Entry<P> = Omit<OfferMatch<P>, 'score'>;

/** What a value that should be a non-empty string is instead, for error messages. */
const shown = (value: unknown) => (value === '' ? 'an empty string' : describeValue(value));

const optionalText = (value: unknown) => value === undefined || typeof value === 'string';

/** The descriptor an offer is indexed as, or why it cannot be. */
function descriptorOf<P>(offer: Offer<P>, source: string): ToolDescriptor<Entry<P>> {
  const bad = (field: string, message: string) => new InvalidArgumentError(`offer.${field}`, message);
  if (!isRecord(offer)) throw bad('', `An offer must be an object, got ${describeValue(offer)}.`);
  const label = typeof offer.id === 'string' ? `Offer "${offer.id}"` : 'An offer';
  if (typeof offer.kind !== 'string' || offer.kind === '') {
    throw bad('kind', `${label} needs a non-empty string kind, got ${shown(offer.kind)}.`);
  }
  if (typeof offer.id !== 'string' || offer.id === '') {
    throw bad('id', `An offer needs a non-empty string id, got ${shown(offer.id)}.`);
  }
  for (const field of ['title', 'description'] as const) {
    if (!optionalText(offer[field])) {
      throw bad(field, `${label}: ${field} must be a string, got ${describeValue(offer[field])}.`);
    }
  }
  const text = offer.text ?? [];
  if (!Array.isArray(text) || !text.every((item) => typeof item === 'string')) {
    throw bad('text', `${label}: text must be an array of strings, got ${describeValue(offer.text)}.`);
  }
  return {
    id: offer.id,
    description: [offer.title, offer.description, ...text].filter(Boolean).join('. '),
    source,
    tags: [offer.kind],
    tool: { kind: offer.kind, source, id: offer.id, payload: offer.payload },
  };
}

function checkSource(source: unknown): asserts source is string {
  if (typeof source !== 'string' || source === '') {
    throw new InvalidArgumentError('source', `A source is named by a non-empty string, got ${shown(source)}.`);
  }
}

/**
 * The entries that sources offer besides tools, searchable with the same ranking as tools (a
 * catalog and index of their own). Each source's entries are replaced as a set (`replace`, or
 * `refresh` with a listing function, one listing at a time per source), and stay searchable until
 * replaced or removed.
 *
 * ```ts
 * const offers = new OfferIndex<Doc>();
 * offers.replace('wiki', docs.map((doc) => ({ kind: 'document', id: `wiki/${doc.path}`, title: doc.title, payload: doc })));
 * const hits = await offers.search('release notes', { kinds: ['document'] });
 * ```
 */
export class OfferIndex<TPayload = unknown> {
  readonly #catalog = new ToolCatalog<Entry<TPayload>>();
  readonly #index = new ToolIndex<Entry<TPayload>>(this.#catalog);
  readonly #mirrors = new Map<string, CatalogMirror<Entry<TPayload>>>();
  readonly #refreshes = new Map<string, { task: CoalescedTask; list: () => Promise<readonly Offer<TPayload>[]> }>();
  readonly #onRefused: NonNullable<OfferIndexOptions<TPayload>['onRefused']>;
  readonly #onError: NonNullable<OfferIndexOptions<TPayload>['onError']>;
  /** The offers of the list being applied, by the descriptor each became (for `onRefused`). */
  readonly #applying = new Map<ToolDescriptor<Entry<TPayload>>, Offer<TPayload>>();
  #disposed = false;

  constructor(options: OfferIndexOptions<TPayload> = {}) {
    if (!isRecord(options as unknown)) {
      throw new InvalidOptionError('options', `OfferIndex options must be an object, got ${describeValue(options)}.`);
    }
    for (const name of ['onRefused', 'onError'] as const) {
      const value = options[name];
      if (value !== undefined && typeof value !== 'function') {
        throw new InvalidOptionError(name, `${name} must be a function, got ${describeValue(value)}.`);
      }
    }
    this.#onRefused = options.onRefused ?? (() => {});
    this.#onError = options.onError ?? (() => {});
  }

  /** How many entries are searchable. */
  get size(): number {
    return this.#catalog.size;
  }

  /** The sources that have entries. */
  get sources(): string[] {
    return [...this.#mirrors.keys()].filter((source) => (this.#mirrors.get(source)?.size ?? 0) > 0);
  }

  /**
   * Makes `source`'s entries exactly `offers` (unchanged ones untouched). A malformed entry is
   * skipped (`onRefused`); one the catalog refuses too, keeping its earlier version. Returns how many
   * were added, replaced, removed and refused. Throws {@link InvalidArgumentError} for a bad source
   * or a non-array.
   */
  replace(source: string, offers: readonly Offer<TPayload>[]): MirrorChanges {
    checkSource(source);
    if (!Array.isArray(offers)) {
      throw new InvalidArgumentError('offers', `Offers are given as an array, got ${describeValue(offers)}.`);
    }
    if (this.#disposed) return { added: 0, replaced: 0, removed: 0, refused: 0 };
    let refused = 0;
    for (const offer of offers) {
      try {
        this.#applying.set(descriptorOf(offer, source), offer);
      } catch (error) {
        refused++;
        this.#refuse(error, offer, source);
      }
    }
    try {
      const changes = this.#mirror(source).apply([...this.#applying.keys()]);
      return { ...changes, refused: changes.refused + refused };
    } finally {
      this.#applying.clear();
    }
  }

  /**
   * Lists `source`'s entries with `list` and `replace`s them; while a listing of the source runs, a
   * request makes exactly one more after it (with the latest `list`). A failed listing goes to
   * `onError`. Resolves once the source is listed; never rejects.
   */
  refresh(source: string, list: () => Promise<readonly Offer<TPayload>[]>): Promise<void> {
    checkSource(source);
    if (typeof list !== 'function') {
      throw new InvalidArgumentError('list', `refresh lists the entries with a function, got ${describeValue(list)}.`);
    }
    let refresh = this.#refreshes.get(source);
    if (!refresh) {
      const task = new CoalescedTask(
        async () => {
          if (this.#disposed) return;
          const offers = await this.#refreshes.get(source)!.list();
          this.replace(source, offers);
        },
        (error) => this.#onError(error, source),
      );
      refresh = { task, list };
      this.#refreshes.set(source, refresh);
    }
    refresh.list = list;
    return refresh.task.request();
  }

  /** Removes every entry of `source` (a `refresh` of it still under way lists them again); returns how many. */
  remove(source: string): number {
    checkSource(source);
    const removed = this.#mirrors.get(source)?.close() ?? 0;
    this.#mirrors.delete(source);
    return removed;
  }

  /** Resolves once every listing under way is over. */
  async settled(): Promise<void> {
    await Promise.all([...this.#refreshes.values()].map(({ task }) => task.settled()));
  }

  /**
   * The best entries for `query` (of some kinds, or all), scored like tools. A model writes the query:
   * its first `MODEL_INPUT_LIMITS.queryLength` (2,000) characters are searched, as by `search_tools`.
   */
  async search(query: string, options: OfferSearchOptions = {}): Promise<OfferMatch<TPayload>[]> {
    if (typeof query !== 'string') {
      throw new InvalidArgumentError('query', `A search query is a string, got ${describeValue(query)}.`);
    }
    const { kinds, limit = DEFAULT_OFFER_HITS } = options ?? {};
    if (typeof limit !== 'number' || Number.isNaN(limit)) {
      throw new InvalidOptionError(
        'limit',
        `limit must be a number from 1 to ${MAX_OFFER_HITS}, got ${describeValue(limit)}.`,
      );
    }
    if (kinds !== undefined && (!Array.isArray(kinds) || !kinds.every((kind) => typeof kind === 'string'))) {
      throw new InvalidOptionError('kinds', `kinds must be an array of strings, got ${describeValue(kinds)}.`);
    }
    const wanted = kinds ? new Set(kinds) : undefined;
    const hits = await this.#index.search(nameStart(query, MODEL_INPUT_LIMITS.queryLength), {
      limit: Math.min(MAX_OFFER_HITS, Math.max(1, Math.floor(limit))),
      filter: wanted ? (id) => wanted.has(this.#catalog.get(id)?.tool?.kind ?? '') : undefined,
    });
    return hits.flatMap((hit) => {
      const entry = this.#catalog.get(hit.id)?.tool;
      return entry ? [{ ...entry, score: Math.round(hit.score * 100) / 100 }] : [];
    });
  }

  /** Stops indexing: later `replace`s and `refresh`es change nothing; searches answer from what was held. Idempotent. */
  dispose(): void {
    this.#disposed = true;
    this.#index.dispose();
  }

  #mirror(source: string): CatalogMirror<Entry<TPayload>> {
    let mirror = this.#mirrors.get(source);
    if (!mirror) {
      mirror = new CatalogMirror({
        catalog: this.#catalog,
        signature: (descriptor) => JSON.stringify([descriptor.description, descriptor.tool]),
        keepRefused: true,
        onRefused: (error, descriptor) => this.#refuse(error, this.#applying.get(descriptor)!, source),
      });
      this.#mirrors.set(source, mirror);
    }
    return mirror;
  }

  #refuse(error: unknown, offer: Offer<TPayload>, source: string): void {
    try {
      this.#onRefused(error, offer, source);
    } catch {
      // A reporter that throws must not stop the other entries.
    }
  }
}
