// The errors of live sources (`@toolscout/core/sources`): one class per code, as in ../errors.ts.
import { checkFor, markerOf, ToolscoutError } from '../errors.js';

/** A live source (a server, an API) that is not connected: `statusReason` says why, `retryHint` when to try again. */
export class SourceUnavailableError extends ToolscoutError {
  static override readonly marker = markerOf('SourceUnavailableError');
  static override readonly isInstance = checkFor<SourceUnavailableError>(SourceUnavailableError.marker);

  constructor(
    readonly source: string,
    readonly statusReason: string,
    readonly retryHint: string,
  ) {
    super('source-unavailable', `Source "${source}" is unavailable (${statusReason}); ${retryHint}.`);
  }
}

/** Why a page cursor was refused: too long, not one a listing gave, another list's, or past the sources. */
export type CursorProblem = 'too-long' | 'unreadable' | 'other-list' | 'out-of-range';

/** A page cursor that the listing did not give for this list; `reason` says why in words. */
export class InvalidCursorError extends ToolscoutError {
  static override readonly marker = markerOf('InvalidCursorError');
  static override readonly isInstance = checkFor<InvalidCursorError>(InvalidCursorError.marker);

  constructor(
    readonly list: string,
    readonly problem: CursorProblem,
    readonly reason: string,
  ) {
    super(
      'invalid-cursor',
      `Unknown cursor for the ${list} list (${reason}): use the nextCursor of the previous page, or none for the first page.`,
    );
  }
}

/** A subscription past the most one session may hold (`limit`); nothing was subscribed. */
export class SubscriptionLimitError extends ToolscoutError {
  static override readonly marker = markerOf('SubscriptionLimitError');
  static override readonly isInstance = checkFor<SubscriptionLimitError>(SubscriptionLimitError.marker);

  constructor(readonly limit: number) {
    super('subscription-limit', `Too many subscriptions: a session may hold ${limit}; unsubscribe from some first.`);
  }
}
