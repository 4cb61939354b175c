// The term numbers of strings that many tools share, memoised for index builds.
import { IntList } from './int-list.js';
import { onTermNumbersTrimmed, tokenizeInto } from './term-numbers.js';

/**
 * The term numbers of strings that many tools share (parameter names and descriptions, tags,
 * sources): each string's run once, all runs one after another in one buffer, found by string;
 * starts over when it grows too big. Only strings of {@link MIN_SHARED_STRING_LENGTH} to
 * {@link MAX_SHARED_STRING_LENGTH} characters are kept: shorter ones are tokenised again each time, which
 * costs less than keeping them (measured: a 10k build's CPU 2-9% lower), and longer ones are seldom
 * shared, and the memo would keep them alive after their tools are gone. (One buffer, not an array
 * per string: 15,000 strings of a 10,000-tool catalog made as many arrays to allocate and for the
 * collector to move.)
 */
class SharedRuns {
  /** Each kept string's run number. */
  readonly #numbers = new Map<string, number>();
  /** The runs, one after another, and where each starts (the last one ends at the buffer's end). */
  #terms = new IntList(1 << 14);
  #starts = new IntList(1 << 10);
  /** A short or long string's terms (not kept). */
  readonly #unkept = new IntList(1024);
  /** Where the run last found starts and ends in {@link SharedRuns.find}'s array. */
  start = 0;
  end = 0;

  /**
   * Finds (or makes) the run of `text`; returns the array that holds it from {@link start} to
   * {@link end}, valid until the next call (never change it).
   */
  find(text: string): Int32Array {
    if (text.length > MAX_SHARED_STRING_LENGTH || text.length < MIN_SHARED_STRING_LENGTH) {
      this.#unkept.length = 0;
      tokenizeInto(text, this.#unkept);
      this.start = 0;
      this.end = this.#unkept.length;
      return this.#unkept.values;
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
const MIN_SHARED_STRING_LENGTH = 200;

/** The runs of shared strings (one, reused: nothing here re-enters). */
export const sharedRuns = new SharedRuns();

onTermNumbersTrimmed(() => sharedRuns.clear());
