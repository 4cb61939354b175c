import { describe, expect, it } from 'vitest';
import { withInstructions } from './system-instructions.js';

const OURS = 'To discover available tools, call search_tools with a keyword query.';

describe('withInstructions', () => {
  it("appends the session's instructions after the host's own, whatever their form", () => {
    const ours = { role: 'system', content: OURS };
    expect(withInstructions(undefined, OURS)).toEqual([ours]);
    expect(withInstructions('You are terse.', OURS)).toEqual([{ role: 'system', content: 'You are terse.' }, ours]);
    const own = { role: 'system' as const, content: 'You are terse.', providerOptions: { x: { cache: true } } };
    expect(withInstructions(own, OURS)).toEqual([own, ours]);
    expect(withInstructions([own, own], OURS)).toEqual([own, own, ours]);
  });

  it('adds them once when the host hands back the last step’s messages', () => {
    const first = withInstructions('You are terse.', OURS) as { role: 'system'; content: string }[];
    expect(withInstructions(first, OURS)).toEqual(first);
  });

  it("keeps the host's own as they are without instructions", () => {
    const own = [{ role: 'system' as const, content: 'You are terse.' }];
    expect(withInstructions(own, undefined)).toBe(own);
    expect(withInstructions('You are terse.', undefined)).toBe('You are terse.');
    expect(withInstructions(undefined, undefined)).toBeUndefined();
  });
});
