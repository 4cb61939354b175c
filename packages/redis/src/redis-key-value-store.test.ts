import { randomUUID } from 'node:crypto';
import { InvalidOptionError, StoreDataError, UnsupportedOperationError } from '@toolscout/core/errors';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { createRedisKeyValueStore, type RedisCommandClient } from './redis-key-value-store.js';

let client: RedisClientType;
let otherClient: RedisClientType;
/** A fresh key namespace per test, so tests (and test files running in parallel) never share keys. */
let ns: string;

beforeAll(async () => {
  client = createClient({ url: inject('redisUrl') });
  otherClient = createClient({ url: inject('redisUrl') });
  await Promise.all([client.connect(), otherClient.connect()]);
});

afterAll(async () => {
  await Promise.all([client?.close(), otherClient?.close()]);
});

beforeEach(() => {
  ns = `kv-test:${randomUUID()}:`;
});

/** A client that records the name of every command it sends. */
function recording(target: RedisCommandClient) {
  const commands: string[] = [];
  return {
    commands,
    client: {
      sendCommand(args: string[]) {
        commands.push(String(args[0]).toUpperCase());
        return target.sendCommand(args);
      },
    } satisfies RedisCommandClient,
  };
}

describe('createRedisKeyValueStore', () => {
  it('gets, sets and deletes strings under its prefix', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    expect(await store.get('a')).toBeUndefined();
    await store.set('a', 'ünïcode ✓');
    expect(await store.get('a')).toBe('ünïcode ✓');
    expect(await client.get(`${ns}a`)).toBe('ünïcode ✓');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    await store.delete('never-there');
  });

  it('sets the TTL with PX, refreshes it on get with ttlMs (GETEX), and leaves it on plain get', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await store.set('k', 'v', { ttlMs: 60_000 });
    const pttl = await client.pTTL(`${ns}k`);
    expect(pttl).toBeGreaterThan(50_000);
    expect(pttl).toBeLessThanOrEqual(60_000);

    await client.pExpire(`${ns}k`, 5_000);
    expect(await store.get('k')).toBe('v');
    expect(await client.pTTL(`${ns}k`)).toBeLessThanOrEqual(5_000);
    expect(await store.get('k', { ttlMs: 60_000 })).toBe('v');
    expect(await client.pTTL(`${ns}k`)).toBeGreaterThan(50_000);

    await store.set('k', 'v2');
    expect(await client.pTTL(`${ns}k`)).toBe(-1); // no expiry
  });

  it('really expires a key after its TTL', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await store.set('short', 'v', { ttlMs: 150 });
    expect(await store.get('short')).toBe('v');
    await vi.waitFor(async () => expect(await store.get('short')).toBeUndefined(), { timeout: 5000, interval: 50 });
  });

  it('appendUnique appends new values in order, once each, and reports them', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    expect(await store.appendUnique('list', ['b', 'a', 'b'])).toEqual({ all: ['b', 'a'], added: ['b', 'a'] });
    expect(await store.appendUnique('list', ['c', 'a', 'd/e', 'ü'])).toEqual({
      all: ['b', 'a', 'c', 'd/e', 'ü'],
      added: ['c', 'd/e', 'ü'],
    });
    expect(JSON.parse((await store.get('list')) ?? '')).toEqual(['b', 'a', 'c', 'd/e', 'ü']);
    expect(await store.appendUnique('list', ['a'])).toEqual({ all: ['b', 'a', 'c', 'd/e', 'ü'], added: [] });
    // Nothing to append to and nothing to add: no key is created.
    expect(await store.appendUnique('empty', [])).toEqual({ all: [], added: [] });
    expect(await client.exists(`${ns}empty`)).toBe(0);
  });

  it('appendUnique with maxValues appends nothing when the list would grow beyond it', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    expect(await store.appendUnique('list', ['a', 'b'], { maxValues: 3 })).toEqual({
      all: ['a', 'b'],
      added: ['a', 'b'],
    });
    expect(await store.appendUnique('list', ['b', 'c', 'd'], { maxValues: 3 })).toEqual({ all: ['a', 'b'], added: [] });
    expect(await store.appendUnique('list', ['a', 'c', 'c'], { maxValues: 3 })).toEqual({
      all: ['a', 'b', 'c'],
      added: ['c'],
    });
    expect(await store.appendUnique('list', ['a'], { maxValues: 3 })).toEqual({ all: ['a', 'b', 'c'], added: [] });
    expect(await store.appendUnique('empty', ['x', 'y'], { maxValues: 1 })).toEqual({ all: [], added: [] });
    expect(await client.exists(`${ns}empty`)).toBe(0);
    await expect(store.appendUnique('list', ['z'], { maxValues: -1 })).rejects.toThrow(/"maxValues"/);
  });

  it('appendUnique sets and refreshes the TTL, also when nothing new is added', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await store.appendUnique('list', ['a'], { ttlMs: 60_000 });
    expect(await client.pTTL(`${ns}list`)).toBeGreaterThan(50_000);
    await client.pExpire(`${ns}list`, 1_000);
    await store.appendUnique('list', ['a'], { ttlMs: 60_000 });
    expect(await client.pTTL(`${ns}list`)).toBeGreaterThan(50_000);
    await store.appendUnique('list', ['a']);
    expect(await client.pTTL(`${ns}list`)).toBe(-1);
  });

  it('keeps one list without duplicates when two clients append concurrently', async () => {
    const storeA = createRedisKeyValueStore(client, { prefix: ns });
    const storeB = createRedisKeyValueStore(otherClient, { prefix: ns });
    const ids = Array.from({ length: 40 }, (_, i) => `tool-${i}`);
    // Each call appends an overlapping window of ids; A and B interleave on the server.
    const calls = ids.flatMap((_, i) => [
      storeA.appendUnique('shared', ids.slice(i, i + 5), { ttlMs: 60_000 }),
      storeB.appendUnique('shared', ids.slice(Math.max(0, i - 3), i + 2).reverse(), { ttlMs: 60_000 }),
    ]);
    const results = await Promise.all(calls);

    const final = JSON.parse((await client.get(`${ns}shared`)) ?? '[]') as string[];
    expect(new Set(final).size).toBe(final.length);
    expect([...final].sort()).toEqual([...ids].sort());
    // Atomic appends: every id was added by exactly one call, and each call saw a prefix of the final list.
    const addedBy = results.flatMap((result) => result.added);
    expect([...addedBy].sort()).toEqual([...ids].sort());
    for (const { all } of results) expect(final.slice(0, all.length)).toEqual(all);
  });

  it('removeValues removes, keeps the TTL, and deletes the key when empty', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await store.appendUnique('list', ['a', 'b', 'c'], { ttlMs: 60_000 });
    expect(await store.removeValues('list', ['b', 'zzz'])).toEqual({ all: ['a', 'c'] });
    expect(await client.pTTL(`${ns}list`)).toBeGreaterThan(50_000);
    expect(await store.removeValues('list', ['a', 'c'])).toEqual({ all: [] });
    expect(await client.exists(`${ns}list`)).toBe(0);
    expect(await store.removeValues('missing', ['a'])).toEqual({ all: [] });
  });

  it.each([
    ['not JSON', 'oops{', /not valid JSON/],
    ['a JSON object', '{"a":"b"}', /expected a JSON array of tool ids/],
    ['an empty JSON object', '{}', /expected a JSON array of tool ids/],
    ['a JSON string', '"a"', /expected a JSON array of tool ids/],
    ['a number in the array', '["a",1]', /item 1 is not a string/],
  ])('refuses to append to or remove from %s, naming the key, and leaves it untouched', async (_, raw, problem) => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await client.set(`${ns}bad`, raw);
    for (const attempt of [() => store.appendUnique('bad', ['x']), () => store.removeValues('bad', ['a'])]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(StoreDataError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'store-data', key: `${ns}bad` });
      expect((error as Error).message).toMatch(problem);
    }
    expect(await client.get(`${ns}bad`)).toBe(raw);
  });

  it('reports a key of another Redis type as StoreDataError', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await client.rPush(`${ns}list`, ['a']);
    for (const attempt of [
      () => store.get('list'),
      () => store.get('list', { ttlMs: 1000 }),
      () => store.appendUnique('list', ['x']),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(StoreDataError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`"${ns}list"`);
      expect((error as Error).message).toContain('not a string');
    }
  });

  it('loads the Lua script again after SCRIPT FLUSH (EVALSHA falls back to EVAL)', async () => {
    const { client: recorder, commands } = recording(client);
    const store = createRedisKeyValueStore(recorder, { prefix: ns });
    await store.appendUnique('list', ['a']);
    await client.scriptFlush();
    commands.length = 0;
    expect(await store.appendUnique('list', ['b'])).toEqual({ all: ['a', 'b'], added: ['b'] });
    expect(commands).toEqual(['EVALSHA', 'EVAL']);
    commands.length = 0;
    await store.appendUnique('list', ['c']);
    expect(commands).toEqual(['EVALSHA']);
  });

  it('deletePrefix deletes exactly the keys with the prefix, over many SCAN steps, never with KEYS', async () => {
    const { client: recorder, commands } = recording(client);
    const store = createRedisKeyValueStore(recorder, { prefix: ns, scanCount: 10 });
    await Promise.all(Array.from({ length: 120 }, (_, i) => store.set(`threads:${i}`, 'x')));
    await store.set('threads-other', 'keep');
    await store.set('thread:1', 'keep');
    await client.set(`other-${ns}threads:1`, 'keep');

    commands.length = 0;
    await store.deletePrefix('threads:');
    expect(commands).not.toContain('KEYS');
    expect(commands.filter((c) => c === 'SCAN').length).toBeGreaterThan(1);

    const left = [];
    for await (const keys of client.scanIterator({ MATCH: `${ns}*` })) left.push(...keys);
    expect(left.sort()).toEqual([`${ns}thread:1`, `${ns}threads-other`]);
    expect(await client.get(`other-${ns}threads:1`)).toBe('keep');
    await client.del(`other-${ns}threads:1`);
  });

  it('deletePrefix treats glob characters in the prefix literally', async () => {
    const store = createRedisKeyValueStore(client, { prefix: ns });
    await store.set('a*[b]?\\:1', 'x');
    await store.set('aZZ[b]?\\:1', 'keep');
    await store.set('a*b?\\:1', 'keep');
    await store.deletePrefix('a*[b]?\\:');
    expect(await store.get('a*[b]?\\:1')).toBeUndefined();
    expect(await store.get('aZZ[b]?\\:1')).toBe('keep');
    expect(await store.get('a*b?\\:1')).toBe('keep');
  });

  it('refuses to delete every key of the database', async () => {
    const store = createRedisKeyValueStore(client);
    const error = await store.deletePrefix('').catch((thrown: unknown) => thrown);
    expect(UnsupportedOperationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'deletePrefix', message: expect.stringMatching(/empty prefix/) });
  });

  it('validates its arguments', () => {
    expect(() => createRedisKeyValueStore({} as RedisCommandClient)).toThrow(/node-redis client/);
    expect(() => createRedisKeyValueStore(client, { scanCount: 0 })).toThrow(InvalidOptionError);
    expect(() => createRedisKeyValueStore(client, { prefix: 1 as unknown as string })).toThrow(InvalidOptionError);
    for (const commandTimeoutMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5' as unknown as number]) {
      expect(() => createRedisKeyValueStore(client, { commandTimeoutMs })).toThrow(/"commandTimeoutMs"/);
    }
  });
});
