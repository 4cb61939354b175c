import { SourceUnavailableError } from './source-errors.js';
import {
  type SourceConnector,
  type SourceLogger,
  type SourceRestartOptions,
  type SourceStatus,
  type SupervisedSourceOptions,
  supervisedSettings,
} from './supervised-source-options.js';

export type {
  SourceConnector,
  SourceLogger,
  SourceRestartOptions,
  SourceStatus,
  SupervisedSourceOptions,
} from './supervised-source-options.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One live source kept connected (one attempt at a time, backoff restarts, health pings), failing fast with {@link SourceUnavailableError} while not ready. */
export class SupervisedSource<C> {
  readonly name: string;
  readonly #kind: string;
  readonly #connector: SourceConnector<C>;
  readonly #restart: false | Required<SourceRestartOptions>;
  readonly #pingIntervalMs: number | false;
  readonly #pingTimeoutMs: number;
  readonly #stableAfterMs: number;
  readonly #logger: SourceLogger;
  #status: SourceStatus = 'idle';
  #reason = 'not started';
  #connection: C | undefined;
  /** Connections reported lost before they were ready: one of them that then opens failed. */
  readonly #lostEarly = new WeakSet<object>();
  #connectedAt = 0;
  #lastHeard = 0;
  #failures = 0;
  #restartTimer: ReturnType<typeof setTimeout> | undefined;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #nextAttemptAt = 0;
  #attempt: Promise<boolean> | undefined;
  #abort: AbortController | undefined;
  #healthCheck: Promise<void> | undefined;
  /** The failure last reported as a warning: the same one again is only a debug line. */
  #reported: string | undefined;

  constructor(options: SupervisedSourceOptions<C>) {
    const settings = supervisedSettings(options);
    this.name = settings.name;
    this.#kind = settings.kind;
    this.#connector = settings.connector;
    this.#restart = settings.restart;
    this.#pingIntervalMs = settings.pingIntervalMs;
    this.#pingTimeoutMs = settings.pingTimeoutMs;
    this.#stableAfterMs = settings.stableAfterMs;
    this.#logger = settings.logger;
  }

  /** Where the source is in its life; see {@link SourceStatus}. */
  get status(): SourceStatus {
    return this.#status;
  }

  /** Why the source is not `ready` (or `ready`), in words. */
  get statusReason(): string {
    return this.#reason;
  }

  /** The ready connection, or undefined while the source is not ready. */
  get connection(): C | undefined {
    return this.#connection;
  }

  /** When the source was last heard from (`Date.now()` time; 0 before it was ever ready). */
  get lastHeardAt(): number {
    return this.#lastHeard;
  }

