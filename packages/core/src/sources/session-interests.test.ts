import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import {
  LOG_LEVELS,
  MAX_SUBSCRIPTIONS_PER_SESSION,
  SessionInterests,
  type SourceLogLevel,
} from './session-interests.js';
import { SubscriptionLimitError } from './source-errors.js';

/** A session as a caller keeps it: any object. */
const session = (name: string) => ({ name });

describe('SessionInterests: subscriptions', () => {
  it('opens a subscription at the source for its first holder only, and ends it with its last', async () => {
    const interests = new SessionInterests<{ name: string }>();
    const [a, b] = [session('a'), session('b')];
    interests.addSession(a);
    interests.addSession(b);
    const opened: string[] = [];
    const open = (what: string) => async () => opened.push(what);
    await interests.subscribe(a, 'files', 'file:///x', open('a'));
    await interests.subscribe(b, 'files', 'file:///x', open('b'));
    await interests.subscribe(a, 'files', 'file:///x', open('a again'));
    expect(opened).toEqual(['a']);
    expect(interests.subscribers('files', 'file:///x')).toEqual([a, b]);
    expect(interests.holds(a, 'files', 'file:///x')).toBe(true);
    expect(interests.holds(a, 'other', 'file:///x')).toBe(false);
    expect(interests.unsubscribe(a, 'files', 'file:///x')).toBe(false);
    expect(interests.unsubscribe(a, 'files', 'file:///x')).toBe(false);
    expect(interests.isSubscribed('files', 'file:///x')).toBe(true);
    expect(interests.unsubscribe(b, 'files', 'file:///x')).toBe(true);
    expect(interests.isSubscribed('files', 'file:///x')).toBe(false);
    expect(interests.subscribers('files', 'file:///x')).toEqual([]);
  });

  it('notes nothing when opening at the source fails', async () => {
    const interests = new SessionInterests<{ name: string }>();
    const a = session('a');
    interests.addSession(a);
    await expect(
      interests.subscribe(a, 'files', 'file:///x', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(interests.holds(a, 'files', 'file:///x')).toBe(false);
    expect(interests.subscriptionCount(a)).toBe(0);
  });

  it('caps the subscriptions of one session, not of all', async () => {
    const interests = new SessionInterests<{ name: string }>({ maxSubscriptionsPerSession: 2 });
    const [a, b] = [session('a'), session('b')];
    interests.addSession(a);
    interests.addSession(b);
    const open = async () => {};
    await interests.subscribe(a, 's', '1', open);
    await interests.subscribe(a, 't', '1', open);
    expect(interests.subscriptionCount(a)).toBe(2);
    expect(() => interests.checkRoom(a)).toThrow(SubscriptionLimitError);
    await expect(interests.subscribe(a, 's', '3', open)).rejects.toThrow(
      'Too many subscriptions: a session may hold 2; unsubscribe from some first.',
    );
    // One it holds already is no new one.
    await interests.subscribe(a, 's', '1', open);
    await interests.subscribe(b, 's', '3', open);
    interests.unsubscribe(a, 's', '1');
    await interests.subscribe(a, 's', '3', open);
    expect(interests.subscriptionCount(a)).toBe(2);
    expect(new SessionInterests().maxSubscriptionsPerSession).toBe(MAX_SUBSCRIPTIONS_PER_SESSION);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => new SessionInterests({ maxSubscriptionsPerSession: bad })).toThrow(InvalidOptionError);
    }
  });

  it('counts subscriptions still opening at their sources against the cap', async () => {
    const interests = new SessionInterests<{ name: string }>({ maxSubscriptionsPerSession: 2 });
    const a = session('a');
    interests.addSession(a);
    const waits: (() => void)[] = [];
    const slow = () => new Promise<void>((resolve) => waits.push(resolve));
    const first = interests.subscribe(a, 's', '1', slow);
    const second = interests.subscribe(a, 's', '2', slow);
    // A third sent before the first two were answered is refused, not let past the cap.
    await expect(interests.subscribe(a, 's', '3', slow)).rejects.toThrow(SubscriptionLimitError);
    expect(waits).toHaveLength(2);
    for (const resolve of waits) resolve();
    await Promise.all([first, second]);
    expect(interests.subscriptionCount(a)).toBe(2);
    // A failed opening gives its place back.
    interests.unsubscribe(a, 's', '2');
    await expect(
      interests.subscribe(a, 's', '4', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await interests.subscribe(a, 's', '5', async () => {});
    expect(interests.subscriptionCount(a)).toBe(2);
  });

  it('notes nothing for a session removed while its subscription was opening', async () => {
    const interests = new SessionInterests<{ name: string }>();
    const a = session('a');
    interests.addSession(a);
    let resolve = () => {};
    const opening = interests.subscribe(a, 's', 'x', () => new Promise<void>((r) => (resolve = r)));
    expect(interests.removeSession(a)).toEqual([]);
    resolve();
    expect(await opening).toBe(false);
    // No one holds it: the caller ends it at the source.
    expect(interests.isSubscribed('s', 'x')).toBe(false);
    expect(interests.sessions()).toEqual([]);
  });

  it('gives back, when a session goes, what no one else holds', async () => {
    const interests = new SessionInterests<{ name: string }>();
    const [a, b] = [session('a'), session('b')];
    interests.addSession(a);
    interests.addSession(b);
    const open = async () => {};
    await interests.subscribe(a, 's', 'shared', open);
    await interests.subscribe(b, 's', 'shared', open);
    await interests.subscribe(a, 's', 'mine', open);
    await interests.subscribe(a, 't', 'mine', open);
    expect(interests.removeSession(a)).toEqual([
      { source: 's', name: 'mine' },
      { source: 't', name: 'mine' },
    ]);
    expect(interests.sessions()).toEqual([b]);
    expect(interests.removeSession(a)).toEqual([]);
    expect(interests.removeSession(b)).toEqual([{ source: 's', name: 'shared' }]);
  });

  it('says what to subscribe again at a source that restarted, once per item', async () => {
    const interests = new SessionInterests<{ name: string }>();
    const [a, b] = [session('a'), session('b')];
    interests.addSession(a);
    interests.addSession(b);
    const open = async () => {};
    await interests.subscribe(a, 's', 'x', open);
    await interests.subscribe(b, 's', 'x', open);
    await interests.subscribe(b, 's', 'y', open);
    await interests.subscribe(b, 't', 'z', open);
    expect(interests.sourceRestarted('s')).toEqual(['x', 'y']);
    expect(interests.sourceRestarted('none')).toEqual([]);
  });

  it('refuses a session it does not keep', async () => {
    const interests = new SessionInterests<{ name: string }>();
    const stranger = session('x');
    await expect(interests.subscribe(stranger, 's', 'x', async () => {})).rejects.toThrow(InvalidArgumentError);
    expect(() => interests.setLogLevel(stranger, 'info')).toThrow(/not added/);
    expect(interests.unsubscribe(stranger, 's', 'x')).toBe(false);
  });
});

describe('SessionInterests: log levels', () => {
  it('wants the most detailed level any session asked for, and forgets a session that went', () => {
    const interests = new SessionInterests<{ name: string }>();
    const [a, b] = [session('a'), session('b')];
    interests.addSession(a);
    interests.addSession(b);
    expect(interests.wantedLogLevel()).toBeUndefined();
    interests.setLogLevel(a, 'error');
    interests.setLogLevel(b, 'info');
    expect(interests.wantedLogLevel()).toBe('info');
    interests.setLogLevel(b, 'critical');
    expect(interests.wantedLogLevel()).toBe('error');
    interests.removeSession(a);
    expect(interests.wantedLogLevel()).toBe('critical');
    expect(interests.logLevel(a)).toBeUndefined();
  });

  it('says which messages reach a session', () => {
    const interests = new SessionInterests<{ name: string }>();
    const [a, quiet] = [session('a'), session('quiet')];
    interests.addSession(a);
    interests.addSession(quiet);
    interests.setLogLevel(a, 'warning');
    const heard = LOG_LEVELS.filter((level) => interests.hears(a, level));
    expect(heard).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
    expect(LOG_LEVELS.some((level) => interests.hears(quiet, level))).toBe(false);
  });

  it('sets a level once per source until the source restarts or the wanted level changes', () => {
    const interests = new SessionInterests<{ name: string }>();
    const a = session('a');
    interests.addSession(a);
    expect(interests.logLevelFor('s')).toBeUndefined();
    interests.setLogLevel(a, 'info');
    expect(interests.logLevelFor('s')).toBe('info');
    interests.logLevelSet('s', 'info');
    expect(interests.logLevelFor('s')).toBeUndefined();
    expect(interests.logLevelFor('s', true)).toBe('info');
    expect(interests.logLevelFor('t')).toBe('info');
    interests.setLogLevel(a, 'debug');
    expect(interests.logLevelFor('s')).toBe('debug');
    interests.logLevelSet('s', 'debug');
    interests.sourceRestarted('s');
    expect(interests.logLevelFor('s')).toBe('debug');
  });

  it('refuses a level it does not know', () => {
    const interests = new SessionInterests<{ name: string }>();
    const a = session('a');
    interests.addSession(a);
    expect(() => interests.setLogLevel(a, 'verbose' as SourceLogLevel)).toThrow(
      'Unknown log level "verbose": one of debug, info, notice, warning, error, critical, alert, emergency.',
    );
  });
});
