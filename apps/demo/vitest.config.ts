import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'demo',
    include: ['src/**/*.test.ts'],
    // Generous: turbo runs several packages' suites at once on small machines.
    testTimeout: 30_000,
  },
});
