import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'ai-sdk',
    include: ['src/**/*.test.ts'],
  },
});
