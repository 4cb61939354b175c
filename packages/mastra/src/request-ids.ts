import { MASTRA_RESOURCE_ID_KEY, MASTRA_THREAD_ID_KEY, type RequestContext } from '@mastra/core/request-context';
import type { ConversationEntry, StepRequest } from '@toolscout/core';
import { type StepIdPaths, type StepIds, stepIdsFrom } from '@toolscout/core/internal';

/**
 * Where a Mastra request keeps its ids, as Mastra's own processor reads them: the reserved
 * `mastra__threadId` / `mastra__resourceId` keys first, then the memory thread the agent resolved
 * (`memory: { thread, resource }` on `generate`/`stream`, under `MastraMemory`).
 */
const MASTRA_ID_PATHS: StepIdPaths = {
  threadId: [MASTRA_THREAD_ID_KEY, 'MastraMemory.thread.id'],
  resourceId: [MASTRA_RESOURCE_ID_KEY, 'MastraMemory.resourceId', 'MastraMemory.thread.resourceId'],
};

/** The thread and resource a Mastra request belongs to (loaded tools are kept per thread and resource). */
export function requestIds(requestContext: RequestContext | undefined): StepIds {
  if (typeof requestContext?.get !== 'function') return {};
  return stepIdsFrom((key) => requestContext.get(key), MASTRA_ID_PATHS);
}

/** The session's request: the thread and resource, Mastra's request context, the conversation when given. */
export function stepRequest(
  requestContext: RequestContext | undefined,
  conversation?: ConversationEntry[],
): StepRequest {
  return { ...requestIds(requestContext), context: requestContext, conversation };
}
