// The toolscout command, started by bin.ts: the CLI on the process's stdio and files.
import { runCli } from './cli.js';
import { nodeFileIO } from './node-io.js';

// `toolscout ... | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  ...nodeFileIO,
});
