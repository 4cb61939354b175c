import { RequestContext } from '@mastra/core/request-context';
import { describe, expect, it } from 'vitest';
import { requestContextOf } from '../test-utils/mastra-harness.js';
import { requestIds } from './request-ids.js';

describe('requestIds', () => {
  it('reads the reserved keys first, then the memory thread', () => {
    const memory = { thread: { id: 'memory-thread', resourceId: 'thread-owner' }, resourceId: 'memory-resource' };
    expect(requestIds(requestContextOf({ MastraMemory: memory }))).toEqual({
      threadId: 'memory-thread',
      resourceId: 'memory-resource',
    });
    expect(requestIds(requestContextOf({ MastraMemory: { thread: { id: 't', resourceId: 'owner' } } }))).toEqual({
      threadId: 't',
      resourceId: 'owner',
    });
    const reserved = requestContextOf({
      MastraMemory: memory,
      mastra__threadId: 'middleware-thread',
      mastra__resourceId: 'middleware-user',
    });
    expect(requestIds(reserved)).toEqual({ threadId: 'middleware-thread', resourceId: 'middleware-user' });
  });

  it('has no ids for a request without a thread, or with malformed entries', () => {
    expect(requestIds(undefined)).toEqual({});
    expect(requestIds(new RequestContext())).toEqual({});
    expect(requestIds(requestContextOf({ MastraMemory: 'nonsense', mastra__threadId: '' }))).toEqual({});
    expect(requestIds(requestContextOf({ MastraMemory: { thread: { id: 42 } } }))).toEqual({});
  });
});
