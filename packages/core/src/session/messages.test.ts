// The sentences of `messages.ts` that the model reads when its arguments are wrong (issue #20, found 9).
import { describe, expect, it } from 'vitest';
import { invalidArguments } from './messages.js';
import { ToolSearchSession } from './tool-search-session.js';

describe('invalidArguments', () => {
  it('joins the issues into one sentence: no full stop before a semicolon, one at the end', () => {
    const failure = invalidArguments('add', [
      { path: 'b', message: 'Required property is missing.' },
      { path: 'a', message: 'Expected "number".' },
      { path: '', message: 'Too many properties..  ' },
    ]);
    expect(failure.error.message).toBe(
      'Invalid arguments for tool "add": b: Required property is missing; a: Expected "number"; (input): Too many properties. Fix these fields and call it again.',
    );
    // The structured issues keep the validator's words.
    expect(failure.error.issues?.[0]).toEqual({ path: 'b', message: 'Required property is missing.' });
  });

  it('reads so in a real call with two wrong fields', async () => {
    const session = new ToolSearchSession({
      catalog: [
        {
          id: 'add',
          description: 'Add two numbers',
          inputSchema: {
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
            required: ['a', 'b'],
          },
          execute: () => 0,
          pinned: true,
        },
      ],
    });
    const step = await session.prepareStep({ threadId: 't' });
    const outcome = await step.execute('add', { a: 'two' });
    session.dispose();
    expect(outcome.ok).toBe(false);
    const message = (outcome as { error: { message: string } }).error.message;
    expect(message).toMatch(/^Invalid arguments for tool "add": .+\. Fix these fields and call it again\.$/);
    expect(message).not.toMatch(/\.;|\.\./);
    expect(message).toMatch(/; /);
  });
});
