import { randomUUID } from 'node:crypto';
import { ToolSearchSession } from '@toolscout/core';
import { describe, expect, it } from 'vitest';
import { createRedisFeedbackStore } from './redis-feedback-store.js';
import { useTwoClients } from './test-utils/two-clients.js';

// Two clients stand for two server instances sharing one Redis (the redis-server of this run).
const clients = useTwoClients();

const catalog = [
  { id: 'paris_guide', description: 'A guide to the sights and museums of Paris.' },
  { id: 'get_forecast', description: 'Weather forecast for a location.', execute: async () => 'sunny' },
];

describe('createRedisFeedbackStore', () => {
  it("shares what one instance's sessions learned with another's", async () => {
    const prefix = `feedback-test:${randomUUID()}:`;
    const first = new ToolSearchSession({
      catalog,
      mode: 'proxy',
      feedback: { store: createRedisFeedbackStore(clients.a, { prefix }) },
    });
    for (const threadId of ['t1', 't2', 't3']) {
      const step = await first.prepareStep({ threadId });
      await step.execute('search_tools', { query: 'will it rain in paris' });
      await step.execute('call_tool', { toolName: 'get_forecast', arguments: {} });
    }
    expect(JSON.parse((await clients.a.get(`${prefix}tools`)) ?? '[]')).toEqual(['get_forecast']);
    const second = new ToolSearchSession({
      catalog,
      feedback: { store: createRedisFeedbackStore(clients.b, { prefix }) },
    });
    expect((await second.search('rain in paris', {}, 2))[0]?.tool.id).toBe('get_forecast');
    await second.feedback?.clear();
    expect(await clients.a.exists(`${prefix}tools`)).toBe(0);
    expect(await clients.a.exists(`${prefix}tool:get_forecast`)).toBe(0);
  });
});
