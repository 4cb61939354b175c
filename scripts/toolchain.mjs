#!/usr/bin/env node
// Runs a command with the project's toolchain: Node >= 22 and pnpm 12, installed on first use
// from the npm registry into .toolchain/ (no global installs, no manual step), then `pnpm install`
// when the lockfile changed. Works on the Node 20 + npm that a fresh machine has.
//
//   node scripts/toolchain.mjs <command> [args...]     e.g. `node scripts/toolchain.mjs turbo run test`
//
// All set-up output goes to stderr, so `pnpm --silent toolscout ... --json` keeps stdout clean.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolchainDir = join(root, '.toolchain');
const PNPM_VERSION = '12.21.0';
const NODE_MAJOR = 24;
const MIN_NODE_MAJOR = 22;

function log(message) {
  process.stderr.write(`[toolchain] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['inherit', 2, 2], ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function ensureToolchain() {
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const localNode = join(toolchainDir, 'node_modules', nodePackage, 'bin', 'node');
  const localPnpm = join(toolchainDir, 'node_modules', '.bin', 'pnpm');
  const systemNodeOk = Number(process.versions.node.split('.')[0]) >= MIN_NODE_MAJOR;
  const missing = !existsSync(localPnpm) || (!systemNodeOk && !existsSync(localNode));
  // `npm install --no-save` removes what it was not asked for: ask for every tool .toolchain/ keeps
  // (a Node installed by an earlier run under an older Node stays, and pnpm always), or installing
  // one would remove the other (a clone set up under Node 24, then run under Node 20, lost pnpm).
  const wanted = [`pnpm@${PNPM_VERSION}`];
  if (!systemNodeOk || existsSync(localNode)) wanted.push(`${nodePackage}@${NODE_MAJOR}`);
  if (missing) {
    log(`installing ${wanted.join(', ')} into .toolchain/ (Node ${process.versions.node} found)`);
    mkdirSync(toolchainDir, { recursive: true });
    if (!existsSync(join(toolchainDir, 'package.json'))) {
      writeFileSync(join(toolchainDir, 'package.json'), '{ "private": true }\n');
    }
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const status = run(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', toolchainDir, ...wanted], {
      cwd: toolchainDir,
    });
    if (status !== 0) throw new Error(`npm install ${wanted.join(' ')} failed with exit code ${status}`);
  }
  const binDirs = [join(toolchainDir, 'node_modules', '.bin'), join(root, 'node_modules', '.bin')];
  if (!systemNodeOk) binDirs.unshift(dirname(localNode));
  return { pnpm: localPnpm, path: [...binDirs, process.env.PATH ?? ''].join(process.platform === 'win32' ? ';' : ':') };
}

function ensureDependencies(toolchain, env) {
  const lockfile = join(root, 'pnpm-lock.yaml');
  const installed = join(root, 'node_modules', '.pnpm', 'lock.yaml');
  const upToDate =
    existsSync(installed) && existsSync(lockfile) && readFileSync(installed, 'utf8') === readFileSync(lockfile, 'utf8');
  if (upToDate) return;
  log('installing dependencies (pnpm install)');
  const status = run(toolchain.pnpm, ['install', '--frozen-lockfile'], { cwd: root, env });
  if (status !== 0) throw new Error(`pnpm install failed with exit code ${status}`);
}

/**
 * Runs the command as a child that stops when this wrapper is told to stop: SIGTERM is passed on,
 * and so are SIGINT and SIGHUP unless a terminal sends those itself (to the whole foreground
 * group, the child included: passing them on would deliver them twice). A wrapper whose parent
 * is gone passes on SIGTERM too: `npm run x` stopped with SIGTERM stops its `sh -c "a && b"`,
 * and a shell does not pass signals on to its children. Resolves with the child's exit code, or
 * its signal's name.
 */
function runForwardingSignals(executable, args, options) {
  const forwarded = process.stdin.isTTY ? ['SIGTERM'] : ['SIGTERM', 'SIGINT', 'SIGHUP'];
  const ignored = process.stdin.isTTY ? ['SIGINT', 'SIGHUP'] : [];
  return new Promise((resolve) => {
    const child = spawn(executable, args, options);
    const forward = (signal) => child.kill(signal);
    const ignore = () => {};
    for (const signal of forwarded) process.on(signal, forward);
    for (const signal of ignored) process.on(signal, ignore);
    const parent = process.ppid;
    const orphaned = setInterval(() => {
      if (process.ppid !== parent) forward('SIGTERM');
    }, 250);
    const done = (outcome) => {
      clearInterval(orphaned);
      for (const signal of forwarded) process.off(signal, forward);
      for (const signal of ignored) process.off(signal, ignore);
      resolve(outcome);
    };
    child.once('error', (error) => {
      process.stderr.write(`[toolchain] could not run ${executable}: ${error.message}\n`);
      done(1);
    });
    child.once('exit', (code, signal) => done(code ?? signal ?? 1));
  });
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    process.stderr.write('usage: node scripts/toolchain.mjs <command> [args...]\n');
    return 2;
  }
  const toolchain = ensureToolchain();
  const env = {
    ...process.env,
    PATH: toolchain.path,
    TURBO_TELEMETRY_DISABLED: '1',
    npm_config_update_notifier: 'false',
  };
  if (command !== 'pnpm' || args[0] !== 'install') ensureDependencies(toolchain, env);
  const executable = command === 'pnpm' ? toolchain.pnpm : command;
  return runForwardingSignals(executable, args, {
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdio: 'inherit',
    env,
    shell: process.platform === 'win32',
  });
}

try {
  const outcome = await main();
  // A child ended by a signal: end the same way, so whoever runs us sees what happened.
  if (typeof outcome === 'string') process.kill(process.pid, outcome);
  else process.exitCode = outcome;
} catch (error) {
  process.stderr.write(`[toolchain] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
