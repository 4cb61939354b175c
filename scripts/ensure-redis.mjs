#!/usr/bin/env node
// The Redis store's tests start a real redis-server on loopback. On a fresh Debian machine where we
// are root, install it with apt (Debian's package); elsewhere, say what to install. Never fails the
// run by itself: the Redis tests report a missing binary with a clear message.
import { spawnSync } from 'node:child_process';

const log = (message) => process.stderr.write(`[ensure-redis] ${message}\n`);
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

if (!has('redis-server')) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && has('apt-get')) {
    log('redis-server not found: installing Debian package redis-server (for the Redis store tests)');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 2, 2], env });
    const install =
      update.status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: ['ignore', 2, 2], env });
    if (!install || install.status !== 0) log('could not install redis-server; the Redis store tests will fail');
  } else {
    log(
      'redis-server not found: install it (e.g. `sudo apt-get install redis-server` or `brew install redis`) for the Redis store tests',
    );
  }
}
