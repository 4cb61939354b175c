// The toolscout-mcp program, started by bin.ts: stdio, signals and exit code around runGatewayCli.
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

// stdin is the other half of the protocol: if it fails (not a clean end), the session is over and
// the exit code must say so.
let stdinFailure: Error | undefined;
process.stdin.on('error', (error) => {
  stdinFailure ??= error;
  process.stderr.write(`toolscout-mcp: error: stdin failed, the session cannot go on: ${error.message}\n`);
});

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const code = await runGatewayCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  version,
  // SIGHUP too: the servers run in their own process groups, so a closed terminal reaches only us.
  onSignal(handler) {
    let received = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      handler(signal);
      // A second signal means now, even while servers are still starting: exiting kills every
      // server's process group (see StdioUpstreamTransport).
      if (++received > 1) process.exit(130);
    };
    for (const signal of SIGNALS) process.on(signal, onSignal);
    return () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
    };
  },
});
process.exit(code === 0 && stdinFailure ? 1 : code);
