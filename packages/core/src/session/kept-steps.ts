import { InvalidArgumentError } from '../errors.js';
import { describeValue, isIterable } from '../values.js';
import { RecentByThread } from './recent-by-thread.js';
import type { StepRequest } from './step-types.js';
import { threadKey } from './thread-key.js';

/** Threads whose last step a session remembers, for later tool calls and resumes (oldest dropped first). */
export const MAX_REMEMBERED_THREADS = 1000;

/**
 * The steps a session keeps for the tool calls that come after them, so that each call is judged
 * against what the model was offered when it made it, not a later step that holds a sibling's load.
 * Keyed in one of two ways, after what the host knows:
 * - by thread and the ids of the calls the model made at the step, for hosts that know the call ids
 *   once the model has answered (LangChain): `step.expectCalls(ids)`, then
 *   `session.stepForCall(request, id)`, which hands each call id its step once. The last step of at
 *   most {@link MAX_REMEMBERED_THREADS} threads is kept.
 * - by an object of the host's that stands for the step and comes back with each of its calls, for
 *   hosts that know no call ids when they prepare the step (the AI SDK's messages array):
 *   `session.prepareStep(request, { keys })`, then `session.stepFor(key, request)`. Kept as long as
 *   the host keeps the object (a `WeakMap`).
 */
export class KeptSteps<S extends { readonly request: StepRequest }> {
  readonly #byCall = new RecentByThread<{ step: S; callIds: Set<string> }>(MAX_REMEMBERED_THREADS);
  #byObject = new WeakMap<object, Promise<S>>();

  /** Keeps `step` for the calls `callIds` of its thread, in place of the thread's kept step (none: forgets it). */
  expectCalls(step: S, callIds: Iterable<string>): void {
    const ids = callIdSet(callIds);
    const key = threadKey(step.request);
    if (key === undefined) return;
    if (ids.size === 0) this.#byCall.delete(key);
    else this.#byCall.set(key, { step, callIds: ids });
  }

  /** The step kept for the call `callId` of the request's thread, handed once; undefined when there is none. */
  takeForCall(request: StepRequest, callId: string | undefined): S | undefined {
    const key = threadKey(request);
    const pending = key === undefined ? undefined : this.#byCall.get(key);
    if (key === undefined || callId === undefined || !pending?.callIds.delete(callId)) return undefined;
    if (pending.callIds.size === 0) this.#byCall.delete(key);
    return pending.step;
  }

  /** Keeps a step (as it is being prepared) under each of the host's objects. */
  keepFor(keys: readonly object[], step: Promise<S>): void {
    for (const key of keys) this.#byObject.set(key, step);
  }

  /** The step kept under a host's object, if any. */
  forObject(key: object): Promise<S> | undefined {
    return this.#byObject.get(key);
  }

  /** Forgets the steps kept for the calls of every thread whose key `matches`. */
  forgetThreads(matches: (key: string) => boolean): void {
    this.#byCall.deleteWhere(matches);
  }

  /** Forgets every kept step. */
  clear(): void {
    this.#byCall.clear();
    this.#byObject = new WeakMap();
  }
}

/**
 * `expectCalls`' call ids, checked: an iterable (an array, a Set) of strings. One id given as a
 * string would otherwise be taken as its characters.
 */
function callIdSet(callIds: unknown): Set<string> {
  if (!isIterable(callIds)) {
    throw new InvalidArgumentError(
      'callIds',
      `callIds must be an array (or another iterable) of call id strings; got ${describeValue(callIds)}.`,
    );
  }
  const ids = new Set<string>();
  let at = 0;
  for (const id of callIds) {
    if (typeof id !== 'string') {
      throw new InvalidArgumentError(
        `callIds[${at}]`,
        `callIds[${at}] must be a call id string; got ${describeValue(id)}.`,
      );
    }
    ids.add(id);
    at++;
  }
  return ids;
}

/** A host's object to keep a step under, checked: a `WeakMap` keeps only objects. */
export function hostKey(key: unknown, argument: string): object {
  if ((typeof key !== 'object' && typeof key !== 'function') || key === null) {
    throw new InvalidArgumentError(
      argument,
      `${argument} must be an object (a step is kept under it in a WeakMap); got ${describeValue(key)}.`,
    );
  }
  return key;
}

/** `prepareStep`'s `keys` option, checked: absent, or an array of objects. */
export function hostKeys(keys: unknown): readonly object[] {
  if (keys === undefined) return [];
  if (!Array.isArray(keys)) {
    throw new InvalidArgumentError(
      'options.keys',
      `options.keys must be an array of objects; got ${describeValue(keys)}.`,
    );
  }
  return keys.map((key, at) => hostKey(key, `options.keys[${at}]`));
}
