import { MASTRA_RESOURCE_ID_KEY, MASTRA_THREAD_ID_KEY, type RequestContext } from '@mastra/core/request-context';
import type { ConversationEntry, StepRequest } from '@toolscout/core';
import { type StepIdPaths, type StepIds, stepIdsFrom } from '@toolscout/core/internal';

/** Where Mastra keeps a request's ids, as its own processor reads them: reserved keys, then the memory thread. */
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
