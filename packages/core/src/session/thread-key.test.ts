import { describe, expect, it } from 'vitest';
import { threadKey } from './thread-key.js';
import { ToolSearchSession } from './tool-search-session.js';

describe('threadKey', () => {
  it('gives every (resource, thread) pair its own key, a thread without a resource included', () => {
    const ids = ['t', 'a', 'a/t', 'a%2Ft', 'a%t', '%', '/', 'a/', '/t', 'a//t', 'a%252Ft'];
    const pairs = [
      ...ids.map((threadId) => ({ threadId })),
      ...ids.flatMap((resourceId) => ids.map((threadId) => ({ resourceId, threadId }))),
    ];
    const keys = new Map<string, (typeof pairs)[number]>();
    for (const pair of pairs) {
      const key = threadKey(pair)!;
      expect(
        keys.get(key),
        `${JSON.stringify(pair)} and ${JSON.stringify(keys.get(key))} share ${key}`,
      ).toBeUndefined();
      keys.set(key, pair);
    }
    // Plain ids keep their plain keys (what stores already hold).
    expect(threadKey({ threadId: 't-1' })).toBe('t-1');
    expect(threadKey({ threadId: 't', resourceId: 'u' })).toBe('u/t');
  });

  it("a thread without a resource cannot read or change a resource's thread of the same spelling", async () => {
    const session = new ToolSearchSession({
      catalog: [{ id: 'read_mail', description: 'Read the mailbox.', execute: () => 'mail' }],
    });
    const alice = { resourceId: 'alice', threadId: 't1' };
    await (await session.prepareStep(alice)).execute('load_tool', { toolName: 'read_mail' });
    expect((await session.prepareStep(alice)).toolNames).toContain('read_mail');
    const intruder = { threadId: 'alice/t1' };
    expect((await session.prepareStep(intruder)).toolNames).not.toContain('read_mail');
    expect(await session.loadedTools(intruder)).toEqual([]);
    session.dispose();
  });
});
