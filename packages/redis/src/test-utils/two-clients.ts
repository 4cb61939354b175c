import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, inject } from 'vitest';

/**
 * Two connected clients of this run's redis-server (started by the global setup), standing for two
 * server instances that share one Redis: connected before the file's tests, closed after them.
 */
export function useTwoClients(): { readonly a: RedisClientType; readonly b: RedisClientType } {
  const clients = {} as { a: RedisClientType; b: RedisClientType };
  beforeAll(async () => {
    clients.a = createClient({ url: inject('redisUrl') });
    clients.b = createClient({ url: inject('redisUrl') });
    await Promise.all([clients.a.connect(), clients.b.connect()]);
  });
  afterAll(async () => {
    await Promise.all([clients.a?.close(), clients.b?.close()]);
  });
  return clients;
}
