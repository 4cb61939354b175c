import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInChild } from './child-run.js';

const CHILD = fileURLToPath(new URL('../test-fixtures/hanging-child.mjs', import.meta.url));

describe('runInChild', () => {
  it("returns the child's result", async () => {
    expect(await runInChild(CHILD, { behave: 'answer', value: 42 }, { timeoutMs: 20_000 })).toEqual({
      status: 'ok',
      value: { echo: 42 },
    });
  });

  it('answers ready with go once its clock runs, so a child can wait for it before the timed work', async () => {
    expect(await runInChild(CHILD, { behave: 'wait-for-go' }, { timeoutMs: 20_000 })).toEqual({
      status: 'ok',
      value: { went: true },
    });
  });

  it('kills a child that does not answer within the limit and reports it as timed out', async () => {
    const outcome = await runInChild(CHILD, { behave: 'hang' }, { timeoutMs: 300 });
    expect(outcome).toEqual({
      status: 'timed-out',
      afterMs: expect.any(Number),
      progress: { phase: 'search', buildMs: 12 },
    });
  });

  it('reports a crash and an error message as failures', async () => {
    expect(await runInChild(CHILD, { behave: 'crash' }, { timeoutMs: 20_000 })).toEqual({
      status: 'failed',
      message: 'the child exited (code 3) without a result',
    });
    expect(await runInChild(CHILD, { behave: 'fail' }, { timeoutMs: 20_000 })).toEqual({
      status: 'failed',
      message: 'no catalog',
    });
  });
});
