import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import { SubscriptionLimitError } from './source-errors.js';
import type { SourceItem } from './source-names.js';

/** The severities of log messages (RFC 5424's syslog levels), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** One severity of {@link LOG_LEVELS}. */
export type SourceLogLevel = (typeof LOG_LEVELS)[number];

/** The default most subscriptions one session may hold. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1000;

/** Options of {@link SessionInterests}. */
export interface SessionInterestsOptions {
  /** Most subscriptions one session may hold (an integer >= 1); default {@link MAX_SUBSCRIPTIONS_PER_SESSION}. */
  maxSubscriptionsPerSession?: number;
}

/**
 * What the sessions (any objects: connections, clients) in front of several sources asked of them,
 * subscriptions and log levels, so that each source is asked once; see the README.
 */
export class SessionInterests<S extends object> {
  readonly #max: number;
  /** Each session's subscriptions: source -> its items. */
  readonly #held = new Map<S, Map<string, Set<string>>>();
  /** Each session's subscriptions being opened at their sources: they count against its cap. */
  readonly #opening = new Map<S, number>();
  readonly #levels = new Map<S, SourceLogLevel>();
  /** The level last set on each source. */
  readonly #applied = new Map<string, SourceLogLevel>();

  constructor(options: SessionInterestsOptions = {}) {
    const max = options.maxSubscriptionsPerSession ?? MAX_SUBSCRIPTIONS_PER_SESSION;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new InvalidOptionError(
        'maxSubscriptionsPerSession',
        `maxSubscriptionsPerSession must be an integer >= 1, got ${String(max)}.`,
      );
    }
    this.#max = max;
  }

  /** Most subscriptions one session may hold. */
  get maxSubscriptionsPerSession(): number {
    return this.#max;
  }

  /** Starts keeping `session`'s interests (nothing held, no log level). */
  addSession(session: S): void {
    if (!this.#held.has(session)) this.#held.set(session, new Map());
  }

  /** Forgets `session`; returns the subscriptions no session holds any more, to end at their sources. */
  removeSession(session: S): SourceItem[] {
    const held = this.#held.get(session);
    this.#levels.delete(session);
    if (!held) return [];
    this.#held.delete(session);
    const released: SourceItem[] = [];
    for (const [source, items] of held) {
      for (const name of items) if (!this.isSubscribed(source, name)) released.push({ source, name });
    }
    return released;
  }

  /** The sessions kept, in the order they were added. */
  sessions(): S[] {
    return [...this.#held.keys()];
  }

  /** Whether `session` holds a subscription to `item` of `source`. */
  holds(session: S, source: string, item: string): boolean {
    return this.#held.get(session)?.get(source)?.has(item) ?? false;
  }

  /** How many subscriptions `session` holds. */
  subscriptionCount(session: S): number {
    let count = 0;
    for (const items of this.#held.get(session)?.values() ?? []) count += items.size;
    return count;
  }

  /** Throws {@link SubscriptionLimitError} when `session` holds (or is opening) as many subscriptions as it may. */
  checkRoom(session: S): void {
    const count = this.subscriptionCount(session) + (this.#opening.get(session) ?? 0);
    if (count >= this.#max) throw new SubscriptionLimitError(this.#max);
  }

  /**
   * Subscribes `session` to `item` of `source`: nothing when it holds it already; a
   * {@link SubscriptionLimitError} when it holds its most; else `open` runs first when no session
   * held the item yet (to subscribe at the source; it counts against the cap meanwhile), and the
   * subscription is noted once it resolved; false when the session was removed meanwhile (nothing noted).
   */
  async subscribe(session: S, source: string, item: string, open: () => Promise<unknown>): Promise<boolean> {
    const held = this.#sessionHeld(session);
    if (held.get(source)?.has(item)) return true;
    this.checkRoom(session);
    if (!this.isSubscribed(source, item)) {
      this.#opening.set(session, (this.#opening.get(session) ?? 0) + 1);
      try {
        await open();
      } finally {
        const left = this.#opening.get(session)! - 1;
        if (left > 0) this.#opening.set(session, left);
        else this.#opening.delete(session);
      }
    }
    if (this.#held.get(session) !== held) return false;
    const items = held.get(source) ?? new Set<string>();
    held.set(source, items.add(item));
    return true;
  }

  /** Ends `session`'s subscription; true when it held it and no session holds it now (end it at the source). */
  unsubscribe(session: S, source: string, item: string): boolean {
    const items = this.#held.get(session)?.get(source);
    if (!items?.delete(item)) return false;
    if (items.size === 0) this.#held.get(session)!.delete(source);
    return !this.isSubscribed(source, item);
  }

  /** Whether any session holds a subscription to `item` of `source`. */
  isSubscribed(source: string, item: string): boolean {
    for (const held of this.#held.values()) if (held.get(source)?.has(item)) return true;
    return false;
  }

  /** The sessions subscribed to `item` of `source` (whom its updates go to). */
  subscribers(source: string, item: string): S[] {
    return this.sessions().filter((session) => this.holds(session, source, item));
  }

  /**
   * After `source` (re)started it forgot what it was asked: forgets the level set on it, and returns
   * the items any session is subscribed to there, to subscribe again.
   */
  sourceRestarted(source: string): string[] {
    this.#applied.delete(source);
    const items = new Set<string>();
    for (const held of this.#held.values()) for (const item of held.get(source) ?? []) items.add(item);
    return [...items];
  }

  /** Sets the least severe level whose messages `session` gets; a level not in {@link LOG_LEVELS} is refused. */
  setLogLevel(session: S, level: SourceLogLevel): void {
    if (!LOG_LEVELS.includes(level)) {
      throw new InvalidArgumentError(
        'level',
        `Unknown log level ${JSON.stringify(level)}: one of ${LOG_LEVELS.join(', ')}.`,
      );
    }
    this.#sessionHeld(session);
    this.#levels.set(session, level);
  }

  /** The level `session` asked for; undefined: it gets no log messages. */
  logLevel(session: S): SourceLogLevel | undefined {
    return this.#levels.get(session);
  }

  /** Whether a message at `level` reaches `session` (it asked for that level or a more detailed one). */
  hears(session: S, level: SourceLogLevel): boolean {
    const asked = this.#levels.get(session);
    return asked !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(asked);
  }

  /** The most detailed level any session asked for; undefined when none did. */
  wantedLogLevel(): SourceLogLevel | undefined {
    let wanted: number | undefined;
    for (const level of this.#levels.values()) {
      const at = LOG_LEVELS.indexOf(level);
      if (wanted === undefined || at < wanted) wanted = at;
    }
    return wanted === undefined ? undefined : LOG_LEVELS[wanted];
  }

  /**
   * The level to set on `source`: the wanted one, unless none is wanted or it is already set there
   * (`force`: set it even so). Note it with {@link logLevelSet} once the source took it.
   */
  logLevelFor(source: string, force = false): SourceLogLevel | undefined {
    const level = this.wantedLogLevel();
    if (level === undefined || (!force && this.#applied.get(source) === level)) return undefined;
    return level;
  }

  /** Notes that `source` took `level`. */
  logLevelSet(source: string, level: SourceLogLevel): void {
    this.#applied.set(source, level);
  }

  #sessionHeld(session: S): Map<string, Set<string>> {
    const held = this.#held.get(session);
    if (!held) throw new InvalidArgumentError('session', 'This session was not added (or was removed): add it first.');
    return held;
  }
}
