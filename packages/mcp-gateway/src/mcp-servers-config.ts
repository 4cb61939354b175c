import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ImportError } from '@toolscout/core/errors';
import { describeValue, isRecord } from '@toolscout/core/internal';

/** A server the gateway starts as a child process and talks to over stdio. */
export interface McpStdioServerConfig {
  type?: 'stdio';
  /** The program, e.g. `npx` or `node`. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /**
   * Environment variables, set on top of a safe default set (`PATH`, `HOME`, ...) and of the
   * gateway's own values of `DEFAULT_ENV_PASSTHROUGH` (proxies, CA certificates, locale, ...).
   */
  env?: Record<string, string>;
  /** More variables to pass through from the gateway's environment when set there, e.g. `["GITHUB_TOKEN"]`. */
  envPassthrough?: string[];
  /** The working directory; relative to the config file. Default: the gateway's. */
  cwd?: string;
}

/** A server the gateway reaches over Streamable HTTP. */
export interface McpHttpServerConfig {
  type?: 'http' | 'streamable-http' | 'streamableHttp';
  /** The server's MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string;
  /** Sent with every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
}

/** One entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A parsed `mcpServers` config. */
export interface McpServersConfig {
  /** The servers to connect to, by name. */
  servers: Record<string, McpServerConfig>;
  /** Names of entries marked `"disabled": true`, left out. */
  disabled: string[];
}

export interface ParseMcpServersConfigOptions {
  /** The file errors name. */
  file?: string;
  /** What a relative `cwd` is relative to. Default: the file's folder, else the process's working directory. */
  baseDir?: string;
}

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why a server name cannot namespace its tools, or undefined when it can. Tool ids are
 * `<server>__<tool>`; a name without `__` that does not end in `_` makes the first `__` of every
 * id the separator, so two servers' ids can never collide.
 */
export function serverNameProblem(name: string): string | undefined {
  if (!SERVER_NAME.test(name)) return 'may only use letters, digits, "-" and "_"';
  if (name.includes('__')) return 'must not contain "__" (it separates the server from the tool in tool ids)';
  if (name.endsWith('_')) return 'must not end with "_" (its tool ids would be ambiguous)';
  return undefined;
}

function stringRecord(
  value: unknown,
  field: string,
  fail: (field: string, problem: string) => never,
): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) fail(field, `must be an object of strings, got ${describeValue(value)}`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') fail(`${field}.${key}`, `must be a string, got ${describeValue(item)}`);
  }
  return { ...(value as Record<string, string>) };
}

function envNames(
  value: unknown,
  field: string,
  fail: (field: string, problem: string) => never,
): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) fail(field, `must be an array of variable names, got ${describeValue(value)}`);
  (value as unknown[]).forEach((name, index) => {
    if (typeof name !== 'string' || !ENV_NAME.test(name)) {
      fail(
        `${field}[${index}]`,
        `must be an environment variable name (letters, digits and "_", not starting with a digit), got ${typeof name === 'string' ? JSON.stringify(name) : describeValue(name)}`,
      );
    }
  });
  return [...(value as string[])];
}

/**
 * Reads the `mcpServers` config that Claude Desktop, Cursor, Windsurf, Cline and others use:
 * `{ "mcpServers": { "<name>": { "command", "args", "env", "envPassthrough" } | { "url", "headers" } } }`. Other
 * top-level keys and unknown fields are ignored; entries with `"disabled": true` are left out.
 * Throws ImportError naming the file and field for anything it cannot use.
 */
