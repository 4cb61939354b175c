import { InvalidArgumentError } from '../errors.js';
import { describeValue, isRecord } from '../values.js';
import type { PrepareStepOptions, StepRequest } from './step-types.js';

/** What is wrong with a step request: where (`threadId`, `loaded[2]`, '' for the whole) and what. */
export interface StepRequestProblem {
  path: string;
  /** E.g. `must be a string; got a number`. */
  problem: string;
}

/**
 * The first problem of a value given as a {@link StepRequest}, or undefined when it is one (or
 * absent): an object whose `threadId` and `resourceId` are strings, whose `conversation` is an
 * array and whose `loaded` and `hostTools` are arrays of tool names, when given (the entries of `conversation` are
 * read leniently: it comes from the client). The rule of
 * {@link checkStepRequest}, for hosts that report a bad request in their own terms (e.g. as an
 * `InvalidOptionError` of the callback option that returned it).
 */
export function stepRequestProblem(request: unknown): StepRequestProblem | undefined {
  if (request === undefined) return undefined;
  if (!isRecord(request)) return { path: '', problem: `must be an object; got ${describeValue(request)}` };
  for (const path of ['threadId', 'resourceId'] as const) {
    const value = request[path];
    if (value !== undefined && typeof value !== 'string') {
      return { path, problem: `must be a string; got ${describeValue(value)}` };
    }
  }
  const { conversation } = request;
  if (conversation !== undefined && !Array.isArray(conversation)) {
    return {
      path: 'conversation',
      problem: `must be an array of tool calls and results; got ${describeValue(conversation)}`,
    };
  }
  return namesProblem(request, 'loaded') ?? namesProblem(request, 'hostTools');
}

/** The problem of a request's list of tool names (`loaded`, `hostTools`), when it is given and not one. */
function namesProblem(request: Record<string, unknown>, path: 'loaded' | 'hostTools'): StepRequestProblem | undefined {
  const names = request[path];
  if (names === undefined) return undefined;
  if (!Array.isArray(names)) return { path, problem: `must be an array of tool names; got ${describeValue(names)}` };
  const at = names.findIndex((name) => typeof name !== 'string');
  return at < 0
    ? undefined
    : { path: `${path}[${at}]`, problem: `must be a tool name; got ${describeValue(names[at])}` };
}

/**
 * A step request as the session's methods take it, checked (see {@link stepRequestProblem}): an
 * {@link InvalidArgumentError} naming the bad field (`request.threadId`) otherwise, never a crash
 * or a key made of a number later.
 */
export function checkStepRequest(request: unknown): StepRequest {
  const found = stepRequestProblem(request);
  if (found !== undefined) {
    const argument = found.path === '' ? 'request' : `request.${found.path}`;
    throw new InvalidArgumentError(argument, `${argument} ${found.problem}.`);
  }
  return (request ?? {}) as StepRequest;
}

/** The thread `clearState` forgets, checked: a thread id string, and a resource id string when given. */
export function checkThreadIds(threadId: unknown, resourceId: unknown): void {
  if (typeof threadId !== 'string') {
    throw new InvalidArgumentError('threadId', `threadId must be a string; got ${describeValue(threadId)}.`);
  }
  if (resourceId !== undefined && typeof resourceId !== 'string') {
    throw new InvalidArgumentError('resourceId', `resourceId must be a string; got ${describeValue(resourceId)}.`);
  }
}

/** `prepareStep`'s options, checked: absent, or an object. */
export function checkPrepareStepOptions(options: unknown): PrepareStepOptions {
  if (options !== undefined && !isRecord(options)) {
    throw new InvalidArgumentError(
      'options',
      `options must be an object ({ quiet, keys }); got ${describeValue(options)}.`,
    );
  }
  return options ?? {};
}

/** A query of `session.search`, checked: a string. */
export function checkQuery(query: unknown): string {
  if (typeof query !== 'string') {
    throw new InvalidArgumentError('query', `query must be a string; got ${describeValue(query)}.`);
  }
  return query;
}
