import { describe, expect, it } from 'vitest';
import { requestOutcome } from './format-trace.js';
import { createTanStackMiddleware, historyOfModelMessages, runTanStackRequest } from './run-tanstack-request.js';
import { TWO_TOOLS } from './test-utils/two-tools.js';

const catalog = TWO_TOOLS;

describe('runTanStackRequest', () => {
  it('runs the scripted text adapter through chat() with the toolscout middleware', async () => {
    const middleware = createTanStackMiddleware(catalog);
    const trace = await runTanStackRequest('add 4 and 5', { middleware, filesDir: '/tmp/files', threadId: 't1' });

    expect(trace.steps.map((step) => step.offered)).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool', 'math__add'],
      ['search_tools', 'load_tool', 'math__add'],
    ]);
    expect(requestOutcome(trace)).toEqual({
      searched: true,
      loaded: 'math__add',
      called: 'math__add',
      callSucceeded: true,
    });
    expect(trace.steps[3]?.answer).toBe('math__add answered: 4 + 5 = 9');
    middleware.dispose();
  });

  it('reads a failed call (TanStack AI’s { error } result) as an error', () => {
    const history = historyOfModelMessages([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'math__add', arguments: '{"a":1}' } }],
      },
      { role: 'tool', toolCallId: 'c1', content: '{"error":"b is required"}' },
    ]);

    expect(history).toEqual([
      { toolCallId: 'c1', toolName: 'math__add', input: { a: 1 }, output: 'b is required', isError: true },
    ]);
  });
});
