import type { StepRequest } from './step-types.js';

/**
 * The one key of a request's thread, for stores and per-thread memory: the thread id, after its
 * resource id when there is one (`/` and `%` in the resource id escaped, so that no two pairs share
 * a key). None without a thread id (or with an empty one).
 */
export function threadKey(request: Pick<StepRequest, 'threadId' | 'resourceId'>): string | undefined {
  if (request.threadId === undefined || request.threadId === '') return undefined;
  if (!request.resourceId) return request.threadId;
  return `${request.resourceId.replaceAll('%', '%25').replaceAll('/', '%2F')}/${request.threadId}`;
}
