import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { checkReturnedRequest, requestFromContext } from './request-from-context.js';

describe('requestFromContext', () => {
  it('reads string thread and resource ids and keeps the whole context for the policy', () => {
    const context = { threadId: 't', resourceId: 'r', role: 'admin' };
    expect(requestFromContext(context)).toEqual({ threadId: 't', resourceId: 'r', context });
  });

  it('leaves out ids that are not strings, and reads nothing from a context that is not a record', () => {
    expect(requestFromContext({ threadId: 7, resourceId: null })).toEqual({
      threadId: undefined,
      resourceId: undefined,
      context: { threadId: 7, resourceId: null },
    });
    expect(requestFromContext(undefined)).toEqual({ threadId: undefined, resourceId: undefined, context: undefined });
    expect(requestFromContext('thread-1').threadId).toBeUndefined();
  });
});

describe('checkReturnedRequest', () => {
  it('passes a request through, and makes nothing an empty request', () => {
    const request = { threadId: 't', loaded: ['a'] };
    expect(checkReturnedRequest('request', request)).toBe(request);
    expect(checkReturnedRequest('request', undefined)).toEqual({});
  });

  it('names the option and the bad field in an InvalidOptionError', () => {
    const error = thrown(() => checkReturnedRequest('request', { threadId: 7 }));
    expect(InvalidOptionError.isInstance(error) && error.option).toBe('request');
    expect((error as Error).message).toBe('request() returned a threadId that must be a string; got a number.');
    expect(() => checkReturnedRequest('ids', 'thread-1')).toThrow(
      'ids() returned a value that must be an object; got a string.',
    );
    expect(() => checkReturnedRequest('request', { loaded: ['a', 2] })).toThrow(/returned a loaded\[1\] that/);
  });
});
