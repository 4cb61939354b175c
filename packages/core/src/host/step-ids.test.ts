import { describe, expect, it } from 'vitest';
import { stepIdsFrom } from './step-ids.js';

const PATHS = { threadId: ['threadId', 'memory.thread.id'], resourceId: ['resourceId', 'memory.thread.owner'] };

function reader(context: Record<string, unknown>): (key: string) => unknown {
  return (key) => context[key];
}

describe('stepIdsFrom', () => {
  it('takes the first non-empty string at the paths of each id, in order', () => {
    const memory = { thread: { id: 'memory-thread', owner: 'memory-owner' } };
    expect(stepIdsFrom(reader({ memory }), PATHS)).toEqual({ threadId: 'memory-thread', resourceId: 'memory-owner' });
    expect(stepIdsFrom(reader({ memory, threadId: 't', resourceId: 'r' }), PATHS)).toEqual({
      threadId: 't',
      resourceId: 'r',
    });
    expect(stepIdsFrom(reader({ memory, threadId: '' }), PATHS).threadId).toBe('memory-thread');
  });

  it('leaves out ids found nowhere, skipping values of the wrong kind', () => {
    expect(stepIdsFrom(reader({}), PATHS)).toEqual({});
    expect(stepIdsFrom(reader({ threadId: 42, memory: 'nonsense' }), PATHS)).toEqual({});
    expect(stepIdsFrom(reader({ memory: { thread: { id: 7 } } }), PATHS)).toEqual({});
  });
});
