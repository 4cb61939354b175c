#!/usr/bin/env node
import { DEMO_USAGE, DemoUsageError, parseDemoArgs } from './cli-args.js';
import { runDemo } from './run-demo.js';

const write = (line: string) => process.stdout.write(`${line}\n`);
const color = process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';

async function main(): Promise<number> {
  let args: ReturnType<typeof parseDemoArgs>;
  try {
    args = parseDemoArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof DemoUsageError)) throw error;
    process.stderr.write(`toolscout demo: ${error.message}\n\n${DEMO_USAGE}\n`);
    return 2;
  }
  if ('help' in args) {
    write(DEMO_USAGE);
    return 0;
  }

  // Ctrl-C (or SIGTERM) stops the demo: running requests fail, and every server process is stopped.
  // A second signal exits at once; the servers still see their stdin close and exit.
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\ntoolscout demo: ${signal}: stopping the servers...\n`);
    controller.abort(new Error(`stopped by ${signal}`));
    setTimeout(() => process.exit(130), 10_000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    await runDemo({
      catalog: args.catalog,
      requests: args.requests,
      frameworks: args.frameworks,
      ...(args.trace === undefined ? {} : { trace: args.trace }),
      offline: args.offline,
      cwd: process.env.INIT_CWD ?? process.cwd(),
      write,
      color,
      signal: controller.signal,
    });
    return 0;
  } catch (error) {
    if (controller.signal.aborted) return 130;
    process.stderr.write(`toolscout demo: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main();
