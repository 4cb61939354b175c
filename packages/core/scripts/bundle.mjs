// Bundles core's entry points (the package's `exports`) from src/ into dist/ with rolldown: a few
// files instead of a hundred modules, so a fresh process imports core in a fraction of the time (Node
// compiles and links each ES module on its own). Modules two entries share go to dist/chunks/, so
// every entry sees the same classes and state. `tsc -b` emits the declarations beside them.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = (await import('../package.json', { with: { type: 'json' } })).default;

/** Every entry's name in dist/, from the `exports` map: `./dist/index.js` -> `index`. */
const input = {};
for (const target of Object.values(manifest.exports)) {
  if (typeof target !== 'object') continue;
  const name = target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
  input[name] = target['@toolscout/source'];
}
const dependencies = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
/** A package (or a file of one) that the user installs: imported, never bundled. */
const external = (id) =>
  id.startsWith('node:') || dependencies.some((name) => id === name || id.startsWith(`${name}/`));

rmSync(`${root}dist/chunks`, { recursive: true, force: true });
await build({
  cwd: root,
  input,
  external,
  platform: 'node',
  tsconfig: `${root}tsconfig.json`,
  treeshake: { moduleSideEffects: false },
  output: {
    dir: `${root}dist`,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
  },
});
