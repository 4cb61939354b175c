import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'redis',
    include: ['src/**/*.test.ts'],
    // Generous: turbo runs several packages' suites at once on small machines.
    testTimeout: 30_000,
    // Starts a real redis-server on loopback for the run (see the file for how to install it).
    globalSetup: ['./src/test-utils/redis-server.ts'],
  },
});
