import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'embedder-use',
    include: ['src/**/*.test.ts'],
  },
});
