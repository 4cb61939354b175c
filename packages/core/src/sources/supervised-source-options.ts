import { InvalidOptionError } from '../errors.js';
import { describeNumber, describeValue, isRecord } from '../values.js';

/** `idle` (not started), `connecting`, `ready`, `down` (failed or lost; a restart may be due) or `closed` (for good). */
export type SourceStatus = 'idle' | 'connecting' | 'ready' | 'down' | 'closed';

/** Where a supervised source reports what happens to it. */
export interface SourceLogger {
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** How a source that failed or was lost is restarted: after `initialDelayMs`, doubling up to `maxDelayMs`. */
export interface SourceRestartOptions {
  /** The delay before the first restart. Default 500 ms. */
  initialDelayMs?: number;
  /** The longest delay between two attempts. Default 30 s. */
  maxDelayMs?: number;
}

/** What a supervised source asks of the adapter that reaches the source; `C` is one open connection. */
export interface SourceConnector<C> {
  /** Opens a ready connection (e.g. connected, first list read), rejecting with why in words, giving up when `signal` aborts. */
  open(signal: AbortSignal): Promise<C>;
  /** Closes a connection (a ready one, or one that opened after the source was closed). */
  close(connection: C): Promise<void>;
  /** Rejects unless the connection answers within `timeoutMs`; without it, no health checks. */
  ping?(connection: C, timeoutMs: number): Promise<unknown>;
  /** Called once a connection is ready, after it is announced. */
  ready?(connection: C): void;
  /** Words after `is up` in the announcement of a ready connection, e.g. ` (server 1.0): 7 tool(s)`. */
  describeReady?(connection: C): string;
  /** Text appended to the report of a failure, e.g. the source's last lines of output. */
  describeDown?(): string;
}

/** How a {@link SupervisedSource} reaches, restarts and checks its source. */
export interface SupervisedSourceOptions<C> {
  /** The source's name, in reports and errors. */
  name: string;
  /** What the source is called in reports: `<kind> "<name>" is down: ...`. Default `source`. */
  kind?: string;
  /** Opens, closes and pings connections to the source. */
  connector: SourceConnector<C>;
  /** Restarts after a failure to open or a lost connection, with backoff. `false`: stay down. */
  restart?: false | SourceRestartOptions;
  /** A ready source not heard from for this long is pinged (and closed if it does not answer). Default 60 s; `false`: never. */
  pingIntervalMs?: number | false;
  /** How long a health-check ping may take. Default 5 s. */
  pingTimeoutMs?: number;
  /** A connection that lasted this long counts as stable: its loss restarts the backoff from the start. Default 30 s. */
  stableAfterMs?: number;
  /** Default: silent. */
  logger?: SourceLogger;
}

/** Throws {@link InvalidOptionError} naming `name` unless `value` is undefined or a positive, finite number. */
export function assertPositiveMs(value: unknown, name: string): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    throw new InvalidOptionError(
      name,
      `${name} must be a positive number of milliseconds; got ${describeNumber(value)}.`,
    );
  }
}

const DEFAULT_INITIAL_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_STABLE_AFTER_MS = 30_000;
const DEFAULT_PING_TIMEOUT_MS = 5_000;
const DEFAULT_PING_INTERVAL_MS = 60_000;
const SILENT: SourceLogger = { warn() {}, info() {}, debug() {} };

/** A supervised source's options, checked, with their defaults filled in. */
export interface SupervisedSettings<C> {
  name: string;
  kind: string;
  connector: SourceConnector<C>;
  restart: false | Required<SourceRestartOptions>;
  pingIntervalMs: number | false;
  pingTimeoutMs: number;
  stableAfterMs: number;
  logger: SourceLogger;
}

/** Checks a supervised source's options (InvalidOptionError naming the bad one) and fills in the defaults. */
export function supervisedSettings<C>(options: SupervisedSourceOptions<C>): SupervisedSettings<C> {
  if (typeof options?.name !== 'string' || options.name === '') {
    throw new InvalidOptionError('name', 'A supervised source needs a non-empty name.');
  }
  const connector = options.connector;
  const missing = (['open', 'close'] as const).filter((method) => typeof connector?.[method] !== 'function');
  if (missing.length > 0) {
    const got = isRecord(connector) ? `${missing.join('() and ')}() missing` : `got ${describeValue(connector)}`;
    throw new InvalidOptionError(
      'connector',
      `Source "${options.name}": connector must have open() and close() functions; ${got}.`,
    );
  }
  const { restart, pingIntervalMs } = options;
  if (restart !== undefined && restart !== false && !isRecord(restart as unknown)) {
    throw new InvalidOptionError(
      'restart',
      `restart must be false or { initialDelayMs, maxDelayMs }; got ${describeValue(restart)}.`,
    );
  }
  if (restart) {
    assertPositiveMs(restart.initialDelayMs, 'restart.initialDelayMs');
    assertPositiveMs(restart.maxDelayMs, 'restart.maxDelayMs');
  }
  if (pingIntervalMs !== false) assertPositiveMs(pingIntervalMs, 'pingIntervalMs');
  assertPositiveMs(options.pingTimeoutMs, 'pingTimeoutMs');
  assertPositiveMs(options.stableAfterMs, 'stableAfterMs');
  return {
    name: options.name,
    kind: options.kind ?? 'source',
    connector,
    restart:
      restart === false
        ? false
        : {
            initialDelayMs: restart?.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS,
            maxDelayMs: restart?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
          },
    pingIntervalMs: pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
    pingTimeoutMs: options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS,
    stableAfterMs: options.stableAfterMs ?? DEFAULT_STABLE_AFTER_MS,
    logger: options.logger ?? SILENT,
  };
}
