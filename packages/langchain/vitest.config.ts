import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'langchain',
    include: ['src/**/*.test.ts'],
  },
});
