// What callers see while Redis is down: a typed error naming the store, the operation and the cause,
// within the store's command timeout, from the store itself and through a real ToolSearchSession.
import { ToolSearchSession, ToolscoutError } from '@toolscout/core';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisKeyValueStore } from './redis-key-value-store.js';
import { createRedisLoadedToolStore } from './redis-loaded-tool-store.js';
import { type RedisServer, startRedisServer } from './test-utils/redis-server.js';

const COMMAND_TIMEOUT_MS = 300;
/** Far above the command timeout, far below node-redis's endless reconnecting: a hang fails this. */
const BOUND_MS = 5_000;

let server: RedisServer;
let client: RedisClientType;
/** Connection errors while the server is down; node-redis reports each reconnect attempt. */
const clientErrors: unknown[] = [];

beforeAll(async () => {
  // A server of its own: this file stops it, the other files share the run's server.
  server = await startRedisServer();
  client = createClient({ url: server.url });
  client.on('error', (error) => clientErrors.push(error));
  await client.connect();
  await client.set('toolscout:loaded:before', '["search_web"]');
  await server.stop();
});

afterAll(async () => {
  client?.destroy();
});

/** Runs `attempt`, expecting a rejection within BOUND_MS; returns the error and how long it took. */
async function failure(attempt: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await Promise.race([
    attempt().then(
      () => new Error('resolved although Redis is down'),
      (e: unknown) => e,
    ),
    new Promise((resolve) => setTimeout(() => resolve(new Error(`still pending after ${BOUND_MS} ms`)), BOUND_MS)),
  ]);
  return { error, ms: performance.now() - started };
}

function expectUnavailable(error: unknown, operation: string, reason = /no reply from Redis within 300 ms/) {
  expect(ToolscoutError.isInstance(error), String(error)).toBe(true);
  expect(error).toMatchObject({ code: 'store-unavailable', store: 'Redis loaded-tool store', operation });
  const message = (error as Error).message;
  expect(message).toContain('Redis loaded-tool store');
  expect(message).toContain(operation);
  expect(message).toMatch(reason);
  expect((error as Error).cause).toBeDefined();
}

describe('the Redis loaded-tool store while Redis is down', () => {
  it.each([
    ['get', 'reading the loaded tools of thread "T"', (store) => store.get('T')],
    ['add', 'adding 1 tool(s) to thread "T"', (store) => store.add('T', ['get_weather'])],
    ['remove', 'removing 1 tool(s) from thread "T"', (store) => store.remove('T', ['get_weather'])],
    ['clear', 'clearing thread "T"', (store) => store.clear('T')],
    ['clearAll', 'clearing every thread under "toolscout:loaded:"', (store) => store.clearAll()],
  ] satisfies [string, string, (store: ReturnType<typeof createRedisLoadedToolStore>) => Promise<unknown>][])(
    '%s fails within the command timeout with StoreUnavailableError naming the store and the operation',
    async (_, operation, attempt) => {
      const store = createRedisLoadedToolStore(client, { commandTimeoutMs: COMMAND_TIMEOUT_MS });
      const { error, ms } = await failure(() => attempt(store));
      expectUnavailable(error, operation);
      expect(ms).toBeLessThan(BOUND_MS);
    },
  );

  it('has a default command timeout, so a command never waits for Redis forever', async () => {
    // node-redis 6 gives up after 5 s with an empty TimeoutError; node-redis 5 waits forever.
    const store = createRedisLoadedToolStore(client);
    const { error } = await failure(() => store.get('T'));
    expectUnavailable(error, 'reading the loaded tools of thread "T"', /no reply from Redis within 2000 ms/);
  });

  it('the key-value store names the command and key it was running', async () => {
    const store = createRedisKeyValueStore(client, { prefix: 'p:', commandTimeoutMs: COMMAND_TIMEOUT_MS });
    const { error } = await failure(() => store.set('k', 'v'));
    expect(error).toMatchObject({ code: 'store-unavailable', store: 'Redis key-value store', operation: 'SET "p:k"' });
    expect((error as Error).message).toMatch(/no reply from Redis within 300 ms \(commandTimeoutMs\)/);
  });

  it('reaches prepareStep and execute callers of a real ToolSearchSession as that typed error', async () => {
    const store = createRedisLoadedToolStore(client, { commandTimeoutMs: COMMAND_TIMEOUT_MS });
    const session = new ToolSearchSession({
      catalog: [
        { id: 'get_weather', description: 'Current weather for a city.' },
        { id: 'search_web', description: 'Search the web.' },
      ],
      state: store,
    });
    try {
      const request = { threadId: 'T' };
      const { error: stepError } = await failure(() => session.prepareStep(request));
      expectUnavailable(stepError, 'reading the loaded tools of thread "T"');

      // A step prepared without a thread (derived from the conversation) needs no store; loading
      // into a thread does.
      const step = await session.prepareStep({});
      expect(step.toolNames).toEqual(['search_tools', 'load_tool']);
      const { error: loadError } = await failure(async () => {
        const threadStep = await session.prepareStep({ threadId: 'T', loaded: [] });
        return threadStep.execute('load_tool', { toolName: 'get_weather' });
      });
      expectUnavailable(loadError, 'adding 1 tool(s) to thread "T"');
    } finally {
      session.dispose();
    }
    expect(clientErrors.length).toBeGreaterThan(0);
  });
});
