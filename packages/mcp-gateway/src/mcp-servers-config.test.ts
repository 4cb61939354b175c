import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportError } from '@toolscout/core/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMcpServersConfig, readMcpServersConfig, serverNameProblem } from './mcp-servers-config.js';

function failure(value: unknown): ImportError {
  try {
    parseMcpServersConfig(value, { file: 'claude_desktop_config.json' });
  } catch (error) {
    if (ImportError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an ImportError');
}

describe('parseMcpServersConfig', () => {
  it('reads stdio and Streamable HTTP entries as Claude Desktop and Cursor write them', () => {
    const config = parseMcpServersConfig(
      {
        globalShortcut: 'Ctrl+Space',
        mcpServers: {
          filesystem: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
          },
          github: {
            command: 'docker',
            args: ['run', '-i', 'ghcr.io/github/github-mcp-server'],
            env: { GITHUB_TOKEN: 'x' },
          },
          linear: { url: 'https://mcp.linear.app/mcp', headers: { Authorization: 'Bearer t' } },
          remote: { type: 'http', url: 'http://127.0.0.1:9000/mcp' },
          local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: 'servers' },
          old: { command: 'x', disabled: true },
        },
      },
      { file: '/home/me/.cursor/mcp.json' },
    );
    expect(config.servers).toEqual({
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
      github: {
        command: 'docker',
        args: ['run', '-i', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_TOKEN: 'x' },
      },
      linear: { url: 'https://mcp.linear.app/mcp', headers: { Authorization: 'Bearer t' } },
      remote: { type: 'http', url: 'http://127.0.0.1:9000/mcp' },
      local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: '/home/me/.cursor/servers' },
    });
    expect(config.disabled).toEqual(['old']);
  });

  it('names the file and field of what it cannot use', () => {
    expect(failure([]).message).toBe(
      'claude_desktop_config.json: expected a JSON object with "mcpServers", got an array',
    );
    expect(failure({ servers: {} }).message).toContain('field "mcpServers": is missing');
    expect(failure({ mcpServers: { a: { command: 'x', args: ['ok', 3] } } }).message).toBe(
      'claude_desktop_config.json, field "mcpServers.a.args[1]": must be a string, got a number',
    );
    expect(failure({ mcpServers: { a: { command: 'x', env: { PORT: 3000 } } } }).location.field).toBe(
      'mcpServers.a.env.PORT',
    );
    expect(failure({ mcpServers: { a: {} } }).message).toContain('needs "command"');
    expect(failure({ mcpServers: { a: { command: 'x', url: 'http://h/mcp' } } }).message).toContain(
      'has both "command" and "url"',
    );
    expect(failure({ mcpServers: { a: { url: 'not a url' } } }).message).toContain('is not a valid URL');
    expect(failure({ mcpServers: { a: { url: 'ftp://h/mcp' } } }).message).toContain('must be an http(s) URL');
    expect(failure({ mcpServers: { a: { type: 'sse', url: 'http://h/sse' } } }).message).toContain(
      'SSE transport is not supported',
    );
  });

  it('reads envPassthrough, a list of environment variable names', () => {
    const config = parseMcpServersConfig({
      mcpServers: { github: { command: 'gh-mcp', envPassthrough: ['GITHUB_TOKEN', 'GH_HOST'] } },
    });
    expect(config.servers.github).toEqual({ command: 'gh-mcp', envPassthrough: ['GITHUB_TOKEN', 'GH_HOST'] });
    expect(failure({ mcpServers: { a: { command: 'x', envPassthrough: 'GITHUB_TOKEN' } } }).message).toBe(
      'claude_desktop_config.json, field "mcpServers.a.envPassthrough": must be an array of variable names, got a string',
    );
    expect(failure({ mcpServers: { a: { command: 'x', envPassthrough: ['OK', 'NOT OK'] } } }).message).toBe(
      'claude_desktop_config.json, field "mcpServers.a.envPassthrough[1]": must be an environment variable name (letters, digits and "_", not starting with a digit), got "NOT OK"',
    );
    expect(failure({ mcpServers: { a: { command: 'x', envPassthrough: [1] } } }).location.field).toBe(
      'mcpServers.a.envPassthrough[0]',
    );
  });

  it('refuses server names that could make two tool ids collide', () => {
    expect(failure({ mcpServers: { my__server: { command: 'x' } } }).message).toContain('must not contain "__"');
    expect(failure({ mcpServers: { github_: { command: 'x' } } }).message).toContain('must not end with "_"');
    expect(failure({ mcpServers: { 'Brave Search': { command: 'x' } } }).message).toContain(
      'may only use letters, digits',
    );
    expect(serverNameProblem('brave-search')).toBeUndefined();
    expect(serverNameProblem('my_server')).toBeUndefined();
  });
});

describe('readMcpServersConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscout-mcp-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file, and says which file is missing or not JSON', async () => {
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
      }),
    );
    expect((await readMcpServersConfig(file)).servers).toEqual({
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
    });
    await expect(readMcpServersConfig(join(dir, 'nope.json'))).rejects.toThrow(
      `${join(dir, 'nope.json')}: the file does not exist`,
    );
    writeFileSync(join(dir, 'bad.json'), '{ "mcpServers": ');
    await expect(readMcpServersConfig(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json: is not valid JSON/);
  });
});
