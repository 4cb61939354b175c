import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../mcp/test-utils/wait.js';
import { assertGatewayBuilt, writeConfig } from '../test-utils/gateway-process.js';
import { spawnRawGateway } from '../test-utils/raw-gateway.js';
import { DEFAULT_ENV_PASSTHROUGH } from './upstream-environment.js';

describe('the environment of stdio servers', { timeout: 30_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-env-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes proxies, CA certificates and locale through, and what the config names; never other secrets', async () => {
    assertGatewayBuilt();
    const out = join(dir, 'env.json');
    // A real server process that writes down the environment it was given.
    const printEnv = `require('node:fs').writeFileSync(process.argv[1], JSON.stringify(process.env))`;
    const config = writeConfig(dir, {
      printer: {
        command: process.execPath,
        args: ['-e', printEnv, out],
        envPassthrough: ['MY_TEAM_VAR', 'NOT_SET_ANYWHERE'],
        env: { EXPLICIT: 'from the config', TZ: 'UTC' },
      },
    });
    const gateway = spawnRawGateway(['--config', config, '--connect-timeout', '5000'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HTTPS_PROXY: 'http://proxy.internal:3128',
        no_proxy: 'localhost,.internal',
        NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem',
        LANG: 'de_DE.UTF-8',
        TZ: 'Europe/Berlin',
        MY_TEAM_VAR: 'passed on request',
        OPENAI_API_KEY: 'sk-must-not-leak',
        GITHUB_TOKEN: 'ghp-must-not-leak',
      },
    });
    try {
      const env = await waitFor(
        () => existsSync(out) && (JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>),
        15_000,
        'the server to write its environment',
      );
      expect(env).toMatchObject({
        PATH: process.env.PATH,
        HTTPS_PROXY: 'http://proxy.internal:3128',
        no_proxy: 'localhost,.internal',
        NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem',
        LANG: 'de_DE.UTF-8',
        MY_TEAM_VAR: 'passed on request',
        EXPLICIT: 'from the config',
        TZ: 'UTC', // the config's env wins
      });
      expect(Object.keys(env)).not.toContain('OPENAI_API_KEY');
      expect(Object.keys(env)).not.toContain('GITHUB_TOKEN');
      expect(Object.keys(env)).not.toContain('NOT_SET_ANYWHERE');
    } finally {
      gateway.process.stdin.end();
      await gateway.exited();
    }
  });

  it('passes no name that usually holds a credential by default', () => {
    expect(DEFAULT_ENV_PASSTHROUGH.filter((name) => /KEY|TOKEN|SECRET|PASSWORD|AUTH/i.test(name))).toEqual([]);
  });
});
