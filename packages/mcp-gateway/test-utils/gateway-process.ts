import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../src/mcp-servers-config.js';

/** The built gateway bin (`pnpm --filter @toolscout/mcp build`). */
export const GATEWAY_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The tests' own MCP server, run straight from its TypeScript source. */
export const FIXTURE_SERVER = fileURLToPath(new URL('./fixture-server.ts', import.meta.url));

const modules = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/', import.meta.url));

/** The entry points of the reference servers installed from the npm registry. */
export const REFERENCE_SERVERS = {
  everything: join(modules, 'server-everything/dist/index.js'),
  memory: join(modules, 'server-memory/dist/index.js'),
  filesystem: join(modules, 'server-filesystem/dist/index.js'),
};

/** Fails with the command to run when the gateway is not built. */
export function assertGatewayBuilt(): void {
  if (!existsSync(GATEWAY_BIN)) {
    throw new Error(`${GATEWAY_BIN} is missing: build first (pnpm --filter @toolscout/mcp build).`);
  }
}

/** A stdio server entry that runs a script with this Node. */
export function nodeServer(script: string, args: string[] = [], env?: Record<string, string>): McpServerConfig {
  return env
    ? { command: process.execPath, args: [script, ...args], env }
    : { command: process.execPath, args: [script, ...args] };
}

/** Writes an `mcpServers` config file and returns its path. */
export function writeConfig(dir: string, servers: Record<string, McpServerConfig>, file = 'mcp.json'): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  return path;
}
