import { describe, expect, it } from 'vitest';
import { InvalidToolError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { upFrontDescription } from './up-front-description.js';

describe('upFrontDescription', () => {
  it('keeps a string (or none), and calls a function once with the empty context', () => {
    expect(upFrontDescription('t', 'Plain.', {})).toBe('Plain.');
    expect(upFrontDescription('t', undefined, {})).toBeUndefined();
    const seen: unknown[] = [];
    const made = upFrontDescription(
      't',
      (context: { user?: string }) => {
        seen.push(context);
        return `For ${context.user ?? 'anyone'}.`;
      },
      {},
    );
    expect(made).toBe('For anyone.');
    expect(seen).toEqual([{}]);
  });

  it('names the tool and the reason when the function fails', () => {
    const cause = new Error('no user');
    const error = thrown(() =>
      upFrontDescription(
        'ctx',
        () => {
          throw cause;
        },
        {},
      ),
    );
    expect(InvalidToolError.isInstance(error) && error.field).toBe('description');
    expect((error as Error).message).toMatch(
      /^Tool "ctx": its description is a function that failed without a tool context \(no user\)/,
    );
    expect((error as Error).cause).toBe(cause);
  });
});