export function parseMcpServersConfig(value: unknown, options: ParseMcpServersConfigOptions = {}): McpServersConfig {
  const file = options.file;
  const baseDir = options.baseDir ?? (file ? dirname(resolve(file)) : process.cwd());
  const fail = (field: string | undefined, problem: string): never => {
    throw new ImportError(problem, field === undefined ? { file } : { file, field });
  };
  if (!isRecord(value)) fail(undefined, `expected a JSON object with "mcpServers", got ${describeValue(value)}`);
  const entries = (value as Record<string, unknown>).mcpServers;
  if (entries === undefined)
    fail('mcpServers', 'is missing: expected { "mcpServers": { "<name>": { "command": ... } } }');
  if (!isRecord(entries)) fail('mcpServers', `must be an object of servers by name, got ${describeValue(entries)}`);
  const servers: Record<string, McpServerConfig> = {};
  const disabled: string[] = [];
  for (const [name, entry] of Object.entries(entries as Record<string, unknown>)) {
    const at = `mcpServers.${name}`;
    const failField = (field: string, problem: string): never => fail(`${at}.${field}`, problem);
    const nameProblem = serverNameProblem(name);
    if (nameProblem) fail(at, `server name "${name}" ${nameProblem}`);
    if (!isRecord(entry)) fail(at, `must be an object, got ${describeValue(entry)}`);
    const record = entry as Record<string, unknown>;
    if (record.disabled === true) {
      disabled.push(name);
      continue;
    }
    const type = record.type;
    if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp'].includes(type as string)) {
      const hint =
        type === 'sse'
          ? ": the deprecated SSE transport is not supported; use the server's Streamable HTTP endpoint"
          : '';
      failField('type', `must be "stdio" or "http", got ${JSON.stringify(type)}${hint}`);
    }
    if (record.command !== undefined && record.url !== undefined) {
      fail(at, 'has both "command" and "url": give "command" for a stdio server or "url" for an HTTP one');
    }
    if (record.url !== undefined || type === 'http' || type === 'streamable-http' || type === 'streamableHttp') {
      if (typeof record.url !== 'string' || record.url.trim() === '')
        failField('url', `must be a non-empty string, got ${describeValue(record.url)}`);
      let url: URL | undefined;
      try {
        url = new URL(record.url as string);
      } catch {
        failField('url', `is not a valid URL: ${JSON.stringify(record.url)}`);
      }
      if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
        failField('url', `must be an http(s) URL, got ${url.protocol}`);
      const config: McpHttpServerConfig = { url: record.url as string };
      if (type !== undefined) config.type = type as McpHttpServerConfig['type'];
      const headers = stringRecord(record.headers, 'headers', failField);
      if (headers) config.headers = headers;
      servers[name] = config;
      continue;
    }
    if (typeof record.command !== 'string' || record.command.trim() === '') {
      fail(at, 'needs "command" (a program to start, with "args") or "url" (a Streamable HTTP endpoint)');
    }
    const config: McpStdioServerConfig = { command: record.command as string };
    if (type === 'stdio') config.type = 'stdio';
    if (record.args !== undefined && record.args !== null) {
      if (!Array.isArray(record.args))
        failField('args', `must be an array of strings, got ${describeValue(record.args)}`);
      (record.args as unknown[]).forEach((arg, index) => {
        if (typeof arg !== 'string') failField(`args[${index}]`, `must be a string, got ${describeValue(arg)}`);
      });
      config.args = [...(record.args as string[])];
    }
    const env = stringRecord(record.env, 'env', failField);
    if (env) config.env = env;
    const passthrough = envNames(record.envPassthrough, 'envPassthrough', failField);
    if (passthrough) config.envPassthrough = passthrough;
    if (record.cwd !== undefined && record.cwd !== null) {
      if (typeof record.cwd !== 'string') failField('cwd', `must be a string, got ${describeValue(record.cwd)}`);
      config.cwd = resolve(baseDir, record.cwd as string);
    }
    servers[name] = config;
  }
  return { servers, disabled };
}

/** Reads and parses an `mcpServers` config file (see {@link parseMcpServersConfig}). */
export async function readMcpServersConfig(path: string): Promise<McpServersConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportError(
      code === 'ENOENT' ? 'the file does not exist' : `cannot be read (${(error as Error).message})`,
      {
        file: path,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportError(`is not valid JSON: ${(error as Error).message}`, { file: path });
  }
  return parseMcpServersConfig(value, { file: path });
}

/** Whether an entry is an HTTP server (else a stdio one). */
export function isHttpServerConfig(config: McpServerConfig): config is McpHttpServerConfig {
  return 'url' in config && typeof config.url === 'string';
}
