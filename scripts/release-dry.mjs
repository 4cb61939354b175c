#!/usr/bin/env node
// A release without the publish: `changeset version` (versions and changelogs from .changeset/), a
// build, and `pnpm pack` of every publishable package into one folder, then the working tree put back
// as it was. The tarballs are what `changeset publish` would upload; install them with npm to try a
// release (README: "Installing before the first release").
//
//   npm run release:dry [-- --out DIR]     default DIR: a new folder under the system's temp folder
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanBuild, publishablePackages } from './publishable.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** What `changeset version` writes: package manifests, changelogs, and the changesets it consumes. */
const VERSIONED = /(^|\/)(package\.json|CHANGELOG\.md)$|^\.changeset\/[^/]+\.md$/;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    ...options,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
  return result.stdout;
}

/** The paths `git status` reports as changed or new (relative to the root). */
function changedPaths() {
  return run('git', ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(3).replace(/^.* -> /, ''));
}

function main() {
  const outFlag = process.argv.indexOf('--out');
  const out = outFlag > 0 ? resolve(process.argv[outFlag + 1] ?? '') : undefined;
  const dirty = changedPaths().filter((path) => VERSIONED.test(path));
  if (dirty.length > 0) {
    throw new Error(`Commit or stash these first (a dry release puts them back as committed): ${dirty.join(', ')}`);
  }
  const destination = out ?? mkdtempSync(join(tmpdir(), 'toolscout-release-'));
  mkdirSync(destination, { recursive: true });
  const before = new Set(changedPaths());
  try {
    process.stderr.write('[release:dry] changeset version\n');
    run('changeset', ['version'], { stdio: ['ignore', 2, 'inherit'] });
    const packages = publishablePackages();
    process.stderr.write(`[release:dry] building and packing ${packages.length} packages\n`);
    cleanBuild(packages);
    for (const item of packages) {
      const { name, version, filename } = JSON.parse(
        run('pnpm', ['pack', '--json', '--pack-destination', destination], { cwd: item.dir }),
      );
      process.stdout.write(`${name}@${version}\t${filename}\n`);
    }
  } finally {
    // Put the tree back: what `changeset version` changed, as committed; what it added, removed.
    const written = changedPaths().filter((path) => !before.has(path) && VERSIONED.test(path));
    const tracked = written.filter((path) => run('git', ['ls-files', '--', path]).trim() !== '');
    const added = written.filter((path) => !tracked.includes(path));
    if (tracked.length > 0) run('git', ['checkout', 'HEAD', '--', ...tracked]);
    if (added.length > 0) run('git', ['clean', '-f', '--', ...added]);
    process.stderr.write(
      `[release:dry] tree restored (${written.length} file(s) put back); tarballs in ${destination}\n`,
    );
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(`[release:dry] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
