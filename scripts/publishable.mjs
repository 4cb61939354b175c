// The packages that are published, and a clean build of them for packing (shared by test-packed.mjs
// and release-dry.mjs).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The packages to publish: every folder of packages/ whose package.json is not private. */
export function publishablePackages() {
  return readdirSync(join(root, 'packages'), { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const dir = join(root, 'packages', entry.name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return manifest.private ? [] : [{ name: manifest.name, dir }];
  });
}

/**
 * Builds the packages from an empty `dist/` each, without turbo's cache: `tsc -b` never deletes the
 * output of a source file that was renamed or removed, and a tarball must not ship such leftovers.
 */
export function cleanBuild(packages) {
  for (const item of packages) rmSync(join(item.dir, 'dist'), { recursive: true, force: true });
  const filters = packages.map((item) => `--filter=${item.name}`);
  const result = spawnSync('turbo', ['run', 'build', '--force', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', 2, 'inherit'],
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`The build failed with exit code ${result.status}.`);
}
