import { defineConfig } from 'vitest/config';

// One entry point for editors and `pnpm vitest`: every package and app is a project.
// CI and `pnpm test` run each package's own `vitest run` through turbo.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
