import type { StepRequest } from '../session/step-types.js';
import { valueAt } from './option-rules.js';

/** A request's thread and resource, as a step request takes them. */
export type StepIds = Pick<StepRequest, 'threadId' | 'resourceId'>;

/**
 * Where a host's request context keeps a request's ids, most trusted first: dotted paths whose first
 * key is one of the context's (`memory.thread.id`: the `id` of the `thread` of the key `memory`).
 */
export interface StepIdPaths {
  threadId: readonly string[];
  resourceId: readonly string[];
}

/** The first non-empty string at `paths`, reading the context's keys with `read`. */
function textAt(read: (key: string) => unknown, paths: readonly string[]): string | undefined {
  for (const path of paths) {
    const [key = '', ...rest] = path.split('.');
    const value = rest.length === 0 ? read(key) : valueAt(read(key), rest.join('.'));
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * The thread and resource ids of a request, read from its context (`read` returns the value of one
 * of its keys, e.g. `(key) => context.get(key)`): for each, the first non-empty string at its paths.
 * An id found nowhere is left out; what is not a string or a record on the way is skipped, never
 * thrown on.
 */
export function stepIdsFrom(read: (key: string) => unknown, paths: StepIdPaths): StepIds {
  const ids: StepIds = {};
  const threadId = textAt(read, paths.threadId);
  const resourceId = textAt(read, paths.resourceId);
  if (threadId !== undefined) ids.threadId = threadId;
  if (resourceId !== undefined) ids.resourceId = resourceId;
  return ids;
}
