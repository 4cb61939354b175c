import { InvalidOptionError } from '../errors.js';
import { describeValue } from '../values.js';

/**
 * An async task that runs one at a time, with requests coalesced: a request while it runs makes
 * exactly one more run after it, however many came. A failed run is reported to `onError` and never
 * thrown, so a request can be fired and forgotten.
 *
 * ```ts
 * const relist = new CoalescedTask(() => mirrorTools(), (error) => log.warn(`re-listing failed: ${error}`));
 * source.onListChanged(() => relist.request());
 * ```
 */
export class CoalescedTask {
  readonly #run: () => Promise<void>;
  readonly #onError: (error: unknown) => void;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(run: () => Promise<void> | void, onError: (error: unknown) => void) {
    if (typeof run !== 'function') {
      throw new InvalidOptionError('run', `A coalesced task needs a function to run, got ${describeValue(run)}.`);
    }
    if (typeof onError !== 'function') {
      throw new InvalidOptionError(
        'onError',
        `A coalesced task needs an onError function (its failures are reported, never thrown), got ${describeValue(onError)}.`,
      );
    }
    this.#run = async () => run();
    this.#onError = onError;
  }

  /** Whether a run is under way (or about to start again). */
  get running(): boolean {
    return this.#running !== undefined;
  }

  /**
   * Starts a run now (synchronously), or, while one runs, asks for exactly one more after it.
   * Resolves once the runs that cover this request are over; never rejects.
   */
  request(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    // The run starts now and awaits at least once, so the loop cannot end before it is recorded.
    this.#running = this.#loop();
    return this.#running;
  }

  /** Resolves once the run under way, if any, and the one more it was asked for are over. */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#run();
      } catch (error) {
        this.#report(error);
      }
    } while (this.#again);
    this.#running = undefined;
  }

  #report(error: unknown): void {
    try {
      this.#onError(error);
    } catch {
      // The reporter itself failed: the task must stay usable, and a request never rejects.
    }
  }
}
