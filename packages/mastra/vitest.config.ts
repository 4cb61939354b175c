import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'mastra',
    include: ['src/**/*.test.ts'],
  },
});
