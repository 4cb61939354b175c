import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { CoalescedTask } from './coalesced-task.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A task whose runs each take `ms` (fake timers), counting the runs started and finished. */
function slowTask(ms: number, fail?: (run: number) => Error | undefined) {
  const runs = { started: 0, finished: 0 };
  const errors: unknown[] = [];
  const task = new CoalescedTask(
    async () => {
      const run = ++runs.started;
      await new Promise((resolve) => setTimeout(resolve, ms));
      runs.finished++;
      const error = fail?.(run);
      if (error) throw error;
    },
    (error) => errors.push(error),
  );
  return { task, runs, errors };
}

describe('CoalescedTask: one run at a time, requests meanwhile coalesced into one more', () => {
  it('starts a run at once, and many requests during it make exactly one more run', async () => {
    vi.useFakeTimers();
    const { task, runs } = slowTask(100);
    const first = task.request();
    expect(runs.started).toBe(1); // synchronously
    expect(task.running).toBe(true);
    const more = [task.request(), task.request(), task.request()];
    expect(more.every((promise) => promise === first)).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toEqual({ started: 2, finished: 1 });
    await vi.advanceTimersByTimeAsync(100);
    await first;
    expect(runs).toEqual({ started: 2, finished: 2 });
    expect(task.running).toBe(false);
  });

  it('a request after the runs are over starts a new one; without one meanwhile there is no extra run', async () => {
    vi.useFakeTimers();
    const { task, runs } = slowTask(50);
    const first = task.request();
    await vi.advanceTimersByTimeAsync(50);
    await first;
    expect(runs).toEqual({ started: 1, finished: 1 });
    const second = task.request();
    expect(second).not.toBe(first);
    await vi.advanceTimersByTimeAsync(50);
    await second;
    expect(runs).toEqual({ started: 2, finished: 2 });
  });

  it('a failed run is reported, not thrown, and the extra run still happens', async () => {
    vi.useFakeTimers();
    const { task, runs, errors } = slowTask(10, (run) => (run === 1 ? new Error('listing failed') : undefined));
    const done = task.request();
    task.request();
    await vi.advanceTimersByTimeAsync(20);
    await expect(done).resolves.toBeUndefined();
    expect(runs).toEqual({ started: 2, finished: 2 });
    expect(errors.map((error) => (error as Error).message)).toEqual(['listing failed']);
  });

  it('a run that throws synchronously, and a reporter that throws, leave the task usable', async () => {
    let calls = 0;
    const task = new CoalescedTask(
      () => {
        calls++;
        throw new Error('sync failure');
      },
      () => {
        throw new Error('reporter failure');
      },
    );
    await expect(task.request()).resolves.toBeUndefined();
    await expect(task.request()).resolves.toBeUndefined();
    expect(calls).toBe(2);
    expect(task.running).toBe(false);
  });

  it('settled() waits for the run under way and its extra run', async () => {
    vi.useFakeTimers();
    const { task, runs } = slowTask(30);
    await task.settled(); // nothing under way
    task.request();
    task.request();
    const settled = task.settled();
    await vi.advanceTimersByTimeAsync(60);
    await settled;
    expect(runs.finished).toBe(2);
  });

  it('refuses a missing run or reporter with specific errors', () => {
    const noRun = thrown(() => new CoalescedTask(undefined as never, () => {})) as InvalidOptionError;
    expect(InvalidOptionError.isInstance(noRun)).toBe(true);
    expect(noRun.option).toBe('run');
    expect(noRun.message).toBe('A coalesced task needs a function to run, got undefined.');
    const noReporter = thrown(() => new CoalescedTask(async () => {}, 'log' as never)) as InvalidOptionError;
    expect(noReporter.option).toBe('onError');
    expect(noReporter.message).toBe(
      'A coalesced task needs an onError function (its failures are reported, never thrown), got a string.',
    );
  });
});
