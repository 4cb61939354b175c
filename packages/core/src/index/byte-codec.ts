// The building blocks of the binary saved index (see `binary-index.ts`): unsigned integers as
// variable-length bytes (7 bits a byte, low bits first), floats as 8-byte IEEE 754, and strings as
// one UTF-8 block read back as one string that each string is a slice of.

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Writes unsigned integers, floats and strings into a buffer that grows as needed. */
export class ByteWriter {
  #bytes = new Uint8Array(1 << 16);
  #length = 0;
  readonly #floats: number[] = [];
  readonly #strings: string[] = [];

  #room(more: number): void {
    if (this.#length + more <= this.#bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.#length + more, this.#bytes.length * 2));
    bigger.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = bigger;
  }

  /** An integer from 0 to 2^53 - 1. */
  uint(value: number): void {
    this.#room(8);
    const bytes = this.#bytes;
    let rest = value;
    while (rest >= 0x80) {
      bytes[this.#length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    bytes[this.#length++] = rest;
  }

  /** A number of any value, kept to the bit (in the float block). */
  float(value: number): void {
    this.#floats.push(value);
  }

  /** A string (in the string block); its length in UTF-16 units is written here. */
  string(value: string): void {
    this.#strings.push(value);
    this.uint(value.length);
  }

  /**
   * The three blocks: the variable-length integers, the floats (as a Float64Array's bytes) and the
   * strings (UTF-8).
   */
  finish(): { varints: Uint8Array; floats: Uint8Array; strings: Uint8Array } {
    return {
      varints: this.#bytes.subarray(0, this.#length),
      floats: new Uint8Array(Float64Array.from(this.#floats).buffer),
      strings: encoder.encode(this.#strings.join('')),
    };
  }
}

/** Thrown by a {@link ByteReader} on data that ends early or does not decode. */
export class ByteDataError extends Error {}

/**
 * Reads what a {@link ByteWriter} wrote, in the same order: every read is bounds-checked and
 * throws a {@link ByteDataError} past the end.
 */
export class ByteReader {
  readonly #bytes: Uint8Array;
  #at = 0;
  readonly #floats: Float64Array;
  #floatAt = 0;
  readonly #text: string;
  #textAt = 0;

  constructor(varints: Uint8Array, floats: Float64Array, strings: Uint8Array) {
    this.#bytes = varints;
    this.#floats = floats;
    try {
      this.#text = decoder.decode(strings);
    } catch (error) {
      throw new ByteDataError(`its strings are not UTF-8 (${String(error)})`);
    }
  }

  /** The next integer (at most 2^53 - 1). */
  uint(): number {
    const bytes = this.#bytes;
    let at = this.#at;
    let byte = bytes[at++];
    if (byte === undefined) throw new ByteDataError('its numbers end early');
    if (byte < 0x80) {
      this.#at = at;
      return byte;
    }
    let value = byte & 0x7f;
    let scale = 0x80;
    for (;;) {
      byte = bytes[at++];
      if (byte === undefined) throw new ByteDataError('its numbers end early');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
      if (scale > 2 ** 53) throw new ByteDataError('a number is too large');
    }
    this.#at = at;
    return value;
  }

  /**
   * The next integer, a count of things that take at least one byte each of what is left: a
   * larger one (which would make a loader allocate for nothing) is an error naming `what`.
   */
  count(what: string): number {
    const value = this.uint();
    if (value > this.#bytes.length - this.#at) {
      throw new ByteDataError(
        `${what} is ${value}, more than its ${this.#bytes.length - this.#at} bytes left can hold`,
      );
    }
    return value;
  }

  /** Where the next integer is read (a position in the integer block). */
  get position(): number {
    return this.#at;
  }

  set position(at: number) {
    this.#at = at;
  }

  /**
   * Checks the next `size` integers as {@link ByteReader.ascending} reads them, without keeping
   * them: adds one to `counts[value * stride + offset]` for each value.
   */
  checkAscending(size: number, limit: number, counts: Int32Array, stride: number, offset: number): void {
    const bytes = this.#bytes;
    let at = this.#at;
    let value = -1;
    for (let i = 0; i < size; i++) {
      let byte = bytes[at++];
      let gap: number;
      // (gaps of one or two bytes, most of them, read without the general loop)
      const next = bytes[at];
      if (byte !== undefined && byte < 0x80) gap = byte;
      else if (byte !== undefined && next !== undefined && next < 0x80) {
        gap = (byte & 0x7f) | (next << 7);
        at += 1;
      } else {
        gap = byte! & 0x7f;
        let shift = 7;
        while (byte !== undefined && byte >= 0x80 && shift < 35) {
          byte = bytes[at++];
          gap += (byte! & 0x7f) * 2 ** shift;
          shift += 7;
        }
        if (byte === undefined || byte >= 0x80) throw new ByteDataError('its numbers end early or overflow');
      }
      value += gap + 1;
      if (value >= limit) throw new ByteDataError(`a list has ${value}, expected below ${limit}`);
      counts[value * stride + offset]! += 1;
    }
    this.#at = at;
  }

  /** Skips the next `size` integers (checking that they are there and fit in 53 bits). */
  skip(size: number): void {
    const bytes = this.#bytes;
    let at = this.#at;
    for (let i = 0; i < size; i++) {
      if (bytes[at]! < 0x80) at += 1;
      else {
        this.#at = at;
        this.uint();
        at = this.#at;
      }
    }
    if (at > bytes.length) throw new ByteDataError('its numbers end early');
    this.#at = at;
  }

  /**
   * The next `size` integers as gaps of an ascending list (each the distance to the one before,
   * less one; the first the value itself), written to `values` from `offset`: the list, whose
   * values must be below `limit`.
   */
  ascending(size: number, limit: number, values: Int32Array, offset: number): void {
    const bytes = this.#bytes;
    let at = this.#at;
    let value = -1;
    for (let i = 0; i < size; i++) {
      let byte = bytes[at++];
      let gap = byte! & 0x7f;
      let shift = 7;
      while (byte !== undefined && byte >= 0x80 && shift < 35) {
        byte = bytes[at++];
        gap += (byte! & 0x7f) * 2 ** shift;
        shift += 7;
      }
      if (byte === undefined || byte >= 0x80) throw new ByteDataError('its numbers end early or overflow');
      value += gap + 1;
      if (value >= limit) throw new ByteDataError(`a list has ${value}, expected below ${limit}`);
      values[offset + i] = value;
    }
    this.#at = at;
  }

  /**
   * The next `size` integers, each plus one (small counts from 1 up, as {@link ByteWriter} wrote them
   * less one), written to `values` from `offset`.
   */
  plusOne(size: number, values: Int32Array, offset: number): void {
    const bytes = this.#bytes;
    let at = this.#at;
    for (let i = 0; i < size; i++) {
      const byte = bytes[at];
      if (byte !== undefined && byte < 0x80) {
        values[offset + i] = byte + 1;
        at += 1;
      } else {
        this.#at = at;
        values[offset + i] = this.uint() + 1;
        at = this.#at;
      }
    }
    this.#at = at;
  }

  /** The next integer, which must be below `limit`; else `what` names it in the error. */
  below(limit: number, what: string): number {
    const value = this.uint();
    if (value >= limit) throw new ByteDataError(`${what} is ${value}, expected below ${limit}`);
    return value;
  }

  /** The next float. */
  float(): number {
    const value = this.#floats[this.#floatAt++];
    if (value === undefined) throw new ByteDataError('its floats end early');
    return value;
  }

  /** The next string (its length read here). */
  string(): string {
    const length = this.uint();
    const end = this.#textAt + length;
    if (end > this.#text.length) throw new ByteDataError('its strings end early');
    const value = this.#text.slice(this.#textAt, end);
    this.#textAt = end;
    return value;
  }

  /** Where the next string starts (a position in the string block's text). */
  get textPosition(): number {
    return this.#textAt;
  }

  /** Skips the next string (its length read here), making no string of it. */
  skipString(): void {
    const end = this.#textAt + this.uint();
    if (end > this.#text.length) throw new ByteDataError('its strings end early');
    this.#textAt = end;
  }

  /** The text between two positions of the string block (as {@link ByteReader.textPosition} gave them). */
  text(start: number, end: number): string {
    return this.#text.slice(start, end);
  }

  /** Throws unless every block was read to its end. */
  end(): void {
    if (
      this.#at !== this.#bytes.length ||
      this.#floatAt !== this.#floats.length ||
      this.#textAt !== this.#text.length
    ) {
      throw new ByteDataError('it has data beyond its content');
    }
  }
}
