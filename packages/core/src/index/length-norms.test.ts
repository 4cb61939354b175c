import { describe, expect, it } from 'vitest';
import { lengthNorms } from './length-norms.js';

describe('lengthNorms', () => {
  const k1 = 1.2;
  const b = 0.7;
  const formula = (length: number, average: number) => k1 * (1 - b + (b * length) / average);

  it('gives every document the norm the formula gives its length, to the bit, documents of one length sharing a class', () => {
    const lengths = [3, undefined, 7, 3, 0, 12, 7];
    const { classOf, norm } = lengthNorms(lengths.length, (doc) => lengths[doc], k1, b, 4.6);
    expect(classOf).toBeInstanceOf(Uint16Array);
    lengths.forEach((length, doc) => {
      expect(norm[classOf[doc]!]).toBe(length === undefined ? 0 : formula(length, 4.6));
    });
    expect(classOf[0]).toBe(classOf[3]);
    expect(classOf[2]).toBe(classOf[6]);
    expect(norm).toHaveLength(5); // (no document, and the 4 distinct lengths)
  });

  it('keeps a class of 4 bytes per document when a field has more than 65,536 distinct lengths', () => {
    const size = 70_000;
    const { classOf, norm } = lengthNorms(size, (doc) => doc, k1, b, 35_000);
    expect(classOf).toBeInstanceOf(Uint32Array);
    for (const doc of [0, 1, 65_535, 65_536, 69_999]) expect(norm[classOf[doc]!]).toBe(formula(doc, 35_000));
  });
});
