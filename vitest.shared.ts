import { defineProject } from 'vitest/config';

/**
 * The export condition under which every workspace package's `exports` point at its TypeScript
 * source (`"@toolscout/source": "./src/index.ts"`, first in each export object).
 */
export const SOURCE_CONDITION = '@toolscout/source';

/**
 * What every package's and app's `vitest.config.ts` merges in (`mergeConfig(shared, defineProject(...))`):
 * `@toolscout/*` imports, subpaths included, resolve to the packages' source, so `vitest run` needs
 * no build of the packages a suite imports. Workspace packages are linked from outside
 * `node_modules`, so Vite inlines them (transforms their TypeScript) rather than handing them to Node.
 */
export default defineProject({
  ssr: { resolve: { conditions: [SOURCE_CONDITION] } },
  test: {
    // Generous: turbo runs several packages' suites at once on small machines.
    testTimeout: 30_000,
  },
});
