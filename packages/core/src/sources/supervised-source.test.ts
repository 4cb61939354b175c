import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { SourceUnavailableError } from './source-errors.js';
import {
  type SourceConnector,
  type SourceLogger,
  SupervisedSource,
  type SupervisedSourceOptions,
} from './supervised-source.js';

/** A connection of the fake source: it answers pings while `answering`, and knows whether it was closed. */
interface FakeConnection {
  id: number;
  answering: boolean;
  closed: boolean;
}

/**
 * A fake source: `failures` attempts fail (with `attempt N failed`), then every attempt opens a
 * connection; `gate` holds an attempt open until released, like a slow start-up.
 */
function fakeSource(failures = 0) {
  const state = {
    attempts: 0,
    pings: 0,
    opened: [] as FakeConnection[],
    ready: [] as number[],
    gate: undefined as Promise<void> | undefined,
    aborted: 0,
  };
  const connector: SourceConnector<FakeConnection> = {
    async open(signal) {
      const attempt = ++state.attempts;
      if (state.gate) {
        const gate = state.gate;
        await new Promise<void>((resolve, reject) => {
          signal.addEventListener('abort', () => {
            state.aborted++;
            reject(new Error('aborted while opening'));
          });
          void gate.then(resolve);
        });
      }
      if (attempt <= failures) throw new Error(`attempt ${attempt} failed`);
      const connection = { id: attempt, answering: true, closed: false };
      state.opened.push(connection);
      return connection;
    },
    async close(connection) {
      connection.closed = true;
    },
    async ping(connection, timeoutMs) {
      state.pings++;
      if (!connection.answering) {
        await new Promise((resolve) => setTimeout(resolve, timeoutMs));
        throw new Error(`no answer within ${timeoutMs} ms`);
      }
    },
    ready(connection) {
      state.ready.push(connection.id);
    },
    describeReady: (connection) => ` (connection ${connection.id})`,
    describeDown: () => '\n  its last words: bye',
  };
  return { state, connector };
}

function captureLogger() {
  const lines: string[] = [];
  const logger: SourceLogger = {
    warn: (message) => lines.push(`warn: ${message}`),
    info: (message) => lines.push(`info: ${message}`),
    debug: (message) => lines.push(`debug: ${message}`),
  };
  return { lines, logger };
}

