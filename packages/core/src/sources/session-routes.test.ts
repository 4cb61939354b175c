import { describe, expect, it } from 'vitest';
import { audienceOf, CallsInProgress, routeToSession } from './session-routes.js';

/** A session with its calls in progress, as a gateway keeps one. */
class Session {
  readonly calls = new CallsInProgress<number>();
  constructor(readonly name: string) {}
  callsTo(source: string): number[] {
    return this.calls.to(source);
  }
}

describe('CallsInProgress', () => {
  it('keeps calls per source, the latest last, until each is done (twice done is once)', () => {
    const calls = new CallsInProgress<number>();
    const done1 = calls.start('github', 1);
    calls.start('github', 2);
    calls.start('memory', 3);
    expect(calls.to('github')).toEqual([1, 2]);
    done1();
    done1();
    expect(calls.to('github')).toEqual([2]);
    expect(calls.to('memory')).toEqual([3]);
    expect(calls.to('none')).toEqual([]);
  });
});

describe('routeToSession', () => {
  it('is the one session with a call to the source in progress, with its latest call', () => {
    const [a, b] = [new Session('a'), new Session('b')];
    a.calls.start('github', 1);
    const done = a.calls.start('github', 2);
    b.calls.start('memory', 3);
    expect(routeToSession([a, b], 'github')).toEqual({ session: a, call: 2 });
    done();
    expect(routeToSession([a, b], 'github')).toEqual({ session: a, call: 1 });
    expect(routeToSession([a, b], 'memory', true)).toEqual({ session: b, call: 3 });
  });

  it('is the sole session, with no call in progress, only when sessions are served one at a time', () => {
    const only = new Session('only');
    expect(routeToSession([only], 'github', true)).toEqual({ session: only });
    expect(routeToSession([only], 'github')).toEqual({ waiting: 0, sessions: 1 });
    expect(routeToSession([new Session('a'), new Session('b')], 'github', true)).toEqual({ waiting: 0, sessions: 2 });
    expect(routeToSession([], 'github', true)).toEqual({ waiting: 0, sessions: 0 });
  });

  it('never guesses between two sessions waiting on the source', () => {
    const [a, b, c] = [new Session('a'), new Session('b'), new Session('c')];
    a.calls.start('github', 1);
    b.calls.start('github', 2);
    expect(routeToSession([a, b, c], 'github', true)).toEqual({ waiting: 2, sessions: 3 });
  });
});

describe('audienceOf', () => {
  it('is the waiting session, everyone when none waits, and no one when several do', () => {
    const [a, b] = [new Session('a'), new Session('b')];
    expect(audienceOf([a, b], 'github')).toEqual({ sessions: [a, b], waiting: 0 });
    const done = a.calls.start('github', 1);
    expect(audienceOf([a, b], 'github')).toEqual({ sessions: [a], waiting: 1 });
    b.calls.start('github', 2);
    expect(audienceOf([a, b], 'github')).toEqual({ sessions: [], waiting: 2 });
    done();
    expect(audienceOf([a, b], 'github')).toEqual({ sessions: [b], waiting: 1 });
    expect(audienceOf([], 'github')).toEqual({ sessions: [], waiting: 0 });
  });
});
