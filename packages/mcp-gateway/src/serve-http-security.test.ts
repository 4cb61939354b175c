import { networkInterfaces } from 'node:os';
import { InvalidOptionError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../../mcp/test-utils/closed-after-each.js';
import { createFixtureServer } from '../test-utils/fixture-server.js';
import { CLIENT_HEADERS, httpRequest, initializeBody, openRawSession } from '../test-utils/http-request.js';
import { type McpGateway, wrapMcpServer } from './mcp-gateway.js';
import { type HttpEndpoint, isLoopback, type ServeHttpOptions, serveHttp } from './serve-http.js';

const TOKEN = 'test-token-0123456789abcdef';

describe('serveHttp: who may talk to the endpoint (Host, Origin, bearer token)', { timeout: 20_000 }, () => {
  const open = closedAfterEach();

  async function start(options: Partial<ServeHttpOptions> = {}): Promise<{ endpoint: HttpEndpoint; url: URL }> {
    const gateway: McpGateway = await wrapMcpServer(createFixtureServer('A'), { name: 'fixture' });
    open.push(gateway);
    const endpoint = await serveHttp(gateway, { port: 0, ...options });
    open.push(endpoint);
    return { endpoint, url: endpoint.url };
  }

  /** An `initialize` with extra headers: 200 opens a session. */
  function initialize(url: URL, headers: Record<string, string>) {
    return httpRequest(url, { headers: { ...CLIENT_HEADERS, ...headers }, body: initializeBody() });
  }

  it('refuses Host headers that only look like loopback (DNS rebinding), with a 403 naming the flag', async () => {
    const { url, endpoint } = await start();
    const { port } = url;
    for (const host of [
      `127.0.0.1.attacker.example:${port}`,
      `127.attacker.example:${port}`,
      `localhost.attacker.example:${port}`,
      `attacker.example:${port}`,
      `127.1:${port}`, // not a dotted-quad address: a name that resolves anywhere
      `127.0.0.256:${port}`,
      `[::1].attacker.example:${port}`,
      `localhost:${port}@attacker.example`,
      `localhost:${port}/x`,
    ]) {
      const answer = await initialize(url, { host });
      expect({ host, status: answer.status }).toEqual({ host, status: 403 });
      const body = JSON.parse(answer.body);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toContain(`Host "${host}"`);
      expect(body.error.message).toContain('--allowed-host');
    }
    expect(endpoint.sessionCount).toBe(0);
  });

  it('accepts the loopback names and addresses, with or without a port', async () => {
    const { url } = await start();
    for (const host of [
      `127.0.0.1:${url.port}`,
      '127.0.0.1',
      `127.12.34.56:${url.port}`,
      `localhost:${url.port}`,
      `LocalHost:${url.port}`,
      `[::1]:${url.port}`,
    ]) {
      expect({ host, status: (await initialize(url, { host })).status }).toEqual({ host, status: 200 });
    }
  });

  it('accepts the hosts of allowedHosts (any case, any port) and no others', async () => {
    const { url } = await start({ allowedHosts: ['mcp.example.test', '10.1.2.3'] });
    expect((await initialize(url, { host: 'mcp.example.test' })).status).toBe(200);
    expect((await initialize(url, { host: `MCP.Example.Test:${url.port}` })).status).toBe(200);
    expect((await initialize(url, { host: '10.1.2.3:8080' })).status).toBe(200);
    expect((await initialize(url, { host: 'mcp.example.test.attacker.example' })).status).toBe(403);
    expect((await initialize(url, { host: 'other.example.test' })).status).toBe(403);
  });

  it('refuses a foreign Origin and "Origin: null" with a 403 naming the flag; loopback origins pass', async () => {
    const { url } = await start({ allowedOrigins: ['https://app.example.test'] });
    for (const origin of [
      'http://evil.example',
      'null',
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example:3000',
      'https://app.example.test.evil.example',
      'http://app.example.test', // another scheme is another origin
      'not a url',
    ]) {
      const answer = await initialize(url, { origin });
      expect({ origin, status: answer.status }).toEqual({ origin, status: 403 });
      const message = JSON.parse(answer.body).error.message;
      expect(message).toContain(`Origin "${origin}"`);
      expect(message).toContain('--allowed-origin');
    }
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1',
      `http://127.0.0.1:${url.port}`,
      'https://[::1]:8443',
      'https://app.example.test',
      'https://APP.example.test:443',
    ]) {
      expect({ origin, status: (await initialize(url, { origin })).status }).toEqual({ origin, status: 200 });
    }
  });

  it('checks Host and Origin on every request of a session too', async () => {
    const { url } = await start();
    const sessionId = await openRawSession(url);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const inSession = { ...CLIENT_HEADERS, 'mcp-session-id': sessionId };
    expect((await httpRequest(url, { headers: inSession, body: list })).status).toBe(200);
    const rebound = { ...inSession, host: `127.0.0.1.attacker.example:${url.port}` };
    expect((await httpRequest(url, { headers: rebound, body: list })).status).toBe(403);
    expect((await httpRequest(url, { method: 'DELETE', headers: rebound })).status).toBe(403);
    const foreign = { ...inSession, origin: 'http://evil.example' };
    expect((await httpRequest(url, { headers: foreign, body: list })).status).toBe(403);
  });

  it('with an auth token, refuses requests without the right bearer token (401, WWW-Authenticate)', async () => {
    const { url } = await start({ authToken: TOKEN });
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const answer = await initialize(url, authorization === undefined ? {} : { authorization });
      expect({ authorization, status: answer.status }).toEqual({ authorization, status: 401 });
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(JSON.parse(answer.body).error.message).toMatch(/bearer token/i);
    }
    const sessionId = await openRawSession(url, { authorization: `bearer ${TOKEN}` });
    // The session id alone is not enough: every request needs the token.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const inSession = { ...CLIENT_HEADERS, 'mcp-session-id': sessionId };
    expect((await httpRequest(url, { headers: inSession, body: list })).status).toBe(401);
    expect((await httpRequest(url, { method: 'DELETE', headers: inSession })).status).toBe(401);
    const authorized = { ...inSession, authorization: `Bearer ${TOKEN}` };
    expect((await httpRequest(url, { headers: authorized, body: list })).status).toBe(200);
  });

  it('refuses to listen beyond loopback without an auth token', async () => {
    const gateway = await wrapMcpServer(createFixtureServer('A'), { name: 'fixture' });
    open.push(gateway);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.test']) {
      const error = await serveHttp(gateway, { port: 0, host }).then(
        (endpoint) => {
          open.push(endpoint);
          return undefined;
        },
        (thrown: unknown) => thrown,
      );
      expect(InvalidOptionError.isInstance(error), `host ${host}`).toBe(true);
      expect((error as Error).message).toContain(`host "${host}" is not a loopback address`);
      expect((error as Error).message).toContain('auth token');
    }
  });

  it('refuses unusable security options at start', async () => {
    const gateway = await wrapMcpServer(createFixtureServer('A'), { name: 'fixture' });
    open.push(gateway);
    const refused = async (options: Partial<ServeHttpOptions>) => {
      try {
        open.push(await serveHttp(gateway, { port: 0, ...options }));
      } catch (error) {
        if (InvalidOptionError.isInstance(error)) return error.message;
        throw error;
      }
      throw new Error(`started with ${JSON.stringify(options)}`);
    };
    expect(await refused({ authToken: '   ' })).toContain('authToken is empty');
    expect(await refused({ authToken: 'short' })).toContain('at least 16 characters');
    expect(await refused({ authToken: `${TOKEN} with spaces` })).toContain('visible ASCII');
    expect(await refused({ allowedHosts: ['http://mcp.example.test'] })).toContain('"http://mcp.example.test"');
    expect(await refused({ allowedHosts: ['mcp.example.test:8080'] })).toContain('without a port');
    expect(await refused({ allowedOrigins: ['app.example.test'] })).toContain('"app.example.test"');
    expect(await refused({ allowedOrigins: ['https://app.example.test/path'] })).toContain('an origin');
    expect(await refused({ allowedHosts: 'mcp.example.test' as never })).toContain('allowedHosts must be an array');
    expect(await refused({ maxSessions: 0 })).toContain('maxSessions');
  });

  it('with a token on a wildcard address: checks only the token, or the Host too when allowedHosts are given', async () => {
    const open0 = await start({ host: '0.0.0.0', authToken: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const local = new URL(`http://127.0.0.1:${open0.url.port}/mcp`);
    expect((await initialize(local, { ...auth, host: 'whatever.example.test' })).status).toBe(200);
    expect((await initialize(local, { host: 'whatever.example.test' })).status).toBe(401);
    const open1 = await start({ host: '0.0.0.0', authToken: TOKEN, allowedHosts: ['mcp.example.test'] });
    const local1 = new URL(`http://127.0.0.1:${open1.url.port}/mcp`);
    expect((await initialize(local1, { ...auth, host: 'mcp.example.test' })).status).toBe(200);
    expect((await initialize(local1, { ...auth, host: `localhost:${open1.url.port}` })).status).toBe(200);
    expect((await initialize(local1, { ...auth, host: 'whatever.example.test' })).status).toBe(403);
  });

  const lanAddress = Object.values(networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;
  if (lanAddress === undefined)
    console.info('the LAN address test skipped: this machine has no non-internal IPv4 address');
  it.skipIf(lanAddress === undefined)(
    'bound to one LAN address with a token: that address is an allowed Host',
    async () => {
      const { url } = await start({ host: lanAddress!, authToken: TOKEN });
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await initialize(url, { ...auth, host: `${lanAddress}:${url.port}` })).status).toBe(200);
      expect((await initialize(url, { ...auth, host: 'attacker.example' })).status).toBe(403);
    },
  );
});

describe('isLoopback', () => {
  it('is true only for loopback names and addresses, never for names that start like one', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '::1', '[::1]', '[0:0:0:0:0:0:0:1]']) {
      expect({ host, loopback: isLoopback(host) }).toEqual({ host, loopback: true });
    }
    for (const host of ['127.0.0.1.attacker.example', '127.attacker', '127.1', 'localhost.', '0.0.0.0', '::', '']) {
      expect({ host, loopback: isLoopback(host) }).toEqual({ host, loopback: false });
    }
  });
});
