import type { ToolDescriptor } from '@toolscout/core';

/** Two MCP-shaped tools (an adder and a forecast), the catalog of the per-framework request runners' tests. */
export const TWO_TOOLS: ToolDescriptor[] = [
  {
    id: 'math__add',
    description: 'Add two numbers and return their sum',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    execute: (input) => {
      const { a, b } = input as { a: number; b: number };
      return { content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }] };
    },
  },
  {
    id: 'weather__forecast',
    description: 'Weather forecast for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: () => ({ content: [{ type: 'text', text: 'sunny' }] }),
  },
];
