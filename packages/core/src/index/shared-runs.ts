// The term numbers of strings that many tools share, memoised for index builds.
import { IntList } from './int-list.js';
import { onTermNumbersTrimmed, tokenizeInto } from './term-numbers.js';

/**
 * The term numbers of strings that many tools share (parameter names and descriptions, tags,
 * sources): each string's run once, all runs one after another in one buffer, found by string;
 * starts over when it grows too big. Only strings of up to {@link MAX_SHARED_STRING_LENGTH}
 * characters are kept: longer ones are seldom shared, and the memo would keep them alive after
 * their tools are gone. (One buffer, not an array per string: 15,000 strings of a 10,000-tool
 * catalog made as many arrays to allocate and for the collector to move.)
 */
class SharedRuns {
  /** Each kept string's run number. */
  readonly #numbers = new Map<string, number>();
  /** The runs, one after another, and where each starts (the last one ends at the buffer's end). */
  #terms = new IntList(1 << 14);
  #starts = new IntList(1 << 10);
  /** A long string's terms (not kept). */
  readonly #long = new IntList(1024);
  /** Where the run last found starts and ends in {@link SharedRuns.find}'s array. */
  start = 0;
  end = 0;

  /**
   * Finds (or makes) the run of `text`; returns the array that holds it from {@link start} to
   * {@link end}, valid until the next call (never change it).
   */
  find(text: string): Int32Array {
    if (text.length > MAX_SHARED_STRING_LENGTH) {
      this.#long.length = 0;
      tokenizeInto(text, this.#long);
      this.start = 0;
      this.end = this.#long.length;
      return this.#long.values;
    }
    let number = this.#numbers.get(text);
    if (number === undefined) {
      if (this.#numbers.size >= MAX_SHARED_STRINGS) this.clear();
      number = this.#starts.length;
      this.#starts.push(this.#terms.length);
      tokenizeInto(text, this.#terms);
      this.#numbers.set(text, number);
    }
    const starts = this.#starts;
    this.start = starts.values[number]!;
    this.end = number + 1 < starts.length ? starts.values[number + 1]! : this.#terms.length;
    return this.#terms.values;
  }

  clear(): void {
    this.#numbers.clear();
    this.#terms = new IntList(1 << 14);
    this.#starts = new IntList(1 << 10);
  }
}

const MAX_SHARED_STRINGS = 100_000;
const MAX_SHARED_STRING_LENGTH = 1_000;

/** The runs of shared strings (one, reused: nothing here re-enters). */
export const sharedRuns = new SharedRuns();

onTermNumbersTrimmed(() => sharedRuns.clear());
