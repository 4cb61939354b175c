// clearState(threadId) without a resource forgets the thread under every resource (issue #15 item
// 8): agents with memory always have a resource, and Mastra's clearState(threadId) takes none.
import { describe, expect, it } from 'vitest';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import { KeyValueLoadedToolStore } from '../stores/key-value-store.js';
import { mapBackend } from '../test-utils/map-backend.js';
import type { ToolDescriptor } from '../types.js';
import type { ToolSearchSessionOptions } from './session-options.js';
import { ToolSearchSession } from './tool-search-session.js';

const catalog: ToolDescriptor[] = [{ id: 'get_weather', description: 'Get the weather.' }];

async function loadIn(session: ToolSearchSession, threadId: string, resourceId?: string) {
  await (await session.prepareStep({ threadId, resourceId })).execute('load_tool', { toolName: 'get_weather' });
}

async function offered(session: ToolSearchSession, threadId: string, resourceId?: string) {
  return (await session.prepareStep({ threadId, resourceId })).toolNames.includes('get_weather');
}

describe('clearState', () => {
  const stores: [string, () => ToolSearchSessionOptions['state']][] = [
    ['in-memory store', () => new InMemoryLoadedToolStore()],
    ['key-value store', () => new KeyValueLoadedToolStore(mapBackend(true))],
  ];
  for (const [name, store] of stores) {
    it(`without a resource forgets the thread under every resource, and no other thread (${name})`, async () => {
      const session = new ToolSearchSession({ catalog, state: store() });
      await loadIn(session, 't1', 'user-1');
      await loadIn(session, 't1', 'user/2');
      await loadIn(session, 't1');
      await loadIn(session, 'x/t1', 'user-1');
      await loadIn(session, 't2', 'user-1');
      await session.clearState('t1');
      expect(await offered(session, 't1', 'user-1')).toBe(false);
      expect(await offered(session, 't1', 'user/2')).toBe(false);
      expect(await offered(session, 't1')).toBe(false);
      expect(await offered(session, 'x/t1', 'user-1')).toBe(true);
      expect(await offered(session, 't2', 'user-1')).toBe(true);
      // With a resource, that one key only.
      await session.clearState('t2', 'user-2');
      expect(await offered(session, 't2', 'user-1')).toBe(true);
      await session.clearState('t2', 'user-1');
      expect(await offered(session, 't2', 'user-1')).toBe(false);
    });
  }

  it('forgets the loads kept for a resume under every resource (conversation strategy)', async () => {
    const session = new ToolSearchSession({ catalog, state: 'conversation' });
    const conversation = [
      { type: 'tool-result' as const, toolName: 'load_tool', output: { success: true, toolName: 'get_weather' } },
    ];
    await session.prepareStep({ threadId: 't1', resourceId: 'u', conversation });
    // A resumed approval (no conversation) gets the thread's last loads...
    expect(await offered(session, 't1', 'u')).toBe(true);
    await session.clearState('t1');
    // ...until the thread is cleared.
    expect(await offered(session, 't1', 'u')).toBe(false);
  });

  it('says so, and clears nothing, when a key-value backend cannot list its keys', async () => {
    const session = new ToolSearchSession({ catalog, state: new KeyValueLoadedToolStore(mapBackend(false)) });
    await loadIn(session, 't1', 'u');
    await expect(session.clearState('t1')).rejects.toThrow(/scanKeys/);
    expect(await offered(session, 't1', 'u')).toBe(true);
    await session.clearState('t1', 'u');
    expect(await offered(session, 't1', 'u')).toBe(false);
  });
});