function unavailable(run: () => unknown): SourceUnavailableError {
  try {
    run();
  } catch (error) {
    if (SourceUnavailableError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a SourceUnavailableError');
}

describe('SupervisedSource', () => {
  const open: SupervisedSource<FakeConnection>[] = [];
  function supervised(
    options: Partial<SupervisedSourceOptions<FakeConnection>> &
      Pick<SupervisedSourceOptions<FakeConnection>, 'connector'>,
  ) {
    const source = new SupervisedSource({ name: 'db', pingIntervalMs: false, ...options });
    open.push(source);
    return source;
  }

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const source of open.splice(0)) await source.close();
  });

  it('restarts with doubling delays up to maxDelayMs, warns once per kind of failure, and announces the way back', async () => {
    const { state, connector } = fakeSource(4);
    const { lines, logger } = captureLogger();
    const source = supervised({ connector, logger, kind: 'server', restart: { initialDelayMs: 100, maxDelayMs: 300 } });
    expect(source.status).toBe('idle');
    expect(source.statusReason).toBe('not started');
    expect(await source.start()).toBe(false);
    expect(source.status).toBe('down');
    expect(source.statusReason).toBe('failed to start: attempt 1 failed');
    const delays: number[] = [];
    for (let step = 0; step < 3; step++) {
      const before = state.attempts;
      const started = Date.now();
      while (state.attempts === before) await vi.advanceTimersByTimeAsync(10);
      delays.push(Date.now() - started);
    }
    expect(delays).toEqual([100, 200, 300]);
    await vi.advanceTimersByTimeAsync(300);
    expect(source.status).toBe('ready');
    expect(state.attempts).toBe(5);
    expect(lines.filter((line) => line.startsWith('warn:'))).toEqual([
      'warn: server "db" is down: failed to start: attempt 1 failed; restarting in 100 ms\n  its last words: bye',
      'warn: server "db" is down: failed to start: attempt 2 failed; restarting in 200 ms\n  its last words: bye',
      'warn: server "db" is down: failed to start: attempt 3 failed; restarting in 300 ms\n  its last words: bye',
      'warn: server "db" is down: failed to start: attempt 4 failed; restarting in 300 ms\n  its last words: bye',
    ]);
    expect(lines.at(-1)).toBe('info: server "db" is back up (connection 5)');
    expect(state.ready).toEqual([5]);
  });

  it('reports the same failure again as a debug line only', async () => {
    const connector: SourceConnector<FakeConnection> = {
      open: () => Promise.reject(new Error('refused')),
      close: async () => {},
    };
    const { lines, logger } = captureLogger();
    const source = supervised({ connector, logger, restart: { initialDelayMs: 50 } });
    await source.start();
    await vi.advanceTimersByTimeAsync(50 + 100 + 199);
    expect(lines).toEqual([
      'warn: source "db" is down: failed to start: refused; restarting in 50 ms',
      'debug: source "db" is down: failed to start: refused; restarting in 100 ms',
      'debug: source "db" is down: failed to start: refused; restarting in 200 ms',
    ]);
  });

  it('fails fast while down, with the reason and when to retry', async () => {
    const { connector } = fakeSource(1);
    const source = supervised({ connector, restart: { initialDelayMs: 2_500 } });
    const error = unavailable(() => source.ready());
    expect(error.message).toBe('Source "db" is unavailable (not started); try again later.');
    await source.start();
    const down = unavailable(() => source.ready());
    expect(down).toMatchObject({ source: 'db', statusReason: 'failed to start: attempt 1 failed' });
    expect(down.message).toBe(
      'Source "db" is unavailable (failed to start: attempt 1 failed); the next restart is in 3 s: try again then.',
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(source.retryHint).toBe('the next restart is in 2 s: try again then');
    await vi.advanceTimersByTimeAsync(1_500);
    expect(source.ready()).toMatchObject({ id: 2 });
    await source.close();
    expect(unavailable(() => source.ready()).message).toBe(
      'Source "db" is unavailable (closed); it will not be restarted.',
    );
    await expect(source.start()).rejects.toThrow('Source "db" is unavailable (closed); it will not be restarted.');
  });

  it('says "it is restarting" during an attempt, keeping the reason it went down for', async () => {
    const { state, connector } = fakeSource(1);
    const source = supervised({ connector, restart: { initialDelayMs: 100 } });
    await source.start();
    let release = () => {};
    state.gate = new Promise((resolve) => {
      release = resolve;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(source.status).toBe('connecting');
    expect(unavailable(() => source.ready()).message).toBe(
      'Source "db" is unavailable (failed to start: attempt 1 failed); it is restarting: try again shortly.',
    );
    // A second start() joins the attempt in progress.
    const joined = source.start();
    release();
    expect(await joined).toBe(true);
    expect(state.attempts).toBe(2);
  });

  it('with restart: false, stays down and says so', async () => {
    const { state, connector } = fakeSource(1);
    const { lines, logger } = captureLogger();
    const source = supervised({ connector, logger, restart: false });
    expect(await source.start()).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.attempts).toBe(1);
    expect(lines[0]).toBe(
      'warn: source "db" is down: failed to start: attempt 1 failed; not restarting\n  its last words: bye',
    );
    expect(unavailable(() => source.ready()).retryHint).toBe('it will not be restarted');
  });

  it('a lost connection restarts with a growing delay, and one that lasted stableAfterMs starts the count again', async () => {
    const { state, connector } = fakeSource();
    const { lines, logger } = captureLogger();
    const source = supervised({ connector, logger, restart: { initialDelayMs: 100 }, stableAfterMs: 1_000 });
    await source.start();
    const crash = async (after: number) => {
      await vi.advanceTimersByTimeAsync(after);
      source.lost(source.ready(), 'it crashed');
      expect(source.status).toBe('down');
      expect(source.statusReason).toBe('it crashed');
    };
    await crash(10);
    await vi.advanceTimersByTimeAsync(100);
    await crash(10);
    await vi.advanceTimersByTimeAsync(200);
    await crash(1_000);
    await vi.advanceTimersByTimeAsync(100);
    expect(source.status).toBe('ready');
    // Each time it came back up in between: each loss is a warning again.
    expect(lines.filter((line) => !line.startsWith('info:'))).toEqual([
      'warn: source "db" is down: it crashed; restarting in 100 ms\n  its last words: bye',
      'warn: source "db" is down: it crashed; restarting in 200 ms\n  its last words: bye',
      'warn: source "db" is down: it crashed; restarting in 100 ms\n  its last words: bye',
    ]);
    expect(state.opened.map((connection) => connection.id)).toEqual([1, 2, 3, 4]);
    // A connection already replaced is ignored.
    source.lost(state.opened[0]!, 'old news');
    expect(source.status).toBe('ready');
  });

  it('close() during an attempt stops it at once and resolves after it', async () => {
    const { state, connector } = fakeSource();
    state.gate = new Promise(() => {});
    const { lines, logger } = captureLogger();
    const source = supervised({ connector, logger });
    const starting = source.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(source.status).toBe('connecting');
    await source.close();
    expect(state.aborted).toBe(1);
    expect(await starting).toBe(false);
    expect(source.status).toBe('closed');
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.attempts).toBe(1);
  });

  it('closes a connection that opened after close(), and cancels a scheduled restart', async () => {
    const closed: FakeConnection[] = [];
    let finish: (connection: FakeConnection) => void = () => {};
    const connector: SourceConnector<FakeConnection> = {
      // Ignores the signal: opens anyway.
      open: () => new Promise((resolve) => (finish = resolve)),
      close: async (connection) => void closed.push(connection),
    };
    const source = supervised({ connector });
    const starting = source.start();
    const closing = source.close();
    finish({ id: 1, answering: true, closed: false });
    await closing;
    expect(await starting).toBe(false);
    expect(closed.map((connection) => connection.id)).toEqual([1]);

    const { state, connector: failing } = fakeSource(1);
    const restarting = supervised({ connector: failing, restart: { initialDelayMs: 100 } });
    await restarting.start();
    await restarting.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.attempts).toBe(1);
  });

  it('a connection lost before it was ready counts as a failure to start', async () => {
    const connector: SourceConnector<FakeConnection> = {
      open: async () => {
        const connection = { id: 1, answering: true, closed: false };
        source.lost(connection, 'gone');
        return connection;
      },
      close: async (connection) => {
        connection.closed = true;
      },
    };
    const source = supervised({ connector, restart: false });
    expect(await source.start()).toBe(false);
    expect(source.statusReason).toBe('failed to start: the connection closed while starting');
  });

  it('a ready() callback that throws fails the start: the connection is closed and a restart is due', async () => {
    const { state, connector } = fakeSource();
    let refuse = true;
    const { lines, logger } = captureLogger();
    const source = supervised({
      connector: {
        ...connector,
        ready: () => {
          if (refuse) throw new Error('restoring its subscriptions failed');
        },
      },
      logger,
      restart: { initialDelayMs: 100 },
    });
    expect(await source.start()).toBe(false);
    expect(state.opened[0]!.closed).toBe(true);
    expect(source.statusReason).toBe('failed to start: restoring its subscriptions failed');
    expect(lines.at(-1)).toBe(
      'warn: source "db" is down: failed to start: restoring its subscriptions failed; restarting in 100 ms\n  its last words: bye',
    );
    refuse = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(source.ready().id).toBe(2);
  });

  it('pings a connection silent for pingIntervalMs; one that does not answer is closed and restarted', async () => {
    const { state, connector } = fakeSource();
    const { lines, logger } = captureLogger();
    const source = supervised({
      connector,
      logger,
      pingIntervalMs: 1_000,
      pingTimeoutMs: 200,
      restart: { initialDelayMs: 100 },
    });
    await source.start();
    // Heard from every 400 ms: no ping.
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(400);
      source.heard();
    }
    expect(state.pings).toBe(0);
    expect(source.lastHeardAt).toBe(Date.now());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.pings).toBe(1);
    expect(source.status).toBe('ready');
    const first = state.opened[0]!;
    first.answering = false;
    await vi.advanceTimersByTimeAsync(1_500 + 200);
    expect(first.closed).toBe(true);
    expect(lines).toContain(
      'warn: source "db" is down: it stopped answering (an idle-time ping got no answer); restarting in 100 ms\n  its last words: bye',
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(source.ready().id).toBe(2);
  });

  it('checkHealth after a failed call: one ping at a time, only for the ready connection', async () => {
    const { state, connector } = fakeSource();
    const source = supervised({ connector, pingTimeoutMs: 200, restart: false });
    await source.start();
    const connection = source.ready();
    connection.answering = false;
    const checks = [source.checkHealth(connection), source.checkHealth(connection)];
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all(checks);
    expect(state.pings).toBe(1);
    expect(source.status).toBe('down');
    expect(source.statusReason).toBe('it stopped answering (a ping after a failed call got no answer)');
    await source.checkHealth(connection);
    expect(state.pings).toBe(1);
  });

  it('without a ping function, never pings', async () => {
    const connector: SourceConnector<FakeConnection> = {
      open: async () => ({ id: 1, answering: false, closed: false }),
      close: async () => {},
    };
    const source = supervised({ connector, pingIntervalMs: 100 });
    await source.start();
    await source.checkHealth(source.ready());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(source.status).toBe('ready');
  });

  it('a close() that throws is a debug line, not a failure', async () => {
    const connector: SourceConnector<FakeConnection> = {
      open: async () => ({ id: 1, answering: true, closed: false }),
      close: () => Promise.reject(new Error('already gone')),
    };
    const { lines, logger } = captureLogger();
    const source = supervised({ connector, logger });
    await source.start();
    await source.close();
    expect(lines.at(-1)).toBe('debug: [db] closing: already gone');
  });

  it('refuses bad options with InvalidOptionError naming them', () => {
    const { connector } = fakeSource();
    const bad: [string, object, string][] = [
      ['name', { name: '' }, 'A supervised source needs a non-empty name.'],
      [
        'connector',
        { connector: {} },
        'Source "db": connector must have open() and close() functions; open() and close() missing.',
      ],
      ['connector', { connector: null }, 'Source "db": connector must have open() and close() functions; got null.'],
      [
        'connector',
        { connector: { open: async () => ({}) } },
        'Source "db": connector must have open() and close() functions; close() missing.',
      ],
      ['restart', { restart: 5 }, 'restart must be false or { initialDelayMs, maxDelayMs }; got a number.'],
      [
        'restart.initialDelayMs',
        { restart: { initialDelayMs: 0 } },
        'restart.initialDelayMs must be a positive number of milliseconds; got 0.',
      ],
      [
        'restart.maxDelayMs',
        { restart: { maxDelayMs: Number.NaN } },
        'restart.maxDelayMs must be a positive number of milliseconds; got NaN.',
      ],
      ['pingIntervalMs', { pingIntervalMs: -1 }, 'pingIntervalMs must be a positive number of milliseconds; got -1.'],
      [
        'pingTimeoutMs',
        { pingTimeoutMs: '5' },
        'pingTimeoutMs must be a positive number of milliseconds; got a string.',
      ],
      [
        'stableAfterMs',
        { stableAfterMs: Number.POSITIVE_INFINITY },
        'stableAfterMs must be a positive number of milliseconds; got Infinity.',
      ],
    ];
    for (const [option, options, message] of bad) {
      let caught: unknown;
      try {
        new SupervisedSource({ name: 'db', connector, ...options } as SupervisedSourceOptions<FakeConnection>);
      } catch (error) {
        caught = error;
      }
      expect(InvalidOptionError.isInstance(caught), option).toBe(true);
      expect(caught).toMatchObject({ option, message });
    }
  });
});
