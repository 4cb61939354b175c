/** A session as routing sees it: its requests to a source still in progress, the latest last. */
export interface CallingSession<C> {
  callsTo(source: string): readonly C[];
}

/** The requests of one session to its sources that are in progress, each noted until it is done. */
export class CallsInProgress<C> {
  readonly #calls: { source: string; call: C }[] = [];

  /** Notes `call` to `source` as in progress; the function returned notes it done. */
  start(source: string, call: C): () => void {
    const entry = { source, call };
    this.#calls.push(entry);
    return () => {
      const at = this.#calls.indexOf(entry);
      if (at >= 0) this.#calls.splice(at, 1);
    };
  }

  /** The calls to `source` in progress, the latest last. */
  to(source: string): C[] {
    return this.#calls.filter((entry) => entry.source === source).map((entry) => entry.call);
  }
}

/**
 * Where a source's own request goes: a session (and its latest call to that source, when one is in
 * progress), or none, with how many sessions wait on the source and how many there are.
 */
export type SessionRoute<S, C> = { session: S; call?: C } | { session?: undefined; waiting: number; sessions: number };

/**
 * The session a request of `source` is for: the one session with a call to it in progress, or, with
 * none and `soleSession` (sessions are served one at a time), the only session; never a guess.
 */
export function routeToSession<S extends CallingSession<C>, C>(
  sessions: Iterable<S>,
  source: string,
  soleSession = false,
): SessionRoute<S, C> {
  const all = [...sessions];
  const waiting = all.filter((session) => session.callsTo(source).length > 0);
  if (waiting.length === 1) {
    const session = waiting[0]!;
    const call = session.callsTo(source).at(-1);
    return call === undefined ? { session } : { session, call };
  }
  if (waiting.length === 0 && soleSession && all.length === 1) return { session: all[0]! };
  return { waiting: waiting.length, sessions: all.length };
}

/**
 * Who may see a message of `source` about no request in particular (a log line): the session with
 * a call to it in progress, every session when none has one, and none when several have (the
 * message may be about any of their calls); `waiting` counts those.
 */
export function audienceOf<S extends CallingSession<unknown>>(
  sessions: Iterable<S>,
  source: string,
): { sessions: S[]; waiting: number } {
  const all = [...sessions];
  const waiting = all.filter((session) => session.callsTo(source).length > 0);
  if (waiting.length <= 1) return { sessions: waiting.length === 1 ? waiting : all, waiting: waiting.length };
  return { sessions: [], waiting: waiting.length };
}
