import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { McpStdioServerConfig } from '@toolscout/mcp-gateway';

/** One MCP server the demo starts: an npm package (a dev dependency of the demo) and how to run it. */
export interface DemoServer {
  /** The server's name in the gateway: the namespace of its tools (`<name>__<tool>`). */
  name: string;
  /** The npm package it comes from. */
  packageName: string;
  /** The package's bin to run; default its only one. */
  bin?: string;
  /** What it offers, for the demo's introduction. */
  summary: string;
  /** Arguments after the script. */
  args?: (dirs: DemoServerDirs) => string[];
  /** Environment variables. */
  env?: (dirs: DemoServerDirs) => Record<string, string>;
  /**
   * It keeps state a call changes (the memory server's knowledge graph): each in-process agent gets
   * its own instance, so what one agent saves is not already there for the next.
   */
  statePerAgent?: boolean;
}

/** Where the servers keep files. */
export interface DemoServerDirs {
  /** The folder the filesystem server serves (shared by every instance of the servers). */
  filesDir: string;
  /** A folder of this instance of the servers (the memory server's graph, Playwright's output). */
  stateDir: string;
}

/**
 * The servers the demo runs. Each lists its tools without credentials and without a browser or any
 * download at install or start; tools that need a token (GitHub, Notion) or a browser (Playwright,
 * Chrome DevTools) are in the catalog, searchable and loadable, and fail clearly when called.
 */
export const DEMO_SERVERS: readonly DemoServer[] = [
  {
    name: 'everything',
    packageName: '@modelcontextprotocol/server-everything',
    summary: 'the MCP reference test server: echo, sums, env, images, long-running operations',
    args: () => ['stdio'],
  },
  {
    name: 'memory',
    packageName: '@modelcontextprotocol/server-memory',
    summary: 'a knowledge graph of entities, relations and observations',
    env: ({ stateDir }) => ({ MEMORY_FILE_PATH: join(stateDir, 'memory.jsonl') }),
    statePerAgent: true,
  },
  {
    name: 'filesystem',
    packageName: '@modelcontextprotocol/server-filesystem',
    summary: 'files in the demo folder: read, write, edit, list, search',
    args: ({ filesDir }) => [filesDir],
  },
  {
    name: 'sequential-thinking',
    packageName: '@modelcontextprotocol/server-sequential-thinking',
    summary: 'step-by-step problem solving',
    env: () => ({ DISABLE_THOUGHT_LOGGING: 'true' }),
  },
  {
    name: 'github',
    packageName: '@modelcontextprotocol/server-github',
    summary: 'GitHub repositories, issues and pull requests (calls need GITHUB_PERSONAL_ACCESS_TOKEN)',
  },
  {
    name: 'notion',
    packageName: '@notionhq/notion-mcp-server',
    summary: 'Notion pages, blocks, databases and comments (calls need NOTION_TOKEN)',
  },
  {
    name: 'playwright',
    packageName: '@playwright/mcp',
    summary: 'browser automation with Playwright (calls need an installed browser)',
    args: ({ stateDir }) => ['--headless', '--isolated', '--output-dir', join(stateDir, 'playwright')],
  },
  {
    name: 'chrome-devtools',
    packageName: 'chrome-devtools-mcp',
    bin: 'chrome-devtools-mcp',
    summary: 'Chrome DevTools: pages, network, performance traces (calls need Chrome)',
    args: () => ['--headless', '--isolated', '--no-usage-statistics'],
    env: () => ({ CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1', CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' }),
  },
];

const require = createRequire(import.meta.url);

/** The script a server package's bin runs, resolved from the demo's dependencies. */
export function serverScript(server: DemoServer): string {
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${server.packageName}/package.json`);
  } catch (error) {
    throw new Error(
      `The MCP server package ${server.packageName} is not installed; run \`pnpm install\` at the repository root.`,
      { cause: error },
    );
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin =
    typeof manifest.bin === 'string'
      ? manifest.bin
      : manifest.bin === undefined
        ? undefined
        : (manifest.bin[server.bin ?? ''] ??
          (Object.keys(manifest.bin).length === 1 ? Object.values(manifest.bin)[0] : undefined));
  if (bin === undefined) throw new Error(`${server.packageName} has no bin named ${server.bin ?? '(its only one)'}.`);
  return join(dirname(manifestPath), bin);
}

/**
 * The `mcpServers` entries of the demo's servers, each run with this Node (`process.execPath`) so
 * that no `npx` or network is needed.
 */
export function demoServersConfig(
  dirs: DemoServerDirs,
  servers: readonly DemoServer[] = DEMO_SERVERS,
): Record<string, McpStdioServerConfig> {
  const config: Record<string, McpStdioServerConfig> = {};
  for (const server of servers) {
    const entry: McpStdioServerConfig = {
      command: process.execPath,
      args: [serverScript(server), ...(server.args?.(dirs) ?? [])],
    };
    const env = server.env?.(dirs);
    if (env) entry.env = env;
    config[server.name] = entry;
  }
  return config;
}
