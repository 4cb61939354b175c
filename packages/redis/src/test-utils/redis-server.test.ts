import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { startRedisServer } from './redis-server.js';

describe('startRedisServer', () => {
  it('fails fast with an install hint when the binary is missing', async () => {
    await expect(startRedisServer({ bin: '/nonexistent/redis-server' })).rejects.toThrow(
      /not installed.*apt-get install -y redis-server/s,
    );
  });

  it('starts a loopback server that answers commands, and stops it', async () => {
    const server = await startRedisServer();
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    const client = createClient({ url: server.url });
    await client.connect();
    expect(await client.ping()).toBe('PONG');
    expect(await client.configGet('save')).toEqual({ save: '' });
    expect(await client.configGet('bind')).toEqual({ bind: '127.0.0.1' });
    await client.close();
    await server.stop();
    const probe = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    probe.on('error', () => {});
    await expect(probe.connect()).rejects.toThrow();
  });
});
