import { InvalidOptionError } from '../errors.js';
import { stepRequestProblem } from '../session/step-request.js';
import type { StepRequest } from '../session/step-types.js';
import { isRecord } from '../values.js';

/** Who a request is for, as a host reads it from its framework: thread, resource and policy context. */
export type HostRequest = Pick<StepRequest, 'threadId' | 'resourceId' | 'context'>;

/**
 * The request of a host that keeps everything in one context record (a runtime or request context):
 * its `threadId` and `resourceId` when they are strings, and the whole context for the policy.
 */
export function requestFromContext(context: unknown): HostRequest {
  const { threadId, resourceId } = isRecord(context) ? context : {};
  return {
    threadId: typeof threadId === 'string' ? threadId : undefined,
    resourceId: typeof resourceId === 'string' ? resourceId : undefined,
    context,
  };
}

/**
 * What a host's request callback option returned, checked by core's rule for a step request
 * (`stepRequestProblem`): an {@link InvalidOptionError} of `option` otherwise, e.g.
 * `request() returned a threadId that must be a string; got a number.`
 */
export function checkReturnedRequest(option: string, request: unknown): StepRequest {
  const found = stepRequestProblem(request);
  if (found === undefined) return (request ?? {}) as StepRequest;
  const what = found.path === '' ? 'a value' : `a ${found.path}`;
  throw new InvalidOptionError(option, `${option}() returned ${what} that ${found.problem}.`);
}
