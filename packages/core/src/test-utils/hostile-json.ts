// Arbitraries of untrusted JSON for property tests: JSON text whose objects may hold keys such as
// `__proto__` as their own (JSON.parse makes them own data properties, as a server's response would).
import fc from 'fast-check';

/** Keys that mean something to JavaScript objects. */
export const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;

/** A key: a hostile one, or a short arbitrary string (lone surrogates included). */
export const anyKey = fc.oneof(
  fc.constantFrom(...HOSTILE_KEYS),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 3 }),
);

/** JSON text of an object with these entries, in order (a `__proto__` entry stays an entry). */
export function objectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;
}

/** JSON text of an arbitrary value, with hostile keys in its objects and `{"polluted":true}` among its values. */
export const hostileJsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }).map((value) => JSON.stringify(value) ?? 'null'),
    fc.constant('{"polluted":true}'),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(anyKey, tie('value')), { maxLength: 4 }).map(objectText),
  ),
})).value;

/** Whether anything reached `Object.prototype` (a polluted prototype shows on every object). */
export function prototypePolluted(): boolean {
  const probe = {} as Record<string, unknown>;
  return probe.polluted !== undefined || Object.keys(Object.prototype).length > 0;
}
