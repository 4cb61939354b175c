// Model-based: any sequence of adds, removes and reads gives the same answers (and the same
// ToolLimitError) from the Redis store, on a real server, as from the in-memory store.
import { randomUUID } from 'node:crypto';
import { InMemoryLoadedToolStore, type LoadedToolStore } from '@toolscout/core';
import { ToolLimitError } from '@toolscout/core/errors';
import fc from 'fast-check';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedisLoadedToolStore } from './redis-loaded-tool-store.js';

let client: RedisClientType;

beforeAll(async () => {
  client = createClient({ url: inject('redisUrl') });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
});

// Ids that JSON, Lua's cjson and Redis must all carry unchanged.
const id = fc.oneof(
  fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor', '', 'a/b', '"quoted"', 'back\\slash', '[]', '{}'),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const ids = fc.array(id, { maxLength: 6 });
const thread = fc.constantFrom('t1', 't2');
const operation = fc.oneof(
  fc.record({ op: fc.constant('add' as const), thread, ids }),
  fc.record({ op: fc.constant('remove' as const), thread, ids }),
  fc.record({ op: fc.constant('get' as const), thread }),
  fc.record({ op: fc.constant('clear' as const), thread }),
);

type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

/** What an operation answered: its result, or the fields of the ToolLimitError it threw. */
async function outcome(store: LoadedToolStore, step: Operation): Promise<unknown> {
  try {
    if (step.op === 'add') return await store.add(step.thread, step.ids);
    if (step.op === 'remove') return await store.remove(step.thread, step.ids);
    if (step.op === 'get') return await store.get(step.thread);
    return await store.clear(step.thread);
  } catch (error) {
    if (!ToolLimitError.isInstance(error)) throw error;
    const { threadKey, limit, loadedCount, requestedIds } = error;
    return { refused: { threadKey, limit, loadedCount, requestedIds } };
  }
}

describe('createRedisLoadedToolStore (model: InMemoryLoadedToolStore)', () => {
  it('answers every sequence of operations like the in-memory store, with the same per-thread cap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 25 }), fc.integer({ min: 1, max: 6 }), async (steps, max) => {
        const redis = createRedisLoadedToolStore(client, { prefix: `model:${randomUUID()}:`, maxToolsPerThread: max });
        const memory = new InMemoryLoadedToolStore({ maxToolsPerThread: max, cleanupIntervalMs: 0 });
        for (const step of steps) {
          expect(await outcome(redis, step), JSON.stringify(step)).toEqual(await outcome(memory, step));
        }
        await redis.clearAll();
      }),
      { numRuns: 60 },
    );
  });
});
