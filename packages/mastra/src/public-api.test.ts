import { ToolCallFailedError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('the public API of @toolscout/mastra', () => {
  it('is the processor, the converters and the refused-call error, nothing else', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ToolCallFailedError',
      'ToolSearchProcessor',
      'conversationFromMessages',
      'fromMastraTool',
      'fromMastraTools',
      'toMastraTool',
    ]);
    // Core's class itself, so ToolCallFailedError.isInstance works the same in every adapter.
    expect(api.ToolCallFailedError).toBe(ToolCallFailedError);
  });
});
