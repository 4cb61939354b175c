#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { runCli } from './cli.js';

// `toolscout ... | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  readFile: (path) => readFile(path, 'utf8'),
});
