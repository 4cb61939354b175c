import { InvalidOptionError } from '../errors.js';

/** What `LoadedToolStore.add` reports. */
export interface AddLoadedToolsResult {
  /** The thread's full list of loaded ids after the add, in load order. */
  loaded: string[];
  /** The requested ids that were not loaded before, in request order (each once). */
  added: string[];
  /** The requested ids that were already loaded before this call, in request order (each once). */
  alreadyLoaded: string[];
}

/**
 * Where loaded tool ids live, per thread key. Every method is async so shared stores fit. Ids are kept
 * in load order, without duplicates.
 *
 * Implementations: `InMemoryLoadedToolStore` (one process), `KeyValueLoadedToolStore` (any shared
 * key-value backend, e.g. `@toolscout/redis`).
 */
export interface LoadedToolStore {
  /** The thread's loaded ids in load order; `[]` for an unknown (or expired) thread. */
  get(threadKey: string): Promise<string[]>;
  /** Appends the ids not yet loaded (request order, duplicates dropped); `loaded` is the full list after the add. */
  add(threadKey: string, toolIds: readonly string[]): Promise<AddLoadedToolsResult>;
  /** Unloads ids (e.g. a tool removed from the catalog); ids that are not loaded are ignored. */
  remove(threadKey: string, toolIds: readonly string[]): Promise<void>;
  /** Forgets one thread. */
  clear(threadKey: string): Promise<void>;
  /**
   * Forgets the thread `threadId` under every resource: every key `threadKey` makes for it (see
   * `isKeyOfThread`). `ToolSearchSession.clearState(threadId)` without a resource calls it; a store
   * without it has only the thread's key without a resource cleared there.
   */
  clearThread?(threadId: string): Promise<void>;
  /** Forgets every thread of this store. */
  clearAll(): Promise<void>;
}

/**
 * The most tools one thread may have loaded, by default, in every store (`maxToolsPerThread`): a
 * model, or a forged conversation, cannot make a thread's tool list grow without bound.
 */
export const DEFAULT_MAX_TOOLS_PER_THREAD = 256;

/** The ids once each, first occurrence first. */
export function uniqueIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)];
}

/**
 * Appends `toolIds` to `existing` (load order kept, duplicates dropped) and says which were new.
 * `existing` is not modified.
 */
export function mergeLoadedIds(existing: readonly string[], toolIds: readonly string[]): AddLoadedToolsResult {
  const loadedSet = new Set(existing);
  const loaded = [...loadedSet];
  const added: string[] = [];
  const alreadyLoaded: string[] = [];
  for (const id of uniqueIds(toolIds)) {
    if (loadedSet.has(id)) {
      alreadyLoaded.push(id);
    } else {
      loadedSet.add(id);
      loaded.push(id);
      added.push(id);
    }
  }
  return { loaded, added, alreadyLoaded };
}

/** The largest delay `setTimeout`/`setInterval` accept (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Checks a duration option: a finite number >= 0 (and <= `max` when given). Returns `fallback` when unset. */
export function durationOption(name: string, value: number | undefined, fallback: number, max?: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidOptionError(
      name,
      `Option "${name}" must be a finite number of milliseconds >= 0 (0 turns it off), got ${String(value)}.`,
    );
  }
  if (max !== undefined && value > max) {
    throw new InvalidOptionError(name, `Option "${name}" must be at most ${max} ms, got ${value}.`);
  }
  return value;
}

/** Checks a count option: a whole number >= 1. Returns `fallback` when unset. */
export function countOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError(name, `Option "${name}" must be a whole number >= 1, got ${String(value)}.`);
  }
  return value;
}

/** Checks that tool ids are an array of strings (callers from plain JavaScript can pass anything). */
export function assertToolIds(toolIds: readonly string[]): void {
  if (!Array.isArray(toolIds)) {
    throw new InvalidOptionError('toolIds', `Tool ids must be an array of strings, got ${typeof toolIds}.`);
  }
  for (const id of toolIds) {
    if (typeof id !== 'string') {
      throw new InvalidOptionError('toolIds', `Tool ids must be strings, got ${typeof id} (${String(id)}).`);
    }
  }
}