  /** When to try the source again, in words, e.g. `the next restart is in 3 s: try again then`. */
  get retryHint(): string {
    if (this.#status === 'connecting') return 'it is restarting: try again shortly';
    if (this.#restart === false || this.#status === 'closed') return 'it will not be restarted';
    if (this.#restartTimer) {
      const seconds = Math.max(1, Math.ceil((this.#nextAttemptAt - Date.now()) / 1000));
      return `the next restart is in ${seconds} s: try again then`;
    }
    return 'try again later';
  }

  /** Connects: `true` once ready, `false` when the first attempt failed (a restart is then due); rejects only once closed. */
  start(): Promise<boolean> {
    if (this.#status === 'closed') return Promise.reject(this.#unavailable());
    if (this.#status !== 'idle') return this.#attempt ?? Promise.resolve(this.#status === 'ready');
    return this.#connect();
  }

  /** The ready connection; throws {@link SourceUnavailableError} (why, and when to retry) while there is none. */
  ready(): C {
    const connection = this.#connection;
    if (this.#status !== 'ready' || connection === undefined) throw this.#unavailable();
    return connection;
  }

  /** Notes that the source sent something: a ping is due only after `pingIntervalMs` of silence. */
  heard(): void {
    this.#lastHeard = Date.now();
  }

  /** Reports that `connection` closed, `reason` saying how; the source goes down (and restarts) if it was the ready one. */
  lost(connection: C, reason: string): void {
    if (connection !== this.#connection) {
      if (typeof connection === 'object' && connection !== null) this.#lostEarly.add(connection);
      return; // an old connection, or one not ready yet
    }
    clearInterval(this.#pingTimer);
    this.#connection = undefined;
    if (this.#status === 'closed') return;
    this.#failures = Date.now() - this.#connectedAt >= this.#stableAfterMs ? 1 : this.#failures + 1;
    // A health check that closed the connection already said why.
    this.#goDown(this.#reason === 'ready' ? reason : this.#reason);
  }

  /**
   * Pings `connection` if it is the ready one (one check at a time); when it does not answer, it is
   * closed and the source goes down with `it stopped answering (<after> got no answer)`.
   */
  checkHealth(connection: C, after = 'a ping after a failed call'): Promise<void> {
    const ping = this.#connector.ping;
    if (!ping || connection !== this.#connection) return Promise.resolve();
    this.#healthCheck ??= (async () => {
      try {
        await ping.call(this.#connector, connection, this.#pingTimeoutMs);
      } catch {
        if (connection !== this.#connection || this.#status !== 'ready') return;
        this.#reason = `it stopped answering (${after} got no answer)`;
        await this.#closeQuietly(connection);
        this.lost(connection, this.#reason);
      } finally {
        this.#healthCheck = undefined;
      }
    })();
    return this.#healthCheck;
  }

  /** Closes the source for good: cancels restarts and pings, stops an attempt in progress, closes the connection. */
  async close(): Promise<void> {
    if (this.#status === 'closed') return;
    this.#status = 'closed';
    this.#reason = 'closed';
    clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    clearInterval(this.#pingTimer);
    const connection = this.#connection;
    this.#connection = undefined;
    // Stop the source first: an attempt still opening then fails at once, not at its own timeout.
    const stopping = connection === undefined ? undefined : this.#closeQuietly(connection);
    this.#abort?.abort(new SourceUnavailableError(this.name, 'closed', 'it will not be restarted'));
    await this.#attempt?.catch(() => false);
    await stopping;
  }

  #unavailable(): SourceUnavailableError {
    return new SourceUnavailableError(this.name, this.#reason, this.retryHint);
  }

  #connect(): Promise<boolean> {
    // A restart keeps the reason it went down for: that is what a failed call reports meanwhile.
    if (this.#status === 'idle') this.#reason = 'starting';
    this.#status = 'connecting';
    const attempt = this.#connectOnce().finally(() => {
      if (this.#attempt === attempt) this.#attempt = undefined;
    });
    this.#attempt = attempt;
    return attempt;
  }

  async #connectOnce(): Promise<boolean> {
    const abort = new AbortController();
    this.#abort = abort;
    let connection: C | undefined;
    try {
      connection = await this.#connector.open(abort.signal);
      if (this.#status === 'closed') throw new Error('closed while starting');
      if (this.#lostEarly.has(connection as object)) throw new Error('the connection closed while starting');
      this.#becomeReady(connection);
      // The adapter's own start-up work (restoring state, hooks): if it throws, the start failed.
      this.#connector.ready?.(connection);
      return true;
    } catch (error) {
      if (connection !== undefined) {
        if (this.#connection === connection) {
          clearInterval(this.#pingTimer);
          this.#connection = undefined;
        }
        await this.#closeQuietly(connection);
      }
      if (this.#status === 'closed') return false;
      this.#failures++;
      this.#goDown(`failed to start: ${messageOf(error)}`);
      return false;
    } finally {
      if (this.#abort === abort) this.#abort = undefined;
    }
  }

  #becomeReady(connection: C): void {
    this.#connection = connection;
    this.#connectedAt = Date.now();
    this.#lastHeard = this.#connectedAt;
    this.#status = 'ready';
    this.#reason = 'ready';
    const detail = this.#connector.describeReady?.(connection) ?? '';
    this.#logger.info(`${this.#label()} is ${this.#reported === undefined ? 'up' : 'back up'}${detail}`);
    this.#reported = undefined;
    this.#startPinging(connection);
  }

  #label(): string {
    return `${this.#kind} "${this.name}"`;
  }

  /** Marks the source down, schedules a restart (unless disabled) and reports it once per kind of failure. */
  #goDown(reason: string): void {
    this.#status = 'down';
    this.#reason = reason;
    const delay = this.#scheduleRestart();
    const message =
      `${this.#label()} is down: ${reason}; ${delay === undefined ? 'not restarting' : `restarting in ${delay} ms`}` +
      (this.#connector.describeDown?.() ?? '');
    if (this.#reported === reason) {
      this.#logger.debug(message);
      return;
    }
    this.#reported = reason;
    this.#logger.warn(message);
  }

  /** Schedules the next attempt with backoff; returns its delay, or undefined when restarts are off. */
  #scheduleRestart(): number | undefined {
    const restart = this.#restart;
    if (restart === false) return undefined;
    const delay = Math.min(restart.maxDelayMs, restart.initialDelayMs * 2 ** Math.max(0, this.#failures - 1));
    this.#nextAttemptAt = Date.now() + delay;
    clearTimeout(this.#restartTimer);
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = undefined;
      if (this.#status === 'down') void this.#connect();
    }, delay);
    this.#restartTimer.unref?.();
    return delay;
  }

  /** Pings a connection not heard from for `pingIntervalMs`. */
  #startPinging(connection: C): void {
    const interval = this.#pingIntervalMs;
    clearInterval(this.#pingTimer);
    if (interval === false || !this.#connector.ping) return;
    this.#pingTimer = setInterval(
      () => {
        if (connection !== this.#connection) return clearInterval(this.#pingTimer);
        if (Date.now() - this.#lastHeard >= interval) void this.checkHealth(connection, 'an idle-time ping');
      },
      Math.max(10, Math.floor(interval / 2)),
    );
    this.#pingTimer.unref?.();
  }

  async #closeQuietly(connection: C): Promise<void> {
    try {
      await this.#connector.close(connection);
    } catch (error) {
      this.#logger.debug(`[${this.name}] closing: ${messageOf(error)}`);
    }
  }
}
