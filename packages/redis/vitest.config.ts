import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: 'redis',
      include: ['src/**/*.test.ts'],
      // Starts a real redis-server on loopback for the run (see the file for how to install it).
      globalSetup: ['./src/test-utils/redis-server.ts'],
    },
  }),
);
