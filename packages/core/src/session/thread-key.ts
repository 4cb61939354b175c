import type { StepRequest } from './step-types.js';

/** An id with its `%` and `/` escaped (`%25`, `%2F`): no `/` is left in it, and no two ids share an escape. */
function escapeId(id: string): string {
  return id.replaceAll('%', '%25').replaceAll('/', '%2F');
}

/**
 * The one key of a request's thread, for stores and per-thread memory: the thread id, after its
 * resource id and a `/` when there is one. The resource id is escaped (`/` and `%`), and so is a
 * thread id without a resource, so that no two requests of different (resource, thread) pairs share
 * a key: a key without a `/` is a thread without a resource, and the first `/` ends the resource. Ids
 * without `/` or `%` keep their plain spelling (`t`, `u/t`). None without a thread id (or with an
 * empty one).
 */
export function threadKey(request: Pick<StepRequest, 'threadId' | 'resourceId'>): string | undefined {
  if (request.threadId === undefined || request.threadId === '') return undefined;
  if (!request.resourceId) return escapeId(request.threadId);
  return `${escapeId(request.resourceId)}/${request.threadId}`;
}

/**
 * Whether `key` is a key {@link threadKey} makes for the thread `threadId`, under any resource or
 * none: `clearState(threadId)` without a resource forgets every such key.
 */
export function isKeyOfThread(key: string, threadId: string): boolean {
  if (threadId === '') return false;
  if (key === escapeId(threadId)) return true;
  // With a resource, the first `/` ends the (escaped) resource and the thread id follows as it is.
  const slash = key.indexOf('/');
  return slash > 0 && key.slice(slash + 1) === threadId;
}

/** The spelling of a thread id in {@link threadKey}'s key without a resource (its `%` and `/` escaped). */
export function threadKeyWithoutResource(threadId: string): string {
  return escapeId(threadId);
}
