import { MASTRA_RESOURCE_ID_KEY, MASTRA_THREAD_ID_KEY, type RequestContext } from '@mastra/core/request-context';
import type { StepRequest } from '@toolscout/core';
import { isRecord } from '@toolscout/core/internal';

/** The thread and resource a Mastra request belongs to (loaded tools are kept per thread and resource). */
export type RequestIds = Pick<StepRequest, 'threadId' | 'resourceId'>;

/** Where the agent puts the memory thread it resolved for the request. */
const MASTRA_MEMORY_KEY = 'MastraMemory';

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads the thread and resource ids of a request as Mastra's own processor does: the reserved
 * `mastra__threadId` / `mastra__resourceId` keys first, then the memory thread the agent resolved
 * (`memory: { thread, resource }` on `generate`/`stream`). Both are absent for a request without
 * either; a malformed memory entry is ignored rather than thrown on.
 */
export function requestIds(requestContext: RequestContext | undefined): RequestIds {
  if (!requestContext || typeof requestContext.get !== 'function') return {};
  const memory = requestContext.get(MASTRA_MEMORY_KEY);
  const memoryThread = isRecord(memory) && isRecord(memory.thread) ? memory.thread : undefined;
  const threadId = nonEmpty(requestContext.get(MASTRA_THREAD_ID_KEY)) ?? nonEmpty(memoryThread?.id);
  const resourceId =
    nonEmpty(requestContext.get(MASTRA_RESOURCE_ID_KEY)) ??
    (isRecord(memory) ? nonEmpty(memory.resourceId) : undefined) ??
    nonEmpty(memoryThread?.resourceId);
  const ids: RequestIds = {};
  if (threadId !== undefined) ids.threadId = threadId;
  if (resourceId !== undefined) ids.resourceId = resourceId;
  return ids;
}
