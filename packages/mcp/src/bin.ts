#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { runGatewayCli } from './cli.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// stdout is the MCP protocol: a client that goes away must not crash the gateway on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') process.stderr.write(`toolscout-mcp: stdout: ${error.message}\n`);
});

// A stray rejection is logged, never a crash: the other servers and the client session go on.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `toolscout-mcp: error: unhandled: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
  );
});

const code = await runGatewayCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  version,
  onSignal(handler) {
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  },
});
process.exit(code);
