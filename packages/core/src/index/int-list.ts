/**
 * A growable list of 32-bit integers: `values[0, length)`. Reused or filled in bulk, it spares hot
 * code the garbage of plain arrays (whose pushes keep spare room and whose `length = 0` drops it).
 */
export class IntList {
  values: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.values = new Int32Array(Math.max(1, capacity));
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Int32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }
}
